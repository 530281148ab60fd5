import CourtsideModel

/// A subscriber that takes a commit at a time: one hand-over per commit, however many commands
/// it holds, with its tournament changes (the publisher's, which must number every event).
struct CommitsSubscriber: CommitSubscriber {
    let continuation: AsyncStream<Commit>.Continuation

    func yield(_ updates: [GameUpdate], tournament: [GameEvent]) {
        continuation.yield(Commit(updates: updates, tournament: tournament))
    }

    func finish() { continuation.finish() }
}

extension CommittedView {
    /// As ``updates(bufferLimit:)``, a commit's updates at a time. `bufferLimit` counts commits.
    func commits(bufferLimit: Int) -> AsyncStream<Commit> {
        subscribe(bufferingPolicy: .bufferingOldest(bufferLimit), CommitsSubscriber.init)
    }
}
