import CourtsideModel
import CourtsideStorage
import CourtsideThreads
import Dispatch
import Foundation
import HashTreeCollections
import Logging
import Metrics
import Synchronization

/// The write path: numbers events, commits them in batches on a dedicated thread (or on the
/// caller's, see below), then publishes them in sequence order and settles the waiting commands.
///
/// Commands enqueue synchronously from their game actor, which keeps each game's order, and
/// every command that arrives while a commit is in flight joins the next one (group commit):
/// one fsync serves them all. Disk I/O never runs on Swift's cooperative pool.
///
/// Whoever commits holds the writer's role: the writer thread, or a thread of the caller's that
/// commits its own commands while the writer is idle (``commitQueued(here:)``), saving the two
/// hand-overs between threads that a lone command would otherwise wait for. Checkpoints are
/// written on a third thread, which never holds that role.
final class GroupCommitter: Sendable {
    private struct Entry {
        var events: [GameEvent]
        /// The game's state after each event, for the committed view and subscribers; empty for
        /// the tournament's stream (``GameID/tournament``), whose events change no game.
        var games: [Game]
        /// Set when the command was refused: the ticket then settles with this refusal once it
        /// is durable (with any events found on the way, such as time running out).
        var refusal: CommandRefusal?
        var ticket: CommitTicket
    }

    private struct Queue {
        var nextSequence: Int64
        var entries: [Entry] = []
        var closing = false
        var failure: CourtsideError?
        var onExit: CheckedContinuation<Void, Never>?
        /// When the oldest entry still queued was queued, and when the oldest of the batch being
        /// written was: together, how long the oldest command has waited for its commit.
        var queuedSince: ContinuousClock.Instant?
        var writingSince: ContinuousClock.Instant?
        /// The writer was woken for what is queued: later entries need not wake it again.
        var writerWoken = false
    }

    /// A subscriber's stream: an update at a time, a commit's updates at a time, or a signal
    /// when a commit holds an update that matters to it.
    private enum Subscriber {
        case updates(AsyncStream<GameUpdate>.Continuation)
        case commits(AsyncStream<Commit>.Continuation)
        case signals(@Sendable (GameUpdate) -> Bool, AsyncStream<Void>.Continuation)

        func yield(_ updates: [GameUpdate], tournament: [GameEvent]) {
            switch self {
            case .updates(let continuation): for update in updates { continuation.yield(update) }
            case .commits(let continuation): continuation.yield(Commit(updates: updates, tournament: tournament))
            case .signals(let matters, let continuation):
                // By index: `contains(where:)` hands the predicate a copy of each update.
                if updates.indices.contains(where: { matters(updates[$0]) }) { continuation.yield() }
            }
        }

        func finish() {
            switch self {
            case .updates(let continuation): continuation.finish()
            case .commits(let continuation): continuation.finish()
            case .signals(_, let continuation): continuation.finish()
            }
        }
    }

    /// What has been committed: the state every snapshot reads and every subscriber starts from.
    private struct Committed {
        /// A persistent map: a snapshot shares it, and the next commit copies a path of nodes,
        /// not the whole map (a `Dictionary` held by a reader was copied whole by the next
        /// commit: 10,000 games, a few milliseconds, on the writer thread).
        var games: TreeDictionary<GameID, Game>
        /// The games' ids in order, kept as games are created: every full snapshot lists the
        /// games by id, and sorting 10,000 ids took it a few milliseconds.
        var sortedIDs: [GameID]
        var sequence: Int64
        /// When regulation time runs out in each committed game whose clock runs toward a limit:
        /// the clock timer's look-up, a few courts' worth rather than every game.
        var expiries: [GameID: Timestamp] = [:]
        /// How many committed games are in each status, kept as games change: the systemd status
        /// line and the metrics read it often, and counting 10,000 games copied every one.
        var statusCounts: [GameStatus: Int] = [:]
        var subscribers: [Int: Subscriber] = [:]
        var nextSubscriber = 0
        var closed = false
    }

