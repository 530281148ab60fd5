public import CourtsideModel
public import CourtsideStorage
import HashTreeCollections
public import Logging
import Synchronization

/// Hosts every game of a tournament: the one API that the daemon, the tools and the tests use.
///
/// Each game is an actor, so commands on different games never wait for each other while
/// commands on one game apply strictly in order. Every committed event gets the game's next
/// version and the library's next sequence number, both without gaps; a command is reported as
/// applied only after its events are durable in the ``EventLog``.
public final class GameLibrary: Sendable {
    struct Registry {
        var games: [GameID: GameActor] = [:]
        /// Every player of every game, to tell an unknown player from one in another game.
        var players: Set<PlayerID> = []
        /// The players the organiser marked inactive (the schedule's, kept here for the moves).
        var inactive: Set<PlayerID> = []
    }

    let registry: Mutex<Registry>
    let gate: BracketGate
    let advancing = Mutex<Task<Void, Never>?>(nil)
    /// The write path: numbers commands and commits them in batches (``CommitWriter``).
    let writer: CommitWriter
    /// What is committed, for every read and subscription (``CommittedView``).
    let view: CommittedView
    let memory: RetryMemory
    /// What every game's actor shares (the memory, the writer, the clock and the gate).
    let actors: GameActor.Shared
    let log: any EventLog
    let clock: any TimeSource
    let logger: Logger
    /// The tournament's own stream: the organiser's changes to teams and schedule.
    let record: Mutex<TournamentRecord>

    /// Opens the library over `log`, rebuilding every game from it; numbering continues where
    /// the log ends.
    ///
    /// The games come from the log's latest checkpoint and the events after it (or from every
    /// event, when there is no usable checkpoint). The retry memory is read from the log on a
    /// thread of its own while the library already serves: see ``RetryMemory``.
    public init(
        log: any EventLog, clock: any TimeSource = SystemTimeSource(), retryWindow: RetryWindow = RetryWindow(),
        commitQueueLimit: Int = 100_000, checkpoints: CheckpointPolicy = CheckpointPolicy(), logger: Logger
    ) throws {
        let started = ContinuousClock.now
        let restored = try RestoredGames.restore(from: log, policy: checkpoints, logger: logger)
        let games = restored.games
        // Read whole, checkpoint or not: it is a few events a day, and no checkpoint holds it.
        record = Mutex(TournamentRecord(stream: try log.readEvents(ofGame: .tournament)))
        let memory = RetryMemory(window: retryWindow, loading: true)
        memory.load(from: log, expected: Int(restored.lastSequence), logger: logger)
        self.memory = memory
        // A start that replayed a whole checkpoint interval or more writes a checkpoint before its first commit.
        let view = CommittedView(games: games, sequence: restored.lastSequence)
        let checkpointer = Checkpointer(
            log: log, view: view, policy: checkpoints, changedSinceCheckpoint: restored.changedSinceCheckpoint,
            eventsSinceCheckpoint: restored.replayed, logger: logger)
        let writer = CommitWriter(
            log: log, view: view, checkpointer: checkpointer, lastSequence: restored.lastSequence,
            queueLimit: commitQueueLimit, logger: logger)
        let gate = BracketGate(games: games)
        self.registry = Mutex(Registry())
        self.gate = gate
        self.writer = writer
        self.view = view
        self.log = log
        self.clock = clock
        self.logger = logger
        let shared = GameActor.Shared(memory: memory, writer: writer, clock: clock, gate: gate)
        self.actors = shared
        registry.withLock { registry in
            registry.games.reserveCapacity(games.count)
            for (id, game) in games {
                registry.games[id] = GameActor(game: game, shared: shared)
                registry.players.formUnion(game.counts.keys)
            }
        }
        logger.info(
            "game library opened",
            metadata: [
                "library.games": "\(games.count)", "library.sequence": "\(restored.lastSequence)",
                "library.checkpoint": "\(restored.checkpointSequence.map { "\($0)" } ?? "none")",
                "library.replayed_events": "\(restored.replayed)",
                "library.open_ms": "\((ContinuousClock.now - started).inMilliseconds)",
            ])
        Self.continueTime(after: restored.lastEventAt, games: games, clock: clock, logger: logger)
    }

