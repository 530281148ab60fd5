import CourtsideModel

/// A subscriber that takes a commit's updates at a time: one hand-over per commit, however many
/// commands it holds.
struct CommitsSubscriber: CommitSubscriber {
    let continuation: AsyncStream<[GameUpdate]>.Continuation

    func yield(_ updates: [GameUpdate]) { continuation.yield(updates) }

    func finish() { continuation.finish() }
}

extension CommittedView {
    /// As ``updates(bufferLimit:)``, a commit's updates at a time. `bufferLimit` counts commits.
    func commits(bufferLimit: Int) -> AsyncStream<[GameUpdate]> {
        subscribe(bufferingPolicy: .bufferingOldest(bufferLimit), CommitsSubscriber.init)
    }
}