    /// What the next checkpoint must write, when it is due, and the one being written: the
    /// holder of the writer's role begins a checkpoint, the checkpoint thread writes it.
    private struct CheckpointProgress {
        /// Games committed since the last checkpoint began.
        var changed: Set<GameID>
        /// Whether the next checkpoint must write every game: none was used or written yet.
        var complete: Bool
        var eventsSince: Int
        var writing: CheckpointInProgress?
        /// Set at close: the checkpoint thread stops after the part it is writing.
        var stopping = false
    }

    /// A checkpoint written a part at a time beside the commits: the games' states were taken
    /// when it began, so it reflects exactly one sequence however many commits pass meanwhile.
    private struct CheckpointInProgress {
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

    /// Commands committed in a burst after which the writer, once idle a second, gives freed
    /// memory back.
    static let trimAfterEvents = 10_000

    /// The most commands that may wait for a commit before new ones are refused with `overloaded`.
    static let defaultQueueLimit = 100_000  // GameLibrary.init's default too

    private let log: any EventLog
    private let logger: Logger
    private let queueLimit: Int
    // Made once, not per commit: a handle per call looks the metric up in the registry.
    private let batchSizes = Recorder(label: "courtside_commit_batch_commands", aggregate: true)
    private let commitDurations = Timer(label: "courtside_commit_duration_seconds")
    private let queue: Mutex<Queue>
    private let committed: Mutex<Committed>
    private let wake = DispatchSemaphore(value: 0)
    /// Held by whoever commits: commits go to the log one at a time and in sequence order. A
    /// checkpoint begins under it (its states are then exactly the log's up to its sequence);
    /// the checkpoint thread writes it without it.
    private let role = Mutex<Void>(())
    /// Set after a slow commit on a caller's thread: until then, the writer commits for callers.
    private let callerCommitsPausedUntil = Mutex<ContinuousClock.Instant?>(nil)
    private let checkpoints: CheckpointPolicy
    private let checkpointProgress: Mutex<CheckpointProgress>
    private let checkpointDurations = Timer(label: "courtside_checkpoint_duration_seconds")
    /// Wakes the checkpoint thread: a checkpoint begun, or the close.
    private let checkpointerWake = DispatchSemaphore(value: 0)
    private let checkpointerStopped = DispatchSemaphore(value: 0)

    /// `changedSinceCheckpoint` are the games changed after the checkpoint the start used, nil
    /// when it used none; `eventsSinceCheckpoint` how many events it replayed after it. A start
    /// that replayed a whole interval or more writes a checkpoint before its first commit.
    init(
        log: any EventLog, games: [GameID: Game], lastSequence: Int64, queueLimit: Int = defaultQueueLimit,
        checkpoints: CheckpointPolicy = .none, changedSinceCheckpoint: Set<GameID>? = nil, eventsSinceCheckpoint: Int = 0,
        logger: Logger
    ) {
        self.log = log
        self.logger = logger
        self.queueLimit = queueLimit
        self.checkpoints = checkpoints
        checkpointProgress = Mutex(
            CheckpointProgress(
                changed: changedSinceCheckpoint ?? [], complete: changedSinceCheckpoint == nil,
                eventsSince: eventsSinceCheckpoint, writing: nil))
        queue = Mutex(Queue(nextSequence: lastSequence + 1))
        var expiries: [GameID: Timestamp] = [:]
        var statusCounts: [GameStatus: Int] = [:]
        for (id, game) in games {
            expiries[id] = game.expiryTime()
            statusCounts[game.status, default: 0] += 1
        }
        committed = Mutex(
            Committed(
                games: TreeDictionary(games), sortedIDs: games.keys.sorted(), sequence: lastSequence, expiries: expiries,
                statusCounts: statusCounts))
        startThread(named: "courtside.log") { [self] in
            self.runWriter()
        }
        startThread(named: "courtside.ckpt") { [self] in
            self.runCheckpointer()
        }
    }

    /// Set while a caller submits commands that it then commits itself (``commitQueued(here:)``):
    /// their entries do not wake the writer.
    @TaskLocal static var callerCommits = false