    /// Time across a restart: never before the log's last event, and a clock that was running
    /// counts the time since as game time (as a court's own scoreboard would), said in the log.
    private static func continueTime(after last: Timestamp?, games: [GameID: Game], clock: any TimeSource, logger: Logger) {
        guard let last else { return }
        if let moved = (clock as? SystemTimeSource)?.hold(notBefore: last) {
            logger.warning(
                "the wall clock is behind the log's last event; game time continues from the log",
                metadata: ["clock.behind_ms": "\(moved)"])
        }
        let now = clock.now()
        // The running clocks first, then in order: sorting every game took a start of 10,000 games 12 ms.
        let running = games.filter { $0.value.clock.isRunning && !$0.value.isFinished }
        for (id, game) in running.sorted(by: { $0.key < $1.key }) {
            logger.notice(
                "a game clock was running when courtsided stopped: the time since its last event counts as game time",
                metadata: [
                    "game": "\(id)", "clock.elapsed_ms": "\(game.clock.elapsed(at: now))",
                    "since_last_event_ms": "\(now.milliseconds(since: last))",
                ])
        }
    }

    // MARK: - Commands

    /// Creates a game. Creating the same game again with the same origin is a retry and returns
    /// the original receipt; any other origin gets `game_exists`.
    @discardableResult
    public func createGame(_ setup: GameSetup, origin: CommandOrigin) async throws(CourtsideError) -> Receipt {
        try await submitCreation(of: setup, origin: origin).value()
    }

    /// Queues a game's creation and returns without waiting for the commit; `commit` says who
    /// commits it (see ``committing(_:_:)``).
    public func submitCreation(of setup: GameSetup, origin: CommandOrigin, commit: CommitPolicy = .logWriter) async
        -> PendingReceipt
    {
        do {
            try setup.validate()
        } catch {
            return PendingReceipt(.failure(error))
        }
        let clock = self.clock
        let writer = self.writer
        let gate = self.gate
        let actors = self.actors
        enum Placement {
            case created(CommitTicket)
            case existing(GameActor)
        }
        let placement: Placement
        do {
            placement = try registry.withLock { (registry) throws(CourtsideError) -> Placement in
                if let existing = registry.games[setup.id] { return .existing(existing) }
                let game = Game(setup: setup)
                let event = GameEvent(
                    gameID: setup.id, version: 1, at: clock.now(), origin: origin, kind: .gameCreated(setup))
                // Enqueued under the registry lock, so no command can reach the game before its creation.
                let ticket = try writer.enqueue(
                    .one(event, game), essential: CommandOrigin.isReserved(clientID: origin.clientID), commit: commit)
                gate.record(game)
                registry.games[setup.id] = GameActor(created: game, by: origin, ticket: ticket, shared: actors)
                registry.players.formUnion(game.counts.keys)
                return .created(ticket)
            }
        } catch {
            return PendingReceipt(.failure(error))
        }
        switch placement {
        case .created(let ticket):
            return PendingReceipt(ticket)
        case .existing(let actor):
            // The creation may be from before the start, its answer still being read from the log.
            if memory.isLoading, (try? await log.contains(origin)) == true { _ = await memory.waitUntilLoaded() }
            if let retry = await actor.outcome(of: origin) { return retry }
            // The creation itself, retried from beyond the window, must not read as someone else's.
            if let expired = await retryBeyondWindow(origin) { return PendingReceipt(.failure(expired)) }
            return PendingReceipt(.failure(CourtsideError(.gameExists, "a game with id \(setup.id) exists already")))
        }
    }

    /// Applies a command to a game once, returning after its events are durable.
    @discardableResult
    public func apply(_ command: GameCommand, to gameID: GameID, origin: CommandOrigin) async throws(CourtsideError)
        -> Receipt
    {
        try await submit(command, to: gameID, origin: origin).value()
    }

    /// Runs `submitting`, which submits commands with the policy it is handed, then commits them
    /// as `policy` says.
    ///
    /// Under ``CommitPolicy/callersThread(when:)``, when its condition holds here, `submitting`
    /// is handed `policy`: the commands it submits with it are queued without waking the log
    /// writer, then committed on this thread if the writer is idle and the condition still holds
    /// (the thread may have changed across `submitting`'s suspensions); otherwise they join the
    /// writer's next commit as usual. A lone command then waits for no hand-over between
    /// threads: its ``PendingReceipt`` settles (and its `whenSettled` handlers run) on this
    /// thread, before this returns. Otherwise `submitting` is handed ``CommitPolicy/logWriter``.
    public func committing(_ policy: CommitPolicy, _ submitting: (CommitPolicy) async -> Void) async {
        guard policy.allowsCommitHere() else { return await submitting(.logWriter) }
        await submitting(policy)
        writer.commitQueued(here: policy.allowsCommitHere())
    }

