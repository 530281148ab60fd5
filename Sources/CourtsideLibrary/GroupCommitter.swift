import CourtsideModel
import CourtsideStorage
import Logging

/// The write path, assembled: the library's one handle on it.
///
/// Each part holds one job, in a file of its own: the ``CommitWriter`` numbers commands and
/// commits them in batches (group commit), its states a ``WriterStateMachine``; the
/// ``CommittedView`` holds what is committed, for every read; subscribers (``CommitSubscriber``)
/// hear of each commit; the ``Checkpointer`` writes checkpoints beside the commits. Whether a
/// commit may run on the caller's thread is the caller's ``CommitPolicy``. This type only builds
/// them from what a start restored and passes the library's calls on, so that the library's code
/// does not change with the parts.
final class GroupCommitter: Sendable {
    /// The most commands that may wait for a commit before new ones are refused with `overloaded`.
    static let defaultQueueLimit = 100_000  // GameLibrary.init's default too

    private let writer: CommitWriter
    private let view: CommittedView

    /// `changedSinceCheckpoint` are the games changed after the checkpoint the start used, nil
    /// when it used none; `eventsSinceCheckpoint` how many events it replayed after it. A start
    /// that replayed a whole interval or more writes a checkpoint before its first commit.
    init(
        log: any EventLog, games: [GameID: Game], lastSequence: Int64, queueLimit: Int = defaultQueueLimit,
        checkpoints: CheckpointPolicy = .none, changedSinceCheckpoint: Set<GameID>? = nil, eventsSinceCheckpoint: Int = 0,
        logger: Logger
    ) {
        view = CommittedView(games: games, sequence: lastSequence)
        let checkpointer = Checkpointer(
            log: log, view: view, policy: checkpoints, changedSinceCheckpoint: changedSinceCheckpoint,
            eventsSinceCheckpoint: eventsSinceCheckpoint, logger: logger)
        writer = CommitWriter(
            log: log, view: view, checkpointer: checkpointer, lastSequence: lastSequence, queueLimit: queueLimit,
            logger: logger)
    }

    // MARK: - Commands (the writer)

    /// See ``CommitWriter/enqueue(_:games:refusal:essential:commit:)``.
    func enqueue(
        _ events: [GameEvent], games: [Game], refusal: CommandRefusal? = nil, essential: Bool = false,
        commit: CommitPolicy = .logWriter
    ) throws(CourtsideError) -> CommitTicket {
        try writer.enqueue(events, games: games, refusal: refusal, essential: essential, commit: commit)
    }

    /// See ``CommitWriter/commitQueued(here:)``.
    func commitQueued(here: Bool) { writer.commitQueued(here: here) }

    /// See ``CommitWriter/waitUntilNotWriting()``.
    func waitUntilNotWriting() { writer.waitUntilNotWriting() }

    /// The failure that stopped the write path, if one did.
    var failure: CourtsideError? { writer.failure }

    /// See ``CommitWriter/failures``.
    var failures: AsyncStream<CourtsideError> { writer.failures }

    /// See ``CommitWriter/oldestPendingCommit``.
    var oldestPendingCommit: Duration? { writer.oldestPendingCommit }

    /// Whether any command waits for its commit, queued or being written.
    var isCommitting: Bool { writer.isCommitting }

    // MARK: - Reads (the committed view)

    /// The committed games whose regulation time has run out by `now`.
    func expired(at now: Timestamp) -> [GameID] { view.expired(at: now) }

    /// Every committed game and the sequence it reflects, read in one step.
    func snapshot() -> Snapshot<CommittedGames> { view.snapshot() }

    /// How many committed games are in each status, and the sequence that reflects.
    func statusCounts() -> Snapshot<[GameStatus: Int]> { view.statusCounts() }

    /// One committed game, if it exists, and the sequence it reflects.
    func snapshot(of id: GameID) -> Snapshot<Game?> { view.snapshot(of: id) }

    /// See ``CommittedView/updates(bufferLimit:)``.
    func subscribe(bufferLimit: Int) -> AsyncStream<GameUpdate> { view.updates(bufferLimit: bufferLimit) }

    /// See ``CommittedView/commits(bufferLimit:)``.
    func subscribeToCommits(bufferLimit: Int) -> AsyncStream<Commit> { view.commits(bufferLimit: bufferLimit) }

    /// See ``CommittedView/signals(when:)``.
    func signals(when matters: @escaping @Sendable (GameUpdate) -> Bool) -> AsyncStream<Void> {
        view.signals(when: matters)
    }

    /// Commits what is queued, stops the writer and ends every subscription.
    func close() async {
        await writer.close()
        view.close()
    }
}
