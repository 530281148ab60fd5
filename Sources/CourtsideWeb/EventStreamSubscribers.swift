import CourtsideLocalization
import NIOCore

/// Who follows ``LiveTournament``'s changes: the browsers' `/api/events` streams, by event loop
/// (``EventStreamHub``), and streams for programs in this process (``LiveTournament/updates(words:)``),
/// with how many follow in each language, so that a broadcast encodes once for each language
/// that has a stream without walking thousands of streams to find them.
struct EventStreamSubscribers {
    /// Counts the broadcasts: a stream gets those after the one its state reflected.
    private(set) var generation: UInt64 = 0
    private var next = 0
    private(set) var streams: [Int: Stream] = [:]
    private(set) var hubs: [ObjectIdentifier: EventStreamHub] = [:]
    private(set) var languages: [Language: Int] = [:]
    /// The browsers' streams the hubs write to.
    private(set) var channels = 0
    /// The state new browsers' streams start with, made once for many.
    var states = EventStreamStates()

    struct Stream {
        var language: Language
        var continuation: AsyncStream<EventStreamMessage>.Continuation
    }

    /// Every stream, of either kind.
    var count: Int { streams.count + channels }

    /// A new broadcast's generation.
    mutating func advance() -> UInt64 {
        generation += 1
        return generation
    }

    /// A new id for a stream of either kind.
    mutating func newID() -> Int {
        defer { next += 1 }
        return next
    }

    mutating func add(_ stream: Stream) -> Int {
        let id = newID()
        streams[id] = stream
        languages[stream.language, default: 0] += 1
        return id
    }

    mutating func remove(_ id: Int) {
        guard let gone = streams.removeValue(forKey: id) else { return }
        forget(gone.language)
    }

    /// A browser's stream in `language` joined a hub.
    mutating func joined(_ language: Language) {
        channels += 1
        languages[language, default: 0] += 1
    }

    /// A browser's stream in `language` left its hub.
    mutating func left(_ language: Language) {
        channels = max(0, channels - 1)
        forget(language)
    }

    /// The hub of `loop`, made by `make` the first time.
    mutating func hub(for loop: any EventLoop, make: () -> EventStreamHub) -> EventStreamHub {
        if let hub = hubs[ObjectIdentifier(loop)] { return hub }
        let hub = make()
        hubs[ObjectIdentifier(loop)] = hub
        return hub
    }

    /// Every in-process stream's continuation, those streams forgotten (the hubs end their own).
    mutating func removeAll() -> [AsyncStream<EventStreamMessage>.Continuation] {
        defer {
            for stream in streams.values { forget(stream.language) }
            streams = [:]
        }
        return streams.values.map(\.continuation)
    }

    private mutating func forget(_ language: Language) {
        languages[language, default: 1] -= 1
        if languages[language] == 0 { languages[language] = nil }
    }
}