    /// Returns once the log writer is not writing a commit (tests use it before they race it).
    func waitUntilNotWriting() {
        writer.waitUntilNotWriting()
    }

    /// Decides a command and queues it for commit, returning without waiting for the commit.
    ///
    /// Commands submitted one after another to the same game apply in that order; await
    /// ``PendingReceipt/value()`` for the result. `commit` says who commits it (see
    /// ``committing(_:_:)``).
    public func submit(_ command: GameCommand, to gameID: GameID, origin: CommandOrigin, commit: CommitPolicy = .logWriter)
        async -> PendingReceipt
    {
        let (actor, playerKnown, playerInactive) = registry.withLock { registry in
            var (known, inactive) = (true, false)
            if case .move(let player, _) = command {
                known = registry.players.contains(player)
                inactive = !registry.inactive.isEmpty && registry.inactive.contains(player)
            }
            return (registry.games[gameID], known, inactive)
        }
        guard let actor else { return PendingReceipt(.failure(CourtsideError(.unknownGame, "no game has id \(gameID)"))) }
        var rosterRefusal: CourtsideError?
        if case .move(let player, _) = command {
            if !playerKnown {
                rosterRefusal = CourtsideError(.unknownPlayer, "no game of the tournament has a player with id \(player)")
            } else if playerInactive {
                rosterRefusal = CourtsideError(
                    .playerInactive, "the organiser marked \(player) inactive: their moves so far stay, new ones are refused")
            }
        }
        // The actor asks the retry memory itself, in one probe: a new command is decided there at once.
        if rosterRefusal == nil, case .receipt(let pending) = await actor.submit(command, from: origin, commit: commit) {
            return pending
        }
        if let expired = await retryBeyondWindow(origin) { return PendingReceipt(.failure(expired)) }
        // A retry of an accepted command still gets its receipt, whatever the roster says.
        if let rosterRefusal { return await actor.outcome(of: origin) ?? PendingReceipt(.failure(rosterRefusal)) }
        return await actor.submitAfterLog(command, from: origin, commit: commit)
    }

    /// `retry_expired` when a command is not remembered but the log has it: a retry from beyond
    /// the window, whose result stands and must not be applied again. Only a command the filter of
    /// forgotten ones may hold pays for the look-up.
    /// While the memory is still being read from the log after a start, any command may be a
    /// retry of one answered before it: the log says, and a retry waits for the memory.
    func retryBeyondWindow(_ origin: CommandOrigin) async -> CourtsideError? {
        guard case .askLog(let loading) = memory.recall(origin) else { return nil }
        do {
            guard try await log.contains(origin) else { return nil }
        } catch {
            logger.error("the event log could not be read", metadata: ["error": "\(error)"])
            return CourtsideError(.storageFailure, "the event log could not be read; courtsided's log has the detail")
        }
        if loading {
            guard await memory.waitUntilLoaded() else {
                return CourtsideError(.storageFailure, "the event log could not be read; courtsided's log has the detail")
            }
            // Within the window: the game's actor answers it. Neither remembered nor forgotten: new.
            guard memory.recall(origin) == .askLog(loading: false) else { return nil }
        }
        return CourtsideError(
            .retryExpired,
            "command \(origin.commandID) of \(origin.clientID) was answered longer ago than the retry window "
                + "(the client's last \(memory.window.recentPerClient) commands, or \(memory.window.maximumAge.inSeconds / 3600) "
                + "hours up to \(memory.window.maximumPerClient), within \(memory.window.maximumTotal) in all); "
                + "its result stands: see the game's log")
    }

    /// How many commands' answers are remembered for retries now.
    public var rememberedAnswers: Int { memory.count }

    /// Waits until the retry memory holds every answer of the log, which a start reads on a thread
    /// of its own (until then each new command also asks the log); false if they could not be read.
    public func retryMemoryLoaded() async -> Bool { await memory.waitUntilLoaded() }

    /// Retracts the move recorded at `version` of a game; shorthand for ``apply(_:to:origin:)``.
    @discardableResult
    public func retract(version: Int, in gameID: GameID, origin: CommandOrigin) async throws(CourtsideError) -> Receipt {
        try await apply(.retract(version: version), to: gameID, origin: origin)
    }

    /// Ends regulation time in every game whose clock has run past its limit. The daemon calls
    /// this on a short timer; commands check it too, so the timer only matters for idle games.
    public func expireDueClocks() async {
        // Only games whose committed clock has passed its limit; the rest need no visit. The
        // committed view keeps their expiries, so a venue of 10,000 games costs no more than one.
        let due = view.expired(at: clock.now())
        guard !due.isEmpty else { return }
        let actors = registry.withLock { registry in due.compactMap { registry.games[$0] } }
        for actor in actors { await actor.expireIfDue() }
    }

