import CourtsideModel
import CourtsideStorageTesting
import Foundation
import GRDB
import Testing

@testable import CourtsideStorage

/// Games with everything a checkpoint must carry: optionals set and unset, retracted plays,
/// a finished game, overtime, a player who is not on the roster, text beyond ASCII.
enum CheckpointFixtures {
    static let fiba = GameSetup(
        id: "final-1",
        home: Team(id: "h", name: "Lions of Zürich ⛹️", players: [Player(id: "h1", name: "Ann"), Player(id: "h2", name: "Bo")]),
        away: Team(id: "a", name: "Away", players: [Player(id: "a1", name: "Cy")]),
        rules: RuleSet(
            targetScore: 21, winBy: 1, hardCap: 25, timeLimit: .minutes(10, atTime: .overtime, overtimePoints: 3),
            teamFouls: TeamFoulRules(freeThrowsFrom: 6, possessionFrom: 9), shotClockSeconds: 12, timeoutsPerTeam: 1,
            forfeitScore: 20, preset: "fiba3x3"),
        court: "Center")

    static let plain = GameSetup(
        id: "g1", home: Team(id: "t1", name: "One", players: [Player(id: "p1", name: "P")]),
        away: Team(id: "t2", name: "Two", players: [Player(id: "p2", name: "Q")]))

    static var games: [Game] {
        var full = Game(setup: fiba)
        full.version = 42
        full.score = SideValues(home: 19, away: 22)
        full.counts["h1"]?.twoPoints = 9
        full.counts["h1"]?.freeThrow = 1
        full.counts["a1"]?.foul = 3
        full.counts["stranger"] = MoveCounts()
        full.clock = GameClock(accumulated: 600_000, runningSince: Timestamp(milliseconds: 1_700_000_123_456))
        full.status = .finished
        full.winner = .away
        full.endReason = .overtime
        full.timeExpired = true
        full.overtimeTargets = SideValues(home: 22, away: 22)
        full.plays = [
            Play(version: 3, at: Timestamp(milliseconds: 1_700_000_000_001), player: "h1", side: .home, move: .twoPoints),
            Play(
                version: 4, at: Timestamp(milliseconds: 1_700_000_000_002), player: "a1", side: .away, move: .foul,
                retractedBy: 5),
            Play(version: 7, at: Timestamp(milliseconds: -1), player: "stranger", side: .away, move: .freeThrow),
        ]
        full.teamFouls = SideValues(home: 0, away: 2)
        full.timeoutsUsed = SideValues(home: 1, away: 0)
        full.startedAt = Timestamp(milliseconds: 1_700_000_000_000)
        full.endedAt = Timestamp(milliseconds: -3)

        var replayed = Game(setup: plain)
        let moves: [MoveKind] = [.onePoint, .twoPoints, .assist, .rebound, .foul, .freeThrow]
        for (index, move) in (moves + moves).enumerated() {
            replayed.apply(
                GameEvent(
                    gameID: "g1", version: index + 2, at: Timestamp(milliseconds: Int64(index)),
                    origin: .init(clientID: "k", commandID: "\(index)"),
                    kind: .move(player: index.isMultiple(of: 2) ? "p1" : "p2", move: move)))
        }
        // The organiser's decisions, each end reason the binary form knows.
        let decided = [EndReason.forfeit, .abandoned, .noResult].map { reason in
            var game = replayed
            (game.status, game.endReason, game.winner) = (.finished, reason, reason == .noResult ? nil : .home)
            return game
        }
        return [full, replayed, Game(setup: plain)] + decided
    }
}

