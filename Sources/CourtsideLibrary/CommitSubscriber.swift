import CourtsideModel

/// Something that hears of every commit, in sequence order, on the committing thread: the log
/// writer's, or a caller's (``CommitPolicy``). Hearing must be quick and must never block.
///
/// The kinds: ``UpdatesSubscriber`` (an update at a time), ``CommitsSubscriber`` (a commit's
/// updates at a time) and ``SignalsSubscriber`` (a signal when a commit holds an update that
/// matters to it).
protocol CommitSubscriber: Sendable {
    /// Hears one commit's updates, and its tournament changes (events of ``GameID/tournament``,
    /// rare, which change no game).
    func yield(_ updates: [GameUpdate], tournament: [GameEvent])
    /// Ends the stream: the library is closing, or the consumer left.
    func finish()
}

/// Every subscriber, registered by id, until the close: after it, none can join.
///
/// Held with the committed games under one lock (``CommittedView``), so that "subscribe, then
/// snapshot" never misses an event.
enum CommitSubscribers {
    case open([Int: any CommitSubscriber], next: Int)
    case closed

    /// Adds `subscriber` and returns its id; nil after the close, when it must end at once.
    mutating func register(_ subscriber: any CommitSubscriber) -> Int? {
        guard case .open(var subscribers, let id) = self else { return nil }
        // Moved out while it changes, so that the change copies nothing.
        self = .closed
        subscribers[id] = subscriber
        self = .open(subscribers, next: id + 1)
        return id
    }

    mutating func unregister(_ id: Int) {
        guard case .open(var subscribers, let next) = self else { return }
        self = .closed
        subscribers.removeValue(forKey: id)
        self = .open(subscribers, next: next)
    }

    /// Those to hear the commit being published.
    var all: [any CommitSubscriber] {
        guard case .open(let subscribers, _) = self else { return [] }
        return Array(subscribers.values)
    }

    /// Closes the registry: returns every subscriber, to finish.
    mutating func close() -> [any CommitSubscriber] {
        defer { self = .closed }
        return all
    }
}

extension CommittedView {
    /// A stream that `subscriber` feeds, registered until its consumer leaves; after the close,
    /// ended at once, since no update will ever come.
    func subscribe<Element, Subscriber: CommitSubscriber>(
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy,
        _ subscriber: (AsyncStream<Element>.Continuation) -> Subscriber
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: bufferingPolicy)
        let subscriber = subscriber(continuation)
        if let id = register(subscriber) {
            continuation.onTermination = { [weak self] _ in self?.unregister(id) }
        } else {
            subscriber.finish()
        }
        return stream
    }
}