    // MARK: - Reading

    /// Set once the event log could not be written: the library then refuses every command, and
    /// its owner should stop and restart it, which rebuilds everything from the log.
    public var failure: CourtsideError? { writer.failure }

    /// ``failure`` as it happens, for one watcher to react to; ends once the library closes.
    public var failures: AsyncStream<CourtsideError> { writer.failures }

    /// How long the oldest command not yet durable has waited for its commit; nil when none
    /// waits. A value that keeps growing means the writer is stuck.
    public var oldestPendingCommit: Duration? { writer.oldestPendingCommit }

    /// Whether any command waits for its commit: a commit is queued or being written.
    public var isCommitting: Bool { writer.isCommitting }

    /// The ids of every committed game, sorted.
    public func gameIDs() -> [GameID] {
        view.snapshot().value.ids
    }

    /// One game's committed state and the sequence it reflects.
    public func snapshot(of gameID: GameID) throws(CourtsideError) -> Snapshot<Game> {
        let one = view.snapshot(of: gameID)
        guard let game = one.value else { throw CourtsideError(.unknownGame, "no game has id \(gameID)") }
        return Snapshot(value: game, sequence: one.sequence)
    }

    /// How many committed games are in each status (a status no game has is missing), and the
    /// sequence that reflects. Copies no game, unlike counting a ``snapshot()``.
    public func statusCounts() -> Snapshot<[GameStatus: Int]> {
        view.statusCounts()
    }

    /// Every committed game, sorted by id, and the sequence they reflect.
    public func snapshot() -> Snapshot<[Game]> {
        let all = view.snapshot()
        return Snapshot(value: all.value.sorted, sequence: all.sequence)
    }

    /// As ``snapshot()``, without copying the games out: for a reader that needs few of them.
    public func committedGames() -> Snapshot<CommittedGames> {
        view.snapshot()
    }

    /// Every update committed after this call, in sequence order.
    ///
    /// Subscribe first, then take a ``snapshot()``, and apply only updates whose sequence is
    /// greater than the snapshot's. A consumer more than `bufferLimit` updates behind loses the
    /// newest ones and sees a gap in the sequence: it should take a new snapshot.
    public func updates(bufferLimit: Int = 100_000) -> AsyncStream<GameUpdate> {
        view.updates(bufferLimit: bufferLimit)
    }

    /// As ``updates(bufferLimit:)``, one commit's updates at a time (in sequence order): a
    /// consumer that keeps up with a busy daemon wakes once per commit, not once per event.
    /// `bufferLimit` counts commits; past it, whole commits are dropped, which shows as a gap.
    public func commits(bufferLimit: Int = 10_000) -> AsyncStream<Commit> {
        view.commits(bufferLimit: bufferLimit)
    }

    /// Has the committing thread answer each later commit's commands inside `scope`, which
    /// must call its argument once, at once, on the same thread.
    ///
    /// The commit's answers are known together: a scope lets the answering side send them
    /// together (the daemon hands them to its I/O thread as one post). They go out as soon as
    /// the commit is durable, as without a scope.
    public func answerCommits(within scope: @escaping AnsweringScope) {
        writer.answerCommits(within: scope)
    }

    /// One game's full trail from the log, retractions included, with who sent each event and
    /// when; for ``GameID/tournament``, the organiser's changes to the tournament.
    public func log(of gameID: GameID) async throws(CourtsideError) -> [GameEvent] {
        guard gameID == .tournament || registry.withLock({ $0.games[gameID] }) != nil else {
            throw CourtsideError(.unknownGame, "no game has id \(gameID)")
        }
        do {
            return try await log.events(ofGame: gameID)
        } catch {
            logger.error("the event log could not be read", metadata: ["game": "\(gameID)", "error": "\(error)"])
            throw CourtsideError(.storageFailure, "the event log could not be read; courtsided's log has the detail")
        }
    }

    /// Commits everything accepted so far, ends every subscription and closes the log.
    /// Commands after this fail with `shutting_down`.
    public func close() async {
        advancing.withLock { $0?.cancel() }
        await writer.close()
        view.close()
        // The memory's reader must be done with the log before it closes.
        await memory.stopLoading()
        do {
            try log.close()
        } catch {
            logger.error("closing the event log failed", metadata: ["error": "\(error)"])
        }
    }
}
