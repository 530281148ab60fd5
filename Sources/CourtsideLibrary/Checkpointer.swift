import CourtsideModel
import CourtsideStorage
import CourtsideThreads
import Dispatch
import HashTreeCollections
import Logging
import Metrics
import Synchronization

/// Writes checkpoints of the committed games into the log, on a thread of its own, beside the
/// commits (see ``CheckpointPolicy``).
///
/// The holder of the writer's role begins a checkpoint (``committed(_:)``, ``beginIfDue()``,
/// ``close()``): only it commits, so the games' states it takes from the ``CommittedView`` are
/// exactly what the log holds up to their sequence. This thread then writes them a part at a
/// time, and never takes the writer's role: the log keeps its checkpoints where no commit waits
/// for them, so a move never waits behind a part (nor behind the copies of the WAL that the
/// parts' bytes would bring about in the log's own file).
final class Checkpointer: Sendable {
    /// Where the checkpoint thread is in its life.
    private enum Phase {
        /// Writes each checkpoint begun.
        case running
        /// A commit failed: it writes nothing more (the library serves nothing more, and the
        /// next start replays the log).
        case halted
        /// Closing: it stops after the part it is writing.
        case stopping
    }

    /// What the next checkpoint must write, when it is due, and the one being written.
    private struct Progress {
        /// Games committed since the last checkpoint began.
        var changed: Set<GameID>
        /// Whether the next checkpoint must write every game: none was used or written yet.
        var complete: Bool
        var eventsSince: Int
        var writing: InProgress?
        var phase = Phase.running
        /// The plays of long games as the last checkpoint that wrote them encoded them, while
        /// they are unchanged (``CheckpointCoding/keepsEncodedPlays(_:)``): the next checkpoint
        /// encodes only the plays after them.
        var encodedPlays: [GameID: CheckpointCoding.EncodedPlays] = [:]
        /// Games whose plays changed after the checkpoint being written took its states: what it
        /// encodes of them is not kept.
        var reshaped: Set<GameID> = []

        /// Whether a checkpoint is to begin: an interval's worth of events since the last began,
        /// none being written, and the log not failed.
        func isDue(_ policy: CheckpointPolicy) -> Bool {
            phase == .running && writing == nil && eventsSince >= policy.interval
        }
    }

    /// A checkpoint written a part at a time beside the commits: the games' states were taken
    /// when it began, so it reflects exactly one sequence however many commits pass meanwhile.
    private struct InProgress {
        let sequence: Int64
        let complete: Bool
        let gameCount: Int
        let games: [Game]
        /// The games before this one are written.
        var next = 0
        var parts = 0
        let began: ContinuousClock.Instant
        /// The time its parts took to encode and write.
        var busy: Duration = .zero
        /// How many games a part holds, from what the last part cost to write; nil before the
        /// first, which is sized by its encoding time.
        var gamesPerPart: Int?
    }

