public import CourtsideModel
public import CourtsideStorage
public import Logging
import Synchronization

/// Hosts every game of a tournament: the one API that the daemon, the tools and the tests use.
///
/// Each game is an actor, so commands on different games never wait for each other while
/// commands on one game apply strictly in order. Every committed event gets the game's next
/// version and the library's next sequence number, both without gaps; a command is reported as
/// applied only after its events are durable in the ``EventLog``.
public final class GameLibrary: Sendable {
    private struct Registry {
        var games: [GameID: GameActor] = [:]
        /// Every player of every game, to tell an unknown player from one in another game.
        var players: Set<PlayerID> = []
    }

    private let registry: Mutex<Registry>
    private let committer: GroupCommitter
    private let log: any EventLog
    private let clock: any TimeSource
    private let logger: Logger

    /// Opens the library over `log`, rebuilding every game from it; numbering continues where
    /// the log ends.
    public init(log: any EventLog, clock: any TimeSource = SystemTimeSource(), logger: Logger) throws {
        let events = try log.readAll()
        var games: [GameID: Game] = [:]
        var receipts: [GameID: [CommandOrigin: Receipt]] = [:]
        var lastSequence: Int64 = 0
        for event in events {
            if case .gameCreated(let setup) = event.kind {
                games[event.gameID] = Game(setup: setup)
            } else {
                games[event.gameID]?.apply(event)
            }
            receipts[event.gameID, default: [:]][event.origin] = Receipt(
                gameID: event.gameID, version: event.version, sequence: event.sequence)
            lastSequence = event.sequence
        }
        let committer = GroupCommitter(log: log, games: games, lastSequence: lastSequence, logger: logger)
        var registry = Registry()
        for (id, game) in games {
            registry.games[id] = GameActor(
                game: game, receipts: receipts[id] ?? [:], committer: committer, clock: clock)
            registry.players.formUnion(game.counts.keys)
        }
        self.registry = Mutex(registry)
        self.committer = committer
        self.log = log
        self.clock = clock
        self.logger = logger
        logger.info(
            "game library opened",
            metadata: ["library.games": "\(games.count)", "library.sequence": "\(lastSequence)"])
    }

    // MARK: - Commands

    /// Creates a game. Creating the same game again with the same origin is a retry and returns
    /// the original receipt; any other origin gets `game_exists`.
    @discardableResult
    public func createGame(_ setup: GameSetup, origin: CommandOrigin) async throws(CourtsideError) -> Receipt {
        try await submitCreation(of: setup, origin: origin).value()
    }

    /// Queues a game's creation and returns without waiting for the commit.
    public func submitCreation(of setup: GameSetup, origin: CommandOrigin) async -> PendingReceipt {
        do {
            try setup.validate()
        } catch {
            return PendingReceipt(.failure(error))
        }
        let clock = self.clock
        let committer = self.committer
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
                let ticket = try committer.enqueue([event], games: [game])
                registry.games[setup.id] = GameActor(
                    created: game, by: origin, ticket: ticket, committer: committer, clock: clock)
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
            if let retry = await actor.outcome(of: origin) { return retry }
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

    /// Decides a command and queues it for commit, returning without waiting for the commit.
    ///
    /// Commands submitted one after another to the same game apply in that order; await
    /// ``PendingReceipt/value()`` for the result.
    public func submit(_ command: GameCommand, to gameID: GameID, origin: CommandOrigin) async -> PendingReceipt {
        let (actor, playerKnown) = registry.withLock { registry in
            var known = true
            if case .move(let player, _) = command { known = registry.players.contains(player) }
            return (registry.games[gameID], known)
        }
        guard let actor else { return PendingReceipt(.failure(CourtsideError(.unknownGame, "no game has id \(gameID)"))) }
        if !playerKnown, case .move(let player, _) = command {
            // A retry of an accepted command still gets its receipt, whatever the roster says.
            if let retry = await actor.outcome(of: origin) { return retry }
            return PendingReceipt(
                .failure(CourtsideError(.unknownPlayer, "no game of the tournament has a player with id \(player)")))
        }
        return await actor.submit(command, from: origin)
    }

    /// Retracts the move recorded at `version` of a game; shorthand for ``apply(_:to:origin:)``.
    @discardableResult
    public func retract(version: Int, in gameID: GameID, origin: CommandOrigin) async throws(CourtsideError) -> Receipt {
        try await apply(.retract(version: version), to: gameID, origin: origin)
    }

    /// Ends regulation time in every game whose clock has run past its limit. The daemon calls
    /// this on a short timer; commands check it too, so the timer only matters for idle games.
    public func expireDueClocks() async {
        let actors = registry.withLock { Array($0.games.values) }
        for actor in actors { await actor.expireIfDue() }
    }

    // MARK: - Reading

    /// The ids of every committed game, sorted.
    public func gameIDs() -> [GameID] {
        committer.snapshot().value.keys.sorted()
    }

    /// One game's committed state and the sequence it reflects.
    public func snapshot(of gameID: GameID) throws(CourtsideError) -> Snapshot<Game> {
        let all = committer.snapshot()
        guard let game = all.value[gameID] else { throw CourtsideError(.unknownGame, "no game has id \(gameID)") }
        return Snapshot(value: game, sequence: all.sequence)
    }

    /// Every committed game, sorted by id, and the sequence they reflect.
    public func snapshot() -> Snapshot<[Game]> {
        let all = committer.snapshot()
        return Snapshot(value: all.value.values.sorted { $0.id < $1.id }, sequence: all.sequence)
    }

    /// Every update committed after this call, in sequence order.
    ///
    /// Subscribe first, then take a ``snapshot()``, and apply only updates whose sequence is
    /// greater than the snapshot's. A consumer more than `bufferLimit` updates behind loses the
    /// newest ones and sees a gap in the sequence: it should take a new snapshot.
    public func updates(bufferLimit: Int = 100_000) -> AsyncStream<GameUpdate> {
        committer.subscribe(bufferLimit: bufferLimit)
    }

    /// Commits everything accepted so far, ends every subscription and closes the log.
    /// Commands after this fail with `shutting_down`.
    public func close() async {
        await committer.close()
        do {
            try log.close()
        } catch {
            logger.error("closing the event log failed", metadata: ["error": "\(error)"])
        }
    }
}