@Suite("Checkpoints in the SQLite log")
struct CheckpointStorageTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courtside-checkpoint-\(UUID().uuidString)")

    @Test("a game survives the binary form unchanged, every field of it")
    func roundTrip() throws {
        for game in CheckpointFixtures.games {
            #expect(try CheckpointCoding.decode(CheckpointCoding.encode(game)) == game)
        }
    }

    @Test("a long game whose plays outgrow the writer's first room survives unchanged, off-roster players too")
    func longGame() throws {
        var game = Game(setup: CheckpointFixtures.plain)
        // Off the roster, each play also writes its player's id: growth falls in mid-play.
        let stranger = PlayerID(rawValue: String(repeating: "ü", count: 40))
        game.plays = PlayHistory(
            (0..<2_000).map { index in
                Play(
                    version: index + 2, at: Timestamp(milliseconds: Int64(index) * 997 - 5_000),
                    player: index.isMultiple(of: 3) ? stranger : "p1", side: index.isMultiple(of: 2) ? .home : .away,
                    move: .twoPoints, retractedBy: index.isMultiple(of: 7) ? index + 1_000 : nil)
            })
        game.version = 2_001
        #expect(try CheckpointCoding.decode(CheckpointCoding.encode(game)) == game)
    }

    @Test("a later state encoded with an earlier state's plays gives the bytes of its whole encoding")
    func reusedPlays() throws {
        var game = Game(setup: CheckpointFixtures.plain)
        func move(_ index: Int) {
            game.apply(
                GameEvent(
                    gameID: "g1", version: game.version + 1, at: Timestamp(milliseconds: Int64(index) * 1_500),
                    origin: .init(clientID: "k", commandID: "\(index)"),
                    kind: .move(player: index.isMultiple(of: 2) ? "p1" : "p2", move: .rebound)))
        }
        for index in 0..<300 { move(index) }
        let (bytes, kept) = CheckpointCoding.encode(game, reusing: nil, keep: true)
        #expect(bytes == CheckpointCoding.encode(game))
        let plays = try #require(kept)
        #expect(plays.count == 300)
        for index in 300..<340 { move(index) }
        let (later, again) = CheckpointCoding.encode(game, reusing: plays, keep: true)
        #expect(later == CheckpointCoding.encode(game))
        #expect(try CheckpointCoding.decode(later) == game)
        #expect(again?.count == 340)
        // Plays that are not this game's first ones (the earlier game's, not this one's) are not used.
        #expect(
            CheckpointCoding.encode(Game(setup: CheckpointFixtures.plain), reusing: again, keep: false).bytes
                == CheckpointCoding.encode(Game(setup: CheckpointFixtures.plain)))
        #expect(!CheckpointCoding.keepsEncodedPlays(.retraction(targetVersion: 3)))
    }

    @Test("every truncated or damaged form is refused, never read as another game")
    func damaged() throws {
        let bytes = CheckpointCoding.encode(CheckpointFixtures.games[0])
        for length in 0..<bytes.count {
            #expect(throws: CheckpointError.self) { try CheckpointCoding.decode(Array(bytes.prefix(length))) }
        }
        #expect(throws: CheckpointError.self) { try CheckpointCoding.decode(bytes + [0]) }
        // Invalid UTF-8 inside the first string (the game id, after its length byte).
        var broken = bytes
        broken[1] = 0xff
        #expect(throws: CheckpointError.self) { try CheckpointCoding.decode(broken) }
    }

    /// A tripwire: the binary form writes these fields one by one. A field added to the model
    /// lands here first: write it in CheckpointCoding, bump its format, then update the count.
    @Test("the binary form knows every field of the model's types")
    func fieldCounts() {
        let game = CheckpointFixtures.games[0]
        func fields(_ value: Any) -> Int { Mirror(reflecting: value).children.count }
        #expect(fields(game) == 15, "Game")
        #expect(fields(game.setup) == 5, "GameSetup")
        #expect(fields(game.setup.home) == 3, "Team")
        #expect(fields(game.setup.home.players[0]) == 2, "Player")
        #expect(fields(game.setup.rules) == 9, "RuleSet")
        #expect(fields(game.setup.rules.timeLimit!) == 3, "TimeLimit")
        #expect(fields(game.setup.rules.teamFouls!) == 2, "TeamFoulRules")
        #expect(fields(game.clock) == 2, "GameClock")
        #expect(fields(game.plays[0]) == 6, "Play")
        #expect(fields(MoveCounts()) == MoveKind.allCases.count, "MoveCounts")
        #expect(fields(game.score) == 2, "SideValues")
    }

    static let setup = CheckpointFixtures.plain

    /// Creations of games g1...gN, then a move in each.
    static func events(games count: Int) -> [GameEvent] {
        var events: [GameEvent] = []
        for index in 1...count {
            var setup = setup
            setup.id = GameID("g\(index)")
            events.append(
                GameEvent(
                    gameID: setup.id, version: 1, sequence: Int64(events.count + 1),
                    at: Timestamp(milliseconds: Int64(events.count)),
                    origin: CommandOrigin(clientID: "k", commandID: "c\(index)"), kind: .gameCreated(setup)))
        }
        for index in 1...count {
            events.append(
                GameEvent(
                    gameID: GameID("g\(index)"), version: 2, sequence: Int64(events.count + 1),
                    at: Timestamp(milliseconds: Int64(events.count)),
                    origin: CommandOrigin(clientID: "k", commandID: "m\(index)"),
                    kind: .move(player: "p1", move: .twoPoints)))
        }
        return events
    }

    static func games(_ events: some Sequence<GameEvent>) -> [Game] { LogFixtures.games(events) }

    /// Three games created, then a move in each: events 1 to 6.
    static let threeGames = events(games: 3)

    /// A complete checkpoint of ``threeGames`` at their last event.
    static func checkpointThreeGames(_ log: SQLiteEventLog) throws {
        try log.writeCheckpoint(sequence: 6, changed: games(threeGames), complete: true, gameCount: 3)
    }

    /// The log in ``directory`` with ``threeGames`` appended, and their checkpoint when `checkpointed`.
    func logOfThreeGames(checkpointed: Bool) throws -> SQLiteEventLog {
        let log = try SQLiteEventLog(directory: directory)
        try log.append(Self.threeGames, refusals: [])
        if checkpointed { try Self.checkpointThreeGames(log) }
        return log
    }

    @Test("a checkpoint reads back as written; a later one writes only the games that changed")
    func incremental() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try SQLiteEventLog(directory: directory)
        #expect(try log.readCheckpoint() == nil)
        let events = Self.events(games: 3)
        try log.append(Array(events.prefix(4)), refusals: [])
        let first = Self.games(events.prefix(4))
        try log.writeCheckpoint(sequence: 4, changed: first, complete: true, gameCount: 3)
        var checkpoint = try #require(try log.readCheckpoint())
        #expect(checkpoint.sequence == 4 && checkpoint.at == events[3].at)
        #expect(checkpoint.games.sorted { $0.id < $1.id } == first)

        try log.append(Array(events.suffix(2)), refusals: [])
        let all = Self.games(events)
        // Written in parts: until it is completed, the previous checkpoint stands, whole.
        try log.writeCheckpoint(
            CheckpointPart(sequence: 6, states: [.init(all[1])], first: true, complete: false, completion: nil))
        checkpoint = try #require(try log.readCheckpoint())
        #expect(checkpoint.sequence == 4 && checkpoint.games.sorted { $0.id < $1.id } == first)
        try log.writeCheckpoint(
            CheckpointPart(sequence: 6, states: [.init(all[2])], first: false, complete: false, completion: 3))
        checkpoint = try #require(try log.readCheckpoint())
        #expect(checkpoint.sequence == 6)
        #expect(checkpoint.games.sorted { $0.id < $1.id } == all)
        // A game keeps at most the row in force and a newer one: g2 and g3 have rows of 4 and 6.
        let queue = try DatabaseQueue(path: directory.appendingPathComponent(SQLiteEventLog.checkpointFileName).path)
        let rows = { try queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM checkpoint_games") } }
        #expect(try rows() == 5)
        // The next checkpoint that writes them drops their rows of 4, which 6 superseded.
        try log.writeCheckpoint(sequence: 6, changed: Array(all.suffix(2)), complete: false, gameCount: 3)
        #expect(try rows() == 3)
        #expect(try log.readCheckpoint()?.games.sorted { $0.id < $1.id } == all)
        try queue.close()
        try log.close()
    }

    @Test(
        "a checkpoint that cannot be trusted is refused with a reason",
        arguments: [
            "UPDATE checkpoint_games SET state = x'0102' WHERE game_id = 'g2'",
            "DELETE FROM checkpoint_games WHERE game_id = 'g2'",
            "UPDATE checkpoint SET format = 999",
            "UPDATE checkpoint SET sequence = 99",
            "UPDATE checkpoint_games SET sequence = 7 WHERE game_id = 'g1'",
            "UPDATE checkpoint_games SET game_id = 'g9' WHERE game_id = 'g1'",
        ])
    func untrusted(damage: String) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var log = try logOfThreeGames(checkpointed: true)
        try log.close()
        let queue = try DatabaseQueue(path: directory.appendingPathComponent(SQLiteEventLog.checkpointFileName).path)
        try queue.write { try $0.execute(sql: damage) }
        try queue.close()
        log = try SQLiteEventLog(directory: directory)
        #expect(throws: CheckpointError.self) { try log.readCheckpoint() }
        // A complete checkpoint puts things right again, stray rows included.
        try Self.checkpointThreeGames(log)
        #expect(try log.readCheckpoint()?.games.count == 3)
        try log.close()
    }

    @Test(
        "a checkpoint is written while another connection holds the log's write lock, and a commit while one holds the checkpoints'"
    )
    func ownFile() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try logOfThreeGames(checkpointed: false)
        var configuration = Configuration()
        configuration.busyMode = .immediateError
        let holder = try DatabaseQueue(
            path: directory.appendingPathComponent(SQLiteEventLog.fileName).path, configuration: configuration)
        try holder.inDatabase { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            // In the log's own file this part would find the lock taken, and fail.
            try Self.checkpointThreeGames(log)
            try db.execute(sql: "ROLLBACK")
        }
        try holder.close()
        #expect(try log.readCheckpoint()?.sequence == 6)
        let checkpoints = try DatabaseQueue(
            path: directory.appendingPathComponent(SQLiteEventLog.checkpointFileName).path, configuration: configuration)
        let more = Self.events(games: 4).suffix(1).map { event in
            var event = event
            event.sequence = 7
            event.gameID = "g1"
            event.version = 3
            return event
        }
        try checkpoints.inDatabase { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            try log.append(more, refusals: [])
            try db.execute(sql: "ROLLBACK")
        }
        try checkpoints.close()
        #expect(try log.readAll().count == 7)
        try log.close()
    }

    @Test("the checkpoint file's WAL holds the parts of the checkpoint being written, and is emptied when it completes")
    func walEmptied() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try logOfThreeGames(checkpointed: false)
        let games = Self.games(Self.threeGames)
        let wal = directory.appendingPathComponent(SQLiteEventLog.checkpointFileName + "-wal").path
        func walSize() throws -> Int { try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int ?? -1 }
        try log.writeCheckpoint(
            CheckpointPart(sequence: 6, states: [.init(games[0])], first: true, complete: true, completion: nil))
        #expect(try walSize() > 0)
        try log.writeCheckpoint(
            CheckpointPart(
                sequence: 6, states: games.dropFirst().map(CheckpointPart.State.init), first: false, complete: true,
                completion: 3))
        #expect(try walSize() == 0)
        #expect(try log.readCheckpoint()?.games.count == 3)
        try log.close()
    }

    @Test("a new checkpoint file has 16 KB pages, so that a long game's state stays on its page")
    func pageSize() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try logOfThreeGames(checkpointed: true)
        try log.close()
        let queue = try DatabaseQueue(path: directory.appendingPathComponent(SQLiteEventLog.checkpointFileName).path)
        #expect(try queue.read { try Int.fetchOne($0, sql: "PRAGMA page_size") } == 16_384)
        try queue.close()
    }

    @Test("a checkpoint file that cannot be opened is made again: the log opens, and says the checkpoint cannot be used")
    func damagedFile() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var log = try logOfThreeGames(checkpointed: true)
        try log.close()
        let file = directory.appendingPathComponent(SQLiteEventLog.checkpointFileName)
        try Data(repeating: 0x5a, count: 8192).write(to: file)
        log = try SQLiteEventLog(directory: directory)
        #expect(try log.readAll() == Self.threeGames)
        #expect(throws: CheckpointError.self) { try log.readCheckpoint() }
        try Self.checkpointThreeGames(log)
        try log.close()
        log = try SQLiteEventLog(directory: directory)
        #expect(try log.readCheckpoint()?.games.count == 3)
        try log.close()
    }

    @Test("a checkpoint whose games do not have the log's event at its sequence is refused")
    func otherState() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try logOfThreeGames(checkpointed: false)
        // Event 3 created g3, at version 1; these games have g3 at version 2.
        try log.writeCheckpoint(sequence: 3, changed: Self.games(Self.threeGames), complete: true, gameCount: 3)
        #expect(throws: CheckpointError.self) { try log.readCheckpoint() }
        try log.close()
    }

    @Test("a checkpoint file left beside another log is refused, though that log's events are the same")
    func otherLog() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var log = try logOfThreeGames(checkpointed: true)
        try log.close()
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(SQLiteEventLog.fileName + suffix))
        }
        log = try logOfThreeGames(checkpointed: false)
        #expect(throws: CheckpointError.self) { try log.readCheckpoint() }
        try log.close()
    }

    @Test("a log from before checkpoints had their own file drops its old checkpoint tables when it opens")
    func oldTablesDropped() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(SQLiteEventLog.fileName).path
        let old = try DatabaseQueue(path: path)
        var migrator = SQLiteEventLog.migrator
        migrator.eraseDatabaseOnSchemaChange = false
        try migrator.migrate(old, upTo: "v5: keys filed in runs")
        // As courtsided's v4 left them, before it created nothing.
        try old.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE checkpoint_games (game_id TEXT, sequence INTEGER, state BLOB);
                    CREATE TABLE checkpoint (id INTEGER PRIMARY KEY, sequence INTEGER, format INTEGER, games INTEGER);
                    """)
        }
        try old.close()
        let log = try SQLiteEventLog(directory: directory)
        try log.close()
        let reopened = try DatabaseQueue(path: path)
        #expect(try reopened.read { try !$0.tableExists("checkpoint_games") && !$0.tableExists("checkpoint") })
        try reopened.close()
    }

    @Test("the events after a checkpoint, and every answer without payloads, in the same order as the generic reading")
    func tailAndAnswers() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try SQLiteEventLog(directory: directory)
        let events = Self.events(games: 4)
        try log.append(events, refusals: [])
        func refusal(_ id: String, at time: Int64) -> CommandRefusal {
            CommandRefusal(
                gameID: "g1", origin: CommandOrigin(clientID: "k", commandID: id), at: Timestamp(milliseconds: time),
                error: CourtsideError(.clockNotRunning, "the clock is not running"))
        }
        // Before the first event, between two at the same time as the second, and after the last.
        try log.append([], refusals: [refusal("r0", at: -5), refusal("r1", at: 3), refusal("r2", at: 99)])
        #expect(try log.readEvents(after: 5) == Array(events.suffix(3)))
        #expect(try log.readEvents(after: 8).isEmpty)

        var answers: [LoggedAnswer] = []
        try log.forEachAnswer { answers.append($0) }
        var generic: [LoggedAnswer] = []
        try GenericLog(log).forEachAnswer { generic.append($0) }
        #expect(answers == generic)
        #expect(
            answers.map(\.origin.commandID) == ["r0", "c1", "c2", "c3", "c4", "r1", "m1", "m2", "m3", "m4", "r2"])
        #expect(answers[1].outcome == .event(game: "g1", version: 1, sequence: 1))
        try log.close()
    }

    @Test("flat payloads are read by hand exactly as JSONDecoder reads them; anything else goes to JSONDecoder")
    func payloads() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let kinds: [GameEvent.Kind] = [
            .move(player: "ann", move: .twoPoints), .move(player: "Zoë-7", move: .freeThrow), .move(player: "a/b", move: .foul),
            .move(player: "say \"hi\"", move: .assist), .retraction(targetVersion: 12), .retraction(targetVersion: 0),
            .clockStarted,
            .clockPaused, .timeExpired, .timeout(side: .away), .gameCreated(Self.setup),
            .teamsAssigned(home: Self.setup.home, away: Self.setup.away),
        ]
        let decoder = EventPayloadDecoder()
        for kind in kinds {
            let payload = try encoder.encode(kind)
            #expect(try payload.withUnsafeBytes { try decoder.decode($0) } == kind)
        }
        // Read by hand: the log's own shapes, with or without spaces, unknown keys ignored.
        let flat = [
            #"{"move":"rebound","player":"p1","type":"move"}"#, #" { "type" : "retraction", "target_version" : 7 } "#,
            #"{"type":"timeout","side":"home","note":"x"}"#, #"{"type":"clock_started"}"#,
        ]
        for text in flat {
            let hand = Array(text.utf8).withUnsafeBytes { EventPayloadDecoder.flat($0) }
            #expect(hand != nil, "\(text)")
            #expect(hand == (try JSONDecoder().decode(GameEvent.Kind.self, from: Data(text.utf8))), "\(text)")
        }
        // Left to JSONDecoder: escapes, fractions, nesting, unknown values, duplicates, bad JSON.
        let other = [
            #"{"move":"rebound","player":"p\u0031","type":"move"}"#, #"{"type":"retraction","target_version":7.0}"#,
            #"{"type":"retraction","target_version":07}"#, #"{"type":"move","player":"p","move":"dunk"}"#,
            #"{"type":"move","type":"move","player":"p","move":"foul"}"#, #"{"type":"clock_started"} x"#, #"{"type":true}"#,
            #"{"type":"game_created","setup":{}}"#, #"{"type":"clock_started",}"#, "",
        ]
        for text in other {
            #expect(Array(text.utf8).withUnsafeBytes { EventPayloadDecoder.flat($0) } == nil, "\(text)")
        }
    }
}

/// Forwards only what every log must have, so the protocol's generic readings are used.
struct GenericLog: EventLog {
    let base: SQLiteEventLog
    init(_ base: SQLiteEventLog) { self.base = base }
    func readAll() throws -> [GameEvent] { try base.readAll() }
    func readRefusals() throws -> [CommandRefusal] { try base.readRefusals() }
    func append(_ events: [GameEvent], refusals: [CommandRefusal]) throws { try base.append(events, refusals: refusals) }
    func events(ofGame game: GameID) async throws -> [GameEvent] { try await base.events(ofGame: game) }
    func contains(_ origin: CommandOrigin) async throws -> Bool { try await base.contains(origin) }
    func close() throws { try base.close() }
}