    /// Numbers `events` with the next sequence numbers and queues them, with the command's
    /// refusal if it was refused, for the next commit. Never blocks on I/O; callers await the
    /// returned ticket.
    /// `essential` entries (the daemon's own: time running out, the bracket) pass a full queue.
    func enqueue(_ events: [GameEvent], games: [Game], refusal: CommandRefusal? = nil, essential: Bool = false)
        throws(CourtsideError) -> CommitTicket
    {
        let ticket = CommitTicket()
        let callerCommits = Self.callerCommits
        let wakeWriter: Bool = try queue.withLock { (queue) throws(CourtsideError) -> Bool in
            if let failure = queue.failure { throw failure }
            if queue.closing { throw CourtsideError(.shuttingDown, "the game library is shutting down") }
            // The disk cannot keep up: refuse at once rather than grow without bound.
            if queue.entries.count >= queueLimit, !essential {
                throw CourtsideError(.overloaded, "courtsided has \(queueLimit) commands waiting for the disk; retry shortly")
            }
            var events = events
            for index in events.indices {
                events[index].sequence = queue.nextSequence
                queue.nextSequence += 1
            }
            queue.entries.append(Entry(events: events, games: games, refusal: refusal, ticket: ticket))
            if queue.entries.count == 1 { queue.queuedSince = .now }
            guard !callerCommits, !queue.writerWoken else { return false }
            queue.writerWoken = true
            return true
        }
        if wakeWriter { wake.signal() }
        return ticket
    }

    /// Commits what is queued on the calling thread, which may block on the disk, if the writer
    /// is idle; otherwise wakes the writer, which commits it after what it is writing.
    ///
    /// For a lone command this spares the hand-over to the writer thread and the one back to
    /// the thread that answers it: the command's ticket settles here, before this returns.
    ///
    /// A commit here slower than ``slowCallerCommit`` (a slow or failing disk) hands the
    /// callers' commits to the writer for ``callerCommitPause``: the caller's thread has other
    /// work (the daemon's reads its sockets) that must not wait on such a disk again and again.
    /// `here` false (the caller finds it may not block after all) leaves them to the writer.
    func commitQueued(here: Bool) {
        let started = ContinuousClock.now
        if !here || callerCommitsPausedUntil.withLock({ $0.map { started < $0 } ?? false }) {
            wake.signal()
            return
        }
        let committedHere: Void? = role.withLockIfAvailable { _ in
            let (batch, _) = takeQueued()
            if !batch.isEmpty { commit(batch) }
        }
        // A busy writer commits them after what it is writing.
        if committedHere == nil { wake.signal() }
        let now = ContinuousClock.now
        if now - started > Self.slowCallerCommit {
            callerCommitsPausedUntil.withLock { $0 = now + Self.callerCommitPause }
            logger.notice(
                "a commit took \((now - started).inMilliseconds) ms; commits go through the log writer alone for \(Self.callerCommitPause)"
            )
        }
    }

    /// The longest a commit on the caller's thread may take before such commits pause: about
    /// what a display's lag may grow by unnoticed. (This machine's disk has single fsyncs of
    /// 10 to 30 ms now and then; a lower bound paused them for nothing.)
    static let slowCallerCommit: Duration = .milliseconds(100)
    /// How long callers' commits go through the writer after a slow one.
    static let callerCommitPause: Duration = .seconds(10)

    /// Returns once no commit is being written (for tests: the writer still holds its role for a
    /// moment after a ticket settles).
    func waitUntilNotWriting() {
        role.withLock { _ in }
    }

    /// Takes what is queued as the next batch, marked as being written, and whether the
    /// committer is closing. Only the holder of the writer's role calls it.
    private func takeQueued() -> (batch: [Entry], closing: Bool) {
        queue.withLock { queue in
            defer {
                queue.entries = []
                queue.writingSince = queue.queuedSince
                queue.queuedSince = nil
                queue.writerWoken = false
            }
            return (queue.entries, queue.closing)
        }
    }

    /// The failure that stopped the write path, if one did.
    var failure: CourtsideError? { queue.withLock { $0.failure } }

