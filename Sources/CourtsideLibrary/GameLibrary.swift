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
    private let advancing = Mutex<Task<Void, Never>?>(nil)
    let committer: GroupCommitter
    let memory: RetryMemory
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
        let committer = GroupCommitter(
            log: log, games: games, lastSequence: restored.lastSequence, queueLimit: commitQueueLimit,
            checkpoints: checkpoints, changedSinceCheckpoint: restored.changedSinceCheckpoint,
            eventsSinceCheckpoint: restored.replayed, logger: logger)
        let gate = BracketGate(games: games)
        self.registry = Mutex(Registry())
        self.gate = gate
        self.committer = committer
        self.log = log
        self.clock = clock
        self.logger = logger
        registry.withLock { registry in
            registry.games.reserveCapacity(games.count)
            for (id, game) in games {
                registry.games[id] = GameActor(game: game, memory: memory, committer: committer, clock: clock, gate: gate)
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
        for (id, game) in games.sorted(by: { $0.key < $1.key }) where game.clock.isRunning && !game.isFinished {
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
        let committer = self.committer
        let gate = self.gate
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
                let ticket = try committer.enqueue(
                    [event], games: [game], essential: CommandOrigin.isReserved(clientID: origin.clientID), commit: commit)
                gate.record(game)
                registry.games[setup.id] = GameActor(
                    created: game, by: origin, ticket: ticket, memory: memory, committer: committer, clock: clock, gate: gate)
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
        committer.commitQueued(here: policy.allowsCommitHere())
    }

    /// Returns once the log writer is not writing a commit (tests use it before they race it).
    func waitUntilNotWriting() {
        committer.waitUntilNotWriting()
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
        if let expired = await retryBeyondWindow(origin) { return PendingReceipt(.failure(expired)) }
        if !playerKnown, case .move(let player, _) = command {
            // A retry of an accepted command still gets its receipt, whatever the roster says.
            if let retry = await actor.outcome(of: origin) { return retry }
            return PendingReceipt(
                .failure(CourtsideError(.unknownPlayer, "no game of the tournament has a player with id \(player)")))
        }
        if playerInactive, case .move(let player, _) = command {
            if let retry = await actor.outcome(of: origin) { return retry }
            return PendingReceipt(
                .failure(
                    CourtsideError(
                        .playerInactive, "the organiser marked \(player) inactive: their moves so far stay, new ones are refused")
                ))
        }
        return await actor.submit(command, from: origin, commit: commit)
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
        // committer keeps their expiries, so a venue of 10,000 games costs no more than one.
        let due = committer.expired(at: clock.now())
        guard !due.isEmpty else { return }
        let actors = registry.withLock { registry in due.compactMap { registry.games[$0] } }
        for actor in actors { await actor.expireIfDue() }
    }

    // MARK: - Reading

    /// Set once the event log could not be written: the library then refuses every command, and
    /// its owner should stop and restart it, which rebuilds everything from the log.
    public var failure: CourtsideError? { committer.failure }

    /// How long the oldest command not yet durable has waited for its commit; nil when none
    /// waits. A value that keeps growing means the writer is stuck.
    public var oldestPendingCommit: Duration? { committer.oldestPendingCommit }

    /// Whether any command waits for its commit: a commit is queued or being written.
    public var isCommitting: Bool { committer.isCommitting }

    /// The ids of every committed game, sorted.
    public func gameIDs() -> [GameID] {
        committer.snapshot().value.ids
    }

    /// One game's committed state and the sequence it reflects.
    public func snapshot(of gameID: GameID) throws(CourtsideError) -> Snapshot<Game> {
        let one = committer.snapshot(of: gameID)
        guard let game = one.value else { throw CourtsideError(.unknownGame, "no game has id \(gameID)") }
        return Snapshot(value: game, sequence: one.sequence)
    }

    /// How many committed games are in each status (a status no game has is missing), and the
    /// sequence that reflects. Copies no game, unlike counting a ``snapshot()``.
    public func statusCounts() -> Snapshot<[GameStatus: Int]> {
        committer.statusCounts()
    }

    /// Every committed game, sorted by id, and the sequence they reflect.
    public func snapshot() -> Snapshot<[Game]> {
        let all = committer.snapshot()
        return Snapshot(value: all.value.sorted, sequence: all.sequence)
    }

    /// As ``snapshot()``, without copying the games out: for a reader that needs few of them.
    public func committedGames() -> Snapshot<CommittedGames> {
        committer.snapshot()
    }

    /// Every update committed after this call, in sequence order.
    ///
    /// Subscribe first, then take a ``snapshot()``, and apply only updates whose sequence is
    /// greater than the snapshot's. A consumer more than `bufferLimit` updates behind loses the
    /// newest ones and sees a gap in the sequence: it should take a new snapshot.
    public func updates(bufferLimit: Int = 100_000) -> AsyncStream<GameUpdate> {
        committer.subscribe(bufferLimit: bufferLimit)
    }

    /// As ``updates(bufferLimit:)``, one commit's updates at a time (in sequence order): a
    /// consumer that keeps up with a busy daemon wakes once per commit, not once per event.
    /// `bufferLimit` counts commits; past it, whole commits are dropped, which shows as a gap.
    public func commits(bufferLimit: Int = 10_000) -> AsyncStream<Commit> {
        committer.subscribeToCommits(bufferLimit: bufferLimit)
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
        await committer.close()
        // The memory's reader must be done with the log before it closes.
        await memory.stopLoading()
        do {
            try log.close()
        } catch {
            logger.error("closing the event log failed", metadata: ["error": "\(error)"])
        }
    }

    // MARK: - The schedule

    /// The schedule in force, if any.
    public var currentSchedule: Schedule? { gate.schedule }

    /// Adopts a tournament schedule: creates the games whose teams are known, and from now on
    /// fills "winner of", "loser of" and group-rank slots as results come in.
    @discardableResult
    ///
    /// `seed` is the config's; the organiser's changes in the log are laid over it, and the
    /// schedule in force is the result (``unappliedChanges`` has those that did not apply).
    public func useSchedule(_ seed: Schedule) async -> [GameID] {
        let (first, newSchedule, conflicts) = record.withLock { record in
            record.seed = seed
            let laid = seed.laying(record.changes)
            record.conflicts = laid.conflicts
            record.dropped = TournamentRecord.dropped(by: record.changes, over: seed)
            return (gate.use(laid.schedule), laid.schedule, laid.conflicts)
        }
        for conflict in conflicts {
            let what = "\(conflict.change.typeName) (\(conflict.change.subject))"
            if let overrode = conflict.overrode {
                logger.warning(
                    "the config file disagrees with an organiser's change in the log; the change is kept over \(overrode): \(what)",
                    metadata: ["change": "\(conflict.change.typeName)"])
            } else {
                logger.warning(
                    "an organiser's change in the log does not apply to the config's tournament (\(conflict.error?.message ?? "")); the log keeps it: \(what)",
                    metadata: ["change": "\(conflict.change.typeName)", "error.code": "\(conflict.error?.code.rawValue ?? "")"])
            }
        }
        // Every rostered player is the tournament's, whether or not a game of theirs exists yet.
        registry.withLock { registry in
            registry.inactive = newSchedule.inactivePlayers
            for team in newSchedule.teams.values { registry.players.formUnion(team.players.map(\.id)) }
        }
        if first {
            // Results move the bracket on; listen before advancing so nothing slips between.
            // Each advance reads every committed game, so one after several results covers them all.
            let results = committer.signals(when: Self.mayMoveBracket)
            let task = Task { [weak self] in
                for await _ in results {
                    guard let self else { return }
                    await self.advanceBracket()
                }
            }
            advancing.withLock { $0 = task }
        }
        return await advanceBracket()
    }

    /// Every committed game with the standings and bracket derived from exactly those games,
    /// all reflecting one sequence (empty standings and bracket without a schedule).
    public func tournamentSnapshot() -> Snapshot<TournamentState> {
        let all = committer.snapshot()
        let schedule = gate.schedule
        return Snapshot(
            value: TournamentState(
                games: all.value, standings: schedule?.standings(all.value.byID) ?? [],
                bracket: schedule?.bracket(all.value.byID) ?? []),
            sequence: all.sequence)
    }

    /// Standings and bracket from the same committed games, and the sequence they reflect.
    public func tables() -> Snapshot<(standings: [GroupStandings], bracket: [BracketEntry])> {
        let all = committer.snapshot()
        let schedule = gate.schedule
        return Snapshot(
            value: (schedule?.standings(all.value.byID) ?? [], schedule?.bracket(all.value.byID) ?? []),
            sequence: all.sequence)
    }

    /// Standings of every group, from the committed games.
    public func standings() -> Snapshot<[GroupStandings]> {
        let all = committer.snapshot()
        return Snapshot(value: gate.schedule?.standings(all.value.byID) ?? [], sequence: all.sequence)
    }

    /// The bracket: every scheduled game with its teams so far and its state.
    public func bracket() -> Snapshot<[BracketEntry]> {
        let all = committer.snapshot()
        return Snapshot(value: gate.schedule?.bracket(all.value.byID) ?? [], sequence: all.sequence)
    }

    /// Creates the scheduled games whose teams the results now decide, and re-assigns the teams
    /// of those not yet started when a retraction changed a result. Returns the games touched.
    @discardableResult
    public func advanceBracket() async -> [GameID] {
        guard let schedule = gate.schedule else { return [] }
        // A round paired is a tournament change, whose own advance creates the round's games
        // from the schedule it puts in force: this one, on the schedule before it, stops here.
        if await pairSwissRounds(schedule) { return [] }
        var touched = await endDroppedGames(schedule)
        let games = committer.snapshot().value.byID
        let lineups = schedule.lineups(games)
        // In id order, each with its scheduled game at hand: looking each up by id read the whole
        // schedule per game, at every final result (quadratic in the schedule's size).
        for scheduled in schedule.games.sorted(by: { $0.id < $1.id }) {
            guard let lineup = lineups[scheduled.id] else { continue }
            let id = scheduled.id
            if games[id] == nil {
                // Not committed yet: create it, or (same origin, so a retry) wait for a creation in flight.
                let setup = GameSetup(
                    id: id, home: lineup.home, away: lineup.away, rules: scheduled.rules, court: scheduled.court)
                let origin = CommandOrigin(clientID: Self.bracketClientID, commandID: "create:\(id)")
                do {
                    try await createGame(setup, origin: origin)
                    touched.append(id)
                } catch {
                    logger.error("bracket could not create \(id)", metadata: ["error": "\(error)", "game": "\(id)"])
                }
            } else if let game = games[id], !game.isFinished {
                touched += await follow(scheduled, lineup: lineup, game: game)
            }
        }
        touched += await forfeitWithdrawn(schedule)
        return touched
    }

    /// Ends, with no result, each game a new draw dropped from the schedule that exists and has
    /// not started: its court's keepers must not find it waiting. Run at every advance, so a
    /// crash between the draw's commit and these endings is made good at the next start; each
    /// origin names the game, so an ending is one event.
    private func endDroppedGames(_ schedule: Schedule) async -> [GameID] {
        let dropped = record.withLock { $0.dropped }.subtracting(schedule.games.map(\.id))
        guard !dropped.isEmpty else { return [] }
        let games = committer.snapshot().value.byID
        var ended: [GameID] = []
        for id in dropped.sorted() {
            guard let game = games[id], !game.hasStarted, !game.isFinished else { continue }
            let origin = CommandOrigin(clientID: Self.bracketClientID, commandID: "drop:\(id)")
            do {
                try await apply(
                    .endEarly(result: .noResult, reason: "dropped from the schedule by a new draw"), to: id, origin: origin)
                ended.append(id)
            } catch {
                logger.warning("could not end dropped game \(id)", metadata: ["error": "\(error)", "game": "\(id)"])
            }
        }
        return ended
    }

    /// Forfeits each game not over that a withdrawn team plays (the rules' forfeit result; both
    /// withdrawn: no result), the games just created by this advance among them. Each origin
    /// names the game and the team, so a forfeit is one event, even across a crash.
    private func forfeitWithdrawn(_ schedule: Schedule) async -> [GameID] {
        guard !schedule.withdrawn.isEmpty else { return [] }
        let games = committer.snapshot().value.byID
        var forfeited: [GameID] = []
        for id in games.keys.sorted() {
            guard let game = games[id], !game.isFinished else { continue }
            let (home, away) = (game.setup.home, game.setup.away)
            let gone = (home: schedule.withdrawn.contains(home.id), away: schedule.withdrawn.contains(away.id))
            let command: GameCommand
            let team: TeamID
            switch gone {
            case (true, true):
                (command, team) = (.endEarly(result: .noResult, reason: "both teams withdrew"), home.id)
            case (true, false): (command, team) = (.forfeit(side: .home, reason: "\(home.name) withdrew"), home.id)
            case (false, true): (command, team) = (.forfeit(side: .away, reason: "\(away.name) withdrew"), away.id)
            case (false, false): continue
            }
            let origin = CommandOrigin(clientID: Self.bracketClientID, commandID: "withdrawn:\(id):\(team)")
            do {
                try await apply(command, to: id, origin: origin)
                forfeited.append(id)
            } catch {
                logger.warning(
                    "could not forfeit \(id) of withdrawn team \(team)", metadata: ["error": "\(error)", "game": "\(id)"])
            }
        }
        return forfeited
    }

    /// Brings a game that exists and is not over in line with its schedule entry: teams the
    /// results changed (before it starts), a roster the organiser changed (at any time), and a
    /// court or rules the organiser changed (before it starts). Each origin names the game's
    /// version, so a retry after a crash is one event.
    private func follow(_ scheduled: ScheduledGame, lineup: Lineup, game: Game) async -> [GameID] {
        let id = game.id
        var touched: [GameID] = []
        func send(_ command: GameCommand, _ kind: String, at version: Int, failing: String) async {
            let origin = CommandOrigin(clientID: Self.bracketClientID, commandID: "\(kind):\(id):v\(version)")
            do {
                try await apply(command, to: id, origin: origin)
                touched.append(id)
            } catch {
                logger.warning("\(failing) \(id)", metadata: ["error": "\(error)", "game": "\(id)"])
            }
        }
        let sameTeams = game.setup.home.id == lineup.home.id && game.setup.away.id == lineup.away.id
        if !sameTeams && !game.hasStarted || sameTeams && (game.setup.home != lineup.home || game.setup.away != lineup.away) {
            await send(
                .assignTeams(home: lineup.home, away: lineup.away), "assign", at: game.version,
                failing: "bracket could not re-assign")
        }
        if !game.hasStarted, game.setup.court != scheduled.court || game.setup.rules != scheduled.rules,
            let now = try? snapshot(of: id).value, !now.hasStarted
        {
            await send(
                .changeSetup(court: scheduled.court, rules: scheduled.rules), "setup", at: now.version,
                failing: "could not move as the schedule says")
        }
        return touched
    }

    /// The client id of the events the bracket makes.
    public static let bracketClientID = "courtside.bracket"

    /// Only a final result, or a retraction (which may undo one), can move the bracket.
    private static func mayMoveBracket(_ update: GameUpdate) -> Bool {
        if case .retraction = update.event.kind { return true }
        return update.game.isFinished
    }
}

/// The tables read the committed games where they are, without a copy into a `Dictionary`.
extension TreeDictionary: GamesByID where Key == GameID, Value == Game {}
