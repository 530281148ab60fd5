import CourtsideModel

/// A subscriber that is signalled when a commit holds an update that matters to it, and reads
/// the committed state itself when the signal comes.
struct SignalsSubscriber: CommitSubscriber {
    let matters: @Sendable (GameUpdate) -> Bool
    let continuation: AsyncStream<Void>.Continuation

    func yield(_ updates: [GameUpdate], tournament: [GameEvent]) {
        // Through a buffer pointer: `contains(where:)`, and an array's subscript, hand the
        // predicate a copy of each update (every string of the event and the game retained and
        // released), about 3% of the log writer's time under 16 keepers.
        let matched = updates.withUnsafeBufferPointer { updates in updates.indices.contains { matters(updates[$0]) } }
        if matched { continuation.yield() }
    }

    func finish() { continuation.finish() }
}

extension CommittedView {
    /// A signal after each commit that holds an update for which `matters` is true; signals
    /// not yet taken count as one.
    ///
    /// `matters` runs on the committing thread (the log writer's, or a caller's such as the I/O
    /// thread), on each update of a commit until one matters: it must be quick and never block. A consumer
    /// that wants only a few kinds of update is then woken for those alone, not for every commit
    /// (the bracket's, woken for every commit, cost a lone keeper's move a pool thread's wake-up).
    func signals(when matters: @escaping @Sendable (GameUpdate) -> Bool) -> AsyncStream<Void> {
        subscribe(bufferingPolicy: .bufferingNewest(1)) { SignalsSubscriber(matters: matters, continuation: $0) }
    }
}
