/// `sync` events every few seconds on one browser's `/api/events` stream, for a page that asks
/// with `?ping=SECONDS` (1 to 60). The gateway's `: ping` comments (every 15 s) keep streams
/// honest on the server's side, but EventSource never shows a comment to a script; a `sync`
/// event it does, so a page can tell a stream gone silent (a stalled proxy, a cut leg of the
/// network) from a quiet game. Each carries `in_sync`, the gateway's standing with the daemon;
/// ``EventStreamHub`` sends them from the stream's event loop.
enum EventStreamPings {
    /// The interval a request's `ping` parameter asks for, or nil for none.
    static func interval(_ parameter: Substring?) -> Duration? {
        guard let parameter, let seconds = Int(parameter) else { return nil }
        return .seconds(min(max(seconds, 1), 60))
    }
}