    /// How long the oldest command not yet committed has waited; nil when none waits. It grows
    /// without bound while the writer is stuck (in fsync, say), which the watchdog looks for.
    var oldestPendingCommit: Duration? {
        let since = queue.withLock { queue in [queue.writingSince, queue.queuedSince].compactMap { $0 }.min() }
        return since.map { .now - $0 }
    }

    /// Whether any command waits for its commit, queued or being written.
    var isCommitting: Bool { queue.withLock { $0.writingSince != nil || $0.queuedSince != nil } }

    /// The committed games whose regulation time has run out by `now`.
    func expired(at now: Timestamp) -> [GameID] {
        committed.withLock { committed in committed.expiries.filter { $0.value <= now }.map(\.key) }
    }

    /// Every committed game and the sequence it reflects, read in one step.
    func snapshot() -> Snapshot<CommittedGames> {
        committed.withLock { Snapshot(value: CommittedGames(byID: $0.games, ids: $0.sortedIDs), sequence: $0.sequence) }
    }

    /// How many committed games are in each status, and the sequence that reflects.
    func statusCounts() -> Snapshot<[GameStatus: Int]> {
        committed.withLock { Snapshot(value: $0.statusCounts, sequence: $0.sequence) }
    }

    /// One committed game, if it exists, and the sequence it reflects.
    func snapshot(of id: GameID) -> Snapshot<Game?> {
        committed.withLock { Snapshot(value: $0.games[id], sequence: $0.sequence) }
    }