    private let log: any EventLog
    private let view: CommittedView
    private let policy: CheckpointPolicy
    private let logger: Logger
    private let durations = Timer(label: "courtside_checkpoint_duration_seconds")
    private let progress: Mutex<Progress>
    /// Wakes the checkpoint thread: a checkpoint begun, or the close.
    private let wake = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)

    /// `changedSinceCheckpoint` are the games changed after the checkpoint the start used, nil
    /// when it used none; `eventsSinceCheckpoint` how many events it replayed after it.
    init(
        log: any EventLog, view: CommittedView, policy: CheckpointPolicy, changedSinceCheckpoint: Set<GameID>?,
        eventsSinceCheckpoint: Int, logger: Logger
    ) {
        self.log = log
        self.view = view
        self.policy = policy
        self.logger = logger
        progress = Mutex(
            Progress(
                changed: changedSinceCheckpoint ?? [], complete: changedSinceCheckpoint == nil,
                eventsSince: eventsSinceCheckpoint))
        startThread(named: "courtside.ckpt") { [self] in
            self.run()
        }
    }

    // MARK: - Called by the holder of the writer's role

    /// At the start: a start that replayed an interval or more writes a checkpoint at once.
    func beginIfDue() {
        if progress.withLock({ $0.isDue(policy) }) { begin() }
    }

    /// After a commit of `events`, applied to the view and answered: the commands just committed
    /// never wait for a checkpoint to begin.
    func committed(_ events: [GameEvent]) {
        let due = progress.withLock { progress in
            for index in events.indices {
                progress.changed.insert(events[index].gameID)
                if !CheckpointCoding.keepsEncodedPlays(events[index].kind) {
                    progress.encodedPlays[events[index].gameID] = nil
                    if progress.writing != nil { progress.reshaped.insert(events[index].gameID) }
                }
            }
            progress.eventsSince += events.count
            return progress.isDue(policy)
        }
        if due { begin() }
    }

    /// On close: one checkpoint of everything changed since the last one, written whole (the
    /// one being written, if any, joins it), so that the next start replays nothing.
    func close() {
        let halted = progress.withLock { progress in
            defer { progress.phase = .stopping }
            return progress.phase == .halted
        }
        wake.signal()
        stopped.wait()
        deferInProgress()
        guard policy.atClose, !halted else { return }
        begin()
        guard let part = nextPart(whole: true) else { return }
        writeOnItsOwn(part)
    }

    // MARK: - Called by the writer

    /// A commit failed: the checkpoint being written, if any, is dropped, and none begins.
    func halt() {
        progress.withLock { progress in
            if progress.phase == .running { progress.phase = .halted }
        }
    }

    // MARK: - The checkpoint thread

    /// Writes each checkpoint begun, a part at a time, until the close.
    private func run() {
        while true {
            wake.wait()
            parts: while true {
                switch progress.withLock({ $0.phase }) {
                case .running: break
                case .stopping:
                    stopped.signal()
                    return
                case .halted:
                    progress.withLock { $0.writing = nil }
                    break parts
                }
                let started = ContinuousClock.now
                guard let part = nextPart() else { break }
                writeOnItsOwn(part, started: started)
            }
        }
    }

    // MARK: - Parts

    /// Takes the committed state of the games changed since the last checkpoint (of every game,
    /// when `complete`), as of the last committed sequence.
    private func begin() {
        let (games, sequence, count) = view.withGames { committed, sequence in
            progress.withLock { progress in
                (
                    progress.complete ? Array(committed.values) : progress.changed.compactMap { committed[$0] },
                    sequence, committed.count
                )
            }
        }
        progress.withLock { progress in
            progress.eventsSince = 0
            guard progress.writing == nil, sequence > 0, !games.isEmpty else { return }
            progress.writing = InProgress(
                sequence: sequence, complete: progress.complete, gameCount: count, games: games, began: .now)
            progress.changed = []
            progress.complete = false
            progress.reshaped = []
        }
        wake.signal()
    }

    /// The next games of the checkpoint being written, encoded, as many as fit in the part
    /// budget; nil when none is being written.
    ///
    /// A part holds as many games as the budget allows at what the last part cost a game to
    /// encode and write, measured: that depends on the games' size and the disk. The first
    /// part, with nothing measured yet, is sized at three times its encoding time.
    private func nextPart(whole: Bool = false) -> (part: CheckpointPart, next: Int)? {
        guard let writing = progress.withLock({ $0.writing }) else { return nil }
        let started = ContinuousClock.now
        var states: [CheckpointPart.State] = []
        var next = writing.next
        func full() -> Bool {
            if whole { return false }
            if let size = writing.gamesPerPart { return states.count >= size }
            return (ContinuousClock.now - started) * 3 >= policy.partBudget
        }
        repeat {
            states.append(state(of: writing.games[next]))
            next += 1
        } while next < writing.games.count && !full()
        let done = next == writing.games.count
        let part = CheckpointPart(
            sequence: writing.sequence, states: states, first: writing.next == 0, complete: writing.complete,
            completion: done ? writing.gameCount : nil)
        return (part, next)
    }

    /// A game's state encoded, reusing its plays as encoded last time while they are unchanged;
    /// a long game's plays are kept for the next time, unless they changed since this
    /// checkpoint took its state, or the game is over (it changes no more).
    private func state(of game: Game) -> CheckpointPart.State {
        let reused = progress.withLock { $0.encodedPlays[game.id] }
        let keep = game.plays.count >= policy.reusedPlaysFrom && !game.isFinished
        let (bytes, plays) = CheckpointCoding.encode(game, reusing: reused, keep: keep)
        if plays != nil || reused != nil {
            progress.withLock { progress in
                progress.encodedPlays[game.id] = progress.reshaped.contains(game.id) ? nil : plays
            }
        }
        return CheckpointPart.State(game: game.id, bytes: bytes)
    }

    /// Writes a part in a transaction of its own; a failure abandons the checkpoint.
    private func writeOnItsOwn(_ part: (part: CheckpointPart, next: Int), started: ContinuousClock.Instant = .now) {
        do {
            try log.writeCheckpoint(part.part)
        } catch {
            abandon(because: error)
            return
        }
        partWritten(part, cost: ContinuousClock.now - started)
    }

    /// Records a part as written, at the cost measured for it, and the checkpoint as in force
    /// after its last part.
    private func partWritten(_ written: (part: CheckpointPart, next: Int), cost: Duration) {
        let done: InProgress? = progress.withLock { progress in
            guard var writing = progress.writing, writing.sequence == written.part.sequence else { return nil }
            writing.next = written.next
            writing.parts += 1
            // At least a game a part, so that a checkpoint always ends however slow the disk; at
            // most twice the last, since a cost measured on a busy machine is a rough one.
            let count = written.part.states.count
            let perGame = max(cost, .microseconds(1)) / count
            writing.gamesPerPart = min(2 * count, max(1, Int(policy.partBudget / perGame)))
            writing.busy += max(cost, .zero)
            progress.writing = written.part.completion == nil ? writing : nil
            if written.part.completion != nil { progress.reshaped = [] }
            return written.part.completion == nil ? nil : writing
        }
        if let done { logWritten(done) }
    }

    /// Hands the games of the checkpoint being written, if any, to the next one, and stops it.
    /// Returns its sequence.
    @discardableResult
    private func deferInProgress() -> Int64? {
        progress.withLock { progress in
            defer {
                progress.writing = nil
                progress.reshaped = []
            }
            guard let writing = progress.writing else { return nil }
            progress.changed.formUnion(writing.games.map(\.id))
            progress.complete = progress.complete || writing.complete
            return writing.sequence
        }
    }

    /// A checkpoint that failed part-way is not used; its games go to the next one. Nothing is
    /// lost: the next start replays more of the log.
    private func abandon(because error: any Error) {
        let abandoned = deferInProgress()
        logger.error(
            "a checkpoint could not be written", metadata: ["checkpoint.sequence": "\(abandoned ?? 0)", "error": "\(error)"])
    }

    private func logWritten(_ written: InProgress) {
        durations.recordNanoseconds(written.busy.nanoseconds)
        logger.info(
            "checkpoint written",
            metadata: [
                "checkpoint.sequence": "\(written.sequence)", "checkpoint.games": "\(written.games.count)",
                "checkpoint.parts": "\(written.parts)", "checkpoint.write_ms": "\(written.busy.inMilliseconds)",
                "checkpoint.ms": "\((ContinuousClock.now - written.began).inMilliseconds)",
            ])
    }
}
