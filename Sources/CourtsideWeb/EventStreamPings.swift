/// `sync` events every few seconds on one browser's `/api/events` stream, for a page that asks
/// with `?ping=SECONDS` (1 to 60). The gateway's `: ping` comments (every 15 s) keep streams
/// honest on the server's side, but EventSource never shows a comment to a script; a `sync`
/// event it does, so a page can tell a stream gone silent (a stalled proxy, a cut leg of the
/// network) from a quiet game. Each carries `in_sync`, the gateway's standing with the daemon.
enum EventStreamPings {
    /// The interval a request's `ping` parameter asks for, or nil for none.
    static func interval(_ parameter: Substring?) -> Duration? {
        guard let parameter, let seconds = Int(parameter) else { return nil }
        return .seconds(min(max(seconds, 1), 60))
    }

    /// `updates`, with a `sync` event of `inSync()` every `interval`. Ends when `updates` ends
    /// (a browser too slow for its buffer, or the gateway stopping); stops both tasks when the
    /// response is gone.
    static func merge(
        _ updates: AsyncStream<EventStreamMessage>, every interval: Duration, inSync: @escaping @Sendable () -> Bool
    ) -> AsyncStream<EventStreamMessage> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: EventStreamMessage.self, bufferingPolicy: .bufferingOldest(1000))
        let forward = Task {
            for await message in updates {
                if case .dropped = continuation.yield(message) { break }
            }
            continuation.finish()
        }
        let ping = Task {
            while true {
                do { try await Task.sleep(for: interval) } catch { return }
                if let message = EventStreamMessage(.sync(inSync())) { continuation.yield(message) }
            }
        }
        continuation.onTermination = { _ in
            forward.cancel()
            ping.cancel()
        }
        return stream
    }
}