    /// A stream of every update committed from now on, in sequence order.
    ///
    /// Registration and snapshots share one lock, so "subscribe, then snapshot" never misses an
    /// event. When the consumer falls `bufferLimit` updates behind, newer ones are dropped; the
    /// consumer sees the gap in the sequence numbers and takes a new snapshot.
    func subscribe(bufferLimit: Int) -> AsyncStream<GameUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: GameUpdate.self, bufferingPolicy: .bufferingOldest(bufferLimit))
        if let id = register(.updates(continuation)) {
            continuation.onTermination = { [weak self] _ in self?.unregister(id) }
        }
        return stream
    }

    /// As ``subscribe(bufferLimit:)``, a commit's updates at a time: one hand-over per commit,
    /// however many commands it holds. `bufferLimit` counts commits.
    func subscribeToCommits(bufferLimit: Int) -> AsyncStream<Commit> {
        let (stream, continuation) = AsyncStream.makeStream(of: Commit.self, bufferingPolicy: .bufferingOldest(bufferLimit))
        if let id = register(.commits(continuation)) {
            continuation.onTermination = { [weak self] _ in self?.unregister(id) }
        }
        return stream
    }

    /// A signal after each commit that holds an update for which `matters` is true, read from the
    /// committed state when it comes; signals not yet taken count as one.
    ///
    /// `matters` runs on the committing thread (the log writer's, or a caller's such as the I/O
    /// thread), on each update of a commit until one matters: it must be quick and never block. A consumer
    /// that wants only a few kinds of update is then woken for those alone, not for every commit
    /// (the bracket's, woken for every commit, cost a lone keeper's move a pool thread's wake-up).
    func signals(when matters: @escaping @Sendable (GameUpdate) -> Bool) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        if let id = register(.signals(matters, continuation)) {
            continuation.onTermination = { [weak self] _ in self?.unregister(id) }
        }
        return stream
    }

    /// Adds a subscriber and returns its id; after close, ends its stream at once instead, since
    /// no update will ever come.
    private func register(_ subscriber: Subscriber) -> Int? {
        let id: Int? = committed.withLock { committed in
            guard !committed.closed else { return nil }
            let id = committed.nextSubscriber
            committed.nextSubscriber += 1
            committed.subscribers[id] = subscriber
            return id
        }
        if id == nil { subscriber.finish() }
        return id
    }

    private func unregister(_ id: Int) {
        _ = committed.withLock { $0.subscribers.removeValue(forKey: id) }
    }

    /// Commits what is queued, stops the writer and ends every subscription.
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let alreadyClosing = queue.withLock { queue in
                let was = queue.closing
                queue.closing = true
                if !was { queue.onExit = continuation }
                return was
            }
            if alreadyClosing {
                continuation.resume()
            } else {
                wake.signal()
            }
        }
        let subscribers = committed.withLock { committed in
            committed.closed = true
            defer { committed.subscribers = [:] }
            return Array(committed.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }

    // MARK: - The writer thread

    private func runWriter() {
        role.withLock { _ in checkpointIfDue() }
        // A second without commands ends a burst: what its commits freed goes back.
        var trimmer = IdleTrimmer(after: Self.trimAfterEvents)
        while true {
            if !trimmer.wait(wake) { continue }
            let (committedCount, closing) = role.withLock { _ in
                let (batch, closing) = takeQueued()
                if !batch.isEmpty { commit(batch) }
                return (batch.count, closing)
            }
            trimmer.did(committedCount)
            if closing {
                let onExit: CheckedContinuation<Void, Never>? = queue.withLock { queue in
                    guard queue.entries.isEmpty else { return nil }
                    defer { queue.onExit = nil }
                    return queue.onExit
                }
                if let onExit {
                    role.withLock { _ in closeCheckpoints() }
                    onExit.resume()
                    return
                }
                // More entries raced in before the close; go round again.
                wake.signal()
            }
        }
    }

    private func commit(_ batch: [Entry]) {
        let started = ContinuousClock.now
        let events = batch.flatMap(\.events)
        let refusals = batch.compactMap(\.refusal)
        let took: Duration
        do {
            try log.append(events, refusals: refusals)
            took = ContinuousClock.now - started
            // How well group commit works: commands per transaction, and what each fsync costs.
            batchSizes.record(batch.count)
            commitDurations.recordNanoseconds(took.nanoseconds)
        } catch {
            fail(batch, because: error)
            return
        }
        // Durable now: no longer pending, before anyone hears of it.
        queue.withLock { $0.writingSince = nil }
        // Updates go out after the lock: a subscriber that registers meanwhile finds them in its
        // snapshot instead, so "subscribe, then snapshot" still misses nothing.
        // Indices rather than elements here and below: a loop over the entries, or a zip of an
        // entry's events and states, copies each (a game's state, every string of an event),
        // and these run for every event under load.
        let published = committed.withLock { committed -> (updates: [GameUpdate], to: [Subscriber]) in
            var updates: [GameUpdate] = []
            updates.reserveCapacity(events.count)
            for entry in batch.indices where !batch[entry].games.isEmpty {
                for index in batch[entry].events.indices {
                    let id = batch[entry].events[index].gameID
                    let status = batch[entry].games[index].status
                    let old = committed.games.updateValue(batch[entry].games[index], forKey: id)?.status
                    if old == nil { committed.sortedIDs.insertInOrder(id) }
                    // Most events leave the status as it was: only a change touches the counts.
                    if old != status {
                        if let was = old {
                            // A status no game has any more leaves the counts.
                            committed.statusCounts[was] = committed.statusCounts[was].flatMap { $0 > 1 ? $0 - 1 : nil }
                        }
                        committed.statusCounts[status, default: 0] += 1
                    }
                    committed.expiries[id] = batch[entry].games[index].expiryTime()
                    updates.append(GameUpdate(event: batch[entry].events[index], game: batch[entry].games[index]))
                }
            }
            if let last = events.last { committed.sequence = last.sequence }
            return (updates, Array(committed.subscribers.values))
        }
        // The waiting commands first: a keeper's answer is what the round trip waits for, and
        // the committed view (what every read sees) already has its events.
        for entry in batch.indices {
            if let refusal = batch[entry].refusal {
                batch[entry].ticket.complete(.failure(refusal.error))
            } else if let last = batch[entry].events.last {
                batch[entry].ticket.complete(
                    .success(Receipt(gameID: last.gameID, version: last.version, sequence: last.sequence)))
            }
        }
        // The tournament's changes, rare, go only to the commits' subscribers (the publisher).
        let tournament = batch.indices.lazy.filter { batch[$0].games.isEmpty }.flatMap { batch[$0].events }
        for subscriber in published.to { subscriber.yield(published.updates, tournament: Array(tournament)) }
        checkpointProgress.withLock { progress in
            for index in events.indices { progress.changed.insert(events[index].gameID) }
            progress.eventsSince += events.count
        }
        // After the answers: the commands just committed never wait for a checkpoint to begin.
        if checkpointProgress.withLock({ $0.writing == nil && $0.eventsSince >= checkpoints.interval }) { beginCheckpoint() }
    }

    // MARK: - Checkpoints

    /// At the start: a start that replayed an interval or more writes a checkpoint at once.
    private func checkpointIfDue() {
        if checkpointProgress.withLock({ $0.writing == nil && $0.eventsSince >= checkpoints.interval }) { beginCheckpoint() }
    }

    /// Takes the committed state of the games changed since the last checkpoint (of every game,
    /// when `complete`), as of the last committed sequence: only the holder of the writer's role
    /// commits, so that state is exactly what the log holds up to that sequence.
    private func beginCheckpoint() {
        guard failure == nil else { return }
        let (games, sequence, count) = committed.withLock { committed in
            checkpointProgress.withLock { progress in
                (
                    progress.complete ? Array(committed.games.values) : progress.changed.compactMap { committed.games[$0] },
                    committed.sequence, committed.games.count
                )
            }
        }
        checkpointProgress.withLock { progress in
            progress.eventsSince = 0
            guard progress.writing == nil, sequence > 0, !games.isEmpty else { return }
            progress.writing = CheckpointInProgress(
                sequence: sequence, complete: progress.complete, gameCount: count, games: games, began: .now)
            progress.changed = []
            progress.complete = false
        }
        checkpointerWake.signal()
    }

    /// The next games of the checkpoint being written, encoded, as many as fit in the part
    /// budget; nil when none is being written.
    ///
    /// A part holds as many games as the budget allows at what the last part cost a game to
    /// encode and write, measured: that depends on the games' size and the disk. The first
    /// part, with nothing measured yet, is sized at three times its encoding time.
    private func nextCheckpointPart(whole: Bool = false) -> (part: CheckpointPart, next: Int)? {
        guard let writing = checkpointProgress.withLock({ $0.writing }) else { return nil }
        let started = ContinuousClock.now
        var states: [CheckpointPart.State] = []
        var next = writing.next
        func full() -> Bool {
            if whole { return false }
            if let size = writing.gamesPerPart { return states.count >= size }
            return (ContinuousClock.now - started) * 3 >= checkpoints.partBudget
        }
        repeat {
            states.append(CheckpointPart.State(writing.games[next]))
            next += 1
        } while next < writing.games.count && !full()
        let done = next == writing.games.count
        let part = CheckpointPart(
            sequence: writing.sequence, states: states, first: writing.next == 0, complete: writing.complete,
            completion: done ? writing.gameCount : nil)
        return (part, next)
    }

    /// Records a part as written, at the cost measured for it, and the checkpoint as in force
    /// after its last part.
    private func checkpointPartWritten(_ written: (part: CheckpointPart, next: Int), cost: Duration) {
        let done: CheckpointInProgress? = checkpointProgress.withLock { progress in
            guard var writing = progress.writing, writing.sequence == written.part.sequence else { return nil }
            writing.next = written.next
            writing.parts += 1
            // At least a game a part, so that a checkpoint always ends however slow the disk; at
            // most twice the last, since a cost measured on a busy machine is a rough one.
            let count = written.part.states.count
            let perGame = max(cost, .microseconds(1)) / count
            writing.gamesPerPart = min(2 * count, max(1, Int(checkpoints.partBudget / perGame)))
            writing.busy += max(cost, .zero)
            progress.writing = written.part.completion == nil ? writing : nil
            return written.part.completion == nil ? nil : writing
        }
        if let done { logCheckpoint(done) }
    }

    /// The checkpoint thread: writes each checkpoint the writer begins, a part at a time, until
    /// the close. It never takes the writer's role: the log keeps its checkpoints where no commit
    /// waits for them, so a move never waits behind a part (nor behind the copies of the WAL
    /// that the parts' bytes would bring about in the log's own file).
    private func runCheckpointer() {
        while true {
            checkpointerWake.wait()
            while true {
                if checkpointProgress.withLock({ $0.stopping }) {
                    checkpointerStopped.signal()
                    return
                }
                // After a failed commit the library serves nothing more; the next start replays.
                guard failure == nil else {
                    checkpointProgress.withLock { $0.writing = nil }
                    break
                }
                let started = ContinuousClock.now
                guard let part = nextCheckpointPart() else { break }
                writeOnItsOwn(part, started: started)
            }
        }
    }

    /// Writes a part in a transaction of its own; a failure abandons the checkpoint.
    private func writeOnItsOwn(_ part: (part: CheckpointPart, next: Int), started: ContinuousClock.Instant = .now) {
        do {
            try log.writeCheckpoint(part.part)
        } catch {
            abandonCheckpoint(because: error)
            return
        }
        checkpointPartWritten(part, cost: ContinuousClock.now - started)
    }

    /// Hands the games of the checkpoint being written, if any, to the next one, and stops it.
    /// Returns its sequence.
    @discardableResult
    private func deferCheckpointInProgress() -> Int64? {
        checkpointProgress.withLock { progress in
            defer { progress.writing = nil }
            guard let writing = progress.writing else { return nil }
            progress.changed.formUnion(writing.games.map(\.id))
            progress.complete = progress.complete || writing.complete
            return writing.sequence
        }
    }

    /// A checkpoint that failed part-way is not used; its games go to the next one. Nothing is
    /// lost: the next start replays more of the log.
    private func abandonCheckpoint(because error: any Error) {
        let abandoned = deferCheckpointInProgress()
        logger.error(
            "a checkpoint could not be written", metadata: ["checkpoint.sequence": "\(abandoned ?? 0)", "error": "\(error)"])
    }

    /// On close: one checkpoint of everything changed since the last one, written whole (the
    /// one being written, if any, joins it), so that the next start replays nothing.
    private func closeCheckpoints() {
        checkpointProgress.withLock { $0.stopping = true }
        checkpointerWake.signal()
        checkpointerStopped.wait()
        deferCheckpointInProgress()
        guard checkpoints.atClose else { return }
        beginCheckpoint()
        guard let part = nextCheckpointPart(whole: true) else { return }
        writeOnItsOwn(part)
    }

    private func logCheckpoint(_ written: CheckpointInProgress) {
        checkpointDurations.recordNanoseconds(written.busy.nanoseconds)
        logger.info(
            "checkpoint written",
            metadata: [
                "checkpoint.sequence": "\(written.sequence)", "checkpoint.games": "\(written.games.count)",
                "checkpoint.parts": "\(written.parts)", "checkpoint.write_ms": "\(written.busy.inMilliseconds)",
                "checkpoint.ms": "\((ContinuousClock.now - written.began).inMilliseconds)",
            ])
    }

    /// A failed commit leaves the in-memory games ahead of the log, so the library refuses
    /// everything from here on; a restart rebuilds from the log, which holds every
    /// acknowledged move.
    private func fail(_ batch: [Entry], because error: any Error) {
        // The detail (a path, SQLite's words) is for the log, not for every client.
        let failure = CourtsideError(
            .storageFailure, "the event log could not be written; courtsided restarts and rebuilds from the log")
        logger.critical("event log write failed; refusing further commands", metadata: ["error": "\(error)"])
        let stranded = queue.withLock { queue in
            queue.failure = failure
            queue.writingSince = nil
            defer { queue.entries = [] }
            return queue.entries
        }
        for entry in batch + stranded { entry.ticket.complete(.failure(failure)) }
    }
}

extension Array where Element == GameID {
    /// Inserts `id` where it belongs in this sorted array (a binary search).
    fileprivate mutating func insertInOrder(_ id: GameID) {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < id { low = middle + 1 } else { high = middle }
        }
        insert(id, at: low)
    }
}
