import CourtsideModel

/// A subscriber that takes every committed update, one at a time.
struct UpdatesSubscriber: CommitSubscriber {
    let continuation: AsyncStream<GameUpdate>.Continuation

    func yield(_ updates: [GameUpdate], tournament: [GameEvent]) {
        for update in updates { continuation.yield(update) }
    }

    func finish() { continuation.finish() }
}

extension CommittedView {
    /// A stream of every update committed from now on, in sequence order.
    ///
    /// Registration and snapshots share one lock, so "subscribe, then snapshot" never misses an
    /// event. When the consumer falls `bufferLimit` updates behind, newer ones are dropped; the
    /// consumer sees the gap in the sequence numbers and takes a new snapshot.
    func updates(bufferLimit: Int) -> AsyncStream<GameUpdate> {
        subscribe(bufferingPolicy: .bufferingOldest(bufferLimit), UpdatesSubscriber.init)
    }
}
