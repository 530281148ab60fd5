import CourtsideModel
import Foundation
import GRDB
import Testing

@testable import CourtsideStorage

/// The look-ups by game and by command, whose keys the log files in runs: whatever has been
/// filed, they answer as a scan of the whole log would.
@Suite("Event keys filed in runs")
struct EventKeysTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courtside-keys-\(UUID().uuidString)")
    var path: String { directory.appendingPathComponent(SQLiteEventLog.fileName).path }

    /// Events of games g1, g2, ... from keepers k0, k1, k2 in turn, each game's first one its creation.
    struct History {
        var events: [GameEvent] = []
        var versions: [GameID: Int] = [:]

        mutating func add(_ games: [Int]) -> [GameEvent] {
            let added = games.enumerated().map { offset, number in
                let game = GameID("g\(number)")
                let version = versions[game, default: 0] + 1
                versions[game] = version
                var setup = CheckpointStorageTests.setup
                setup.id = game
                let sequence = Int64(events.count + offset + 1)
                return GameEvent(
                    gameID: game, version: version, sequence: sequence, at: Timestamp(milliseconds: sequence),
                    origin: CommandOrigin(clientID: "k\(sequence % 3)", commandID: "c\(sequence)"),
                    kind: version == 1 ? .gameCreated(setup) : .move(player: "p1", move: .twoPoints))
            }
            events += added
            return added
        }
    }

    static let refusal = CommandRefusal(
        gameID: "g1", origin: CommandOrigin(clientID: "k9", commandID: "refused"), at: Timestamp(milliseconds: 1),
        error: CourtsideError(.gameFinished, "game g1 has ended"))

    /// Every game's events, and commands (every 97th, the first and the last), found as the
    /// whole log holds them.
    func expectLookUps(_ log: SQLiteEventLog, _ history: History, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        for game in history.versions.keys {
            let expected = history.events.filter { $0.gameID == game }
            #expect(try await log.events(ofGame: game) == expected, "\(game)", sourceLocation: sourceLocation)
        }
        let sample = history.events.enumerated().filter { $0.offset % 97 == 0 }.map(\.element) + history.events.suffix(1)
        for event in sample {
            #expect(try await log.contains(event.origin), "\(event.origin)", sourceLocation: sourceLocation)
        }
        #expect(try await log.contains(Self.refusal.origin), sourceLocation: sourceLocation)
        #expect(try await !log.contains(CommandOrigin(clientID: "k1", commandID: "never")), sourceLocation: sourceLocation)
        #expect(try await log.events(ofGame: "nobody").isEmpty, sourceLocation: sourceLocation)
    }

    /// How far every event is filed, and how many keys of each kind are: the sequences in the
    /// games' rows, and the rows by command.
    struct Filed: Equatable {
        var through: Int64
        var byGame: Int
        var byCommand: Int
        init(_ through: Int64, _ byGame: Int, _ byCommand: Int) {
            (self.through, self.byGame, self.byCommand) = (through, byGame, byCommand)
        }
    }

    func filed() throws -> Filed {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            Filed(
                try SQLiteEventLog.filedThrough(db),
                try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(json_array_length(sequences)), 0) FROM event_runs_by_game")
                    ?? -1,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM event_runs_by_command")
                    ?? -1)
        }
    }

    /// Five games' moves in turn.
    static func moves(_ count: Int) -> [Int] { (0..<count).map { $0 % 5 + 1 } }

    @Test("before and after runs of keys are filed, a game's events and a command are found")
    func lookUps() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        var log = try SQLiteEventLog(directory: directory)
        var history = History()
        let run = Int(SQLiteEventLog.keyRun)
        try log.append(history.add(Self.moves(run / 2)), refusals: [Self.refusal])
        try await expectLookUps(log, history)
        #expect(try filed() == Filed(0, 0, 0))

        // The commit that makes a run's worth files them all, its own events included.
        try log.append(history.add(Self.moves(run / 2 + 10)), refusals: [])
        #expect(try filed() == Filed(Int64(run + 10), run + 10, run + 10))
        try await expectLookUps(log, history)

        try log.append(history.add(Self.moves(100)), refusals: [])
        try await expectLookUps(log, history)
        try log.close()
        log = try SQLiteEventLog(directory: directory)
        try log.append(history.add(Self.moves(run - 100)), refusals: [])
        try await expectLookUps(log, history)
        #expect(try filed() == Filed(Int64(2 * run + 10), 2 * run + 10, 2 * run + 10))
        try log.close()
        // A closed log in WAL mode, up to date: nothing to upgrade, and asking opens it read-only.
        #expect(try SQLiteEventLog.eventsToUpgrade(in: directory) == nil)
    }

    @Test("a commit that fails as it files a run keeps none of its keys: the run files the log's events alone")
    func failedCommit() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try SQLiteEventLog(directory: directory)
        var history = History()
        let run = Int(SQLiteEventLog.keyRun)
        try log.append(history.add(Self.moves(run / 2)), refusals: [Self.refusal])
        // A row in the way of the run that the next commit files: that commit rolls back, its
        // events' keys grouped already.
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        let inTheWay = "INSERT INTO event_runs_by_game (run, game_id, sequences) VALUES (\(run), 'g1', '[]')"
        try await queue.write { try $0.execute(sql: inTheWay) }
        var other = History(events: history.events, versions: history.versions)
        var refused = other.add(Self.moves(run / 2))
        for index in refused.indices { refused[index].origin.commandID = "refused-\(index)" }
        #expect(throws: DatabaseError.self) { try log.append(refused, refusals: []) }
        try await queue.write { try $0.execute(sql: "DELETE FROM event_runs_by_game") }

        try log.append(history.add(Self.moves(run / 2)), refusals: [])
        #expect(try filed() == Filed(Int64(run), run, run))
        try await expectLookUps(log, history)
        #expect(try await !log.contains(refused[2].origin))
        try log.close()
    }

    @Test("a command's hash is the same in every process and build: the keys filed before are found by it")
    func commandHashIsStable() {
        #expect(SQLiteEventKeyRun.commandHash(CommandOrigin(clientID: "k1", commandID: "c1")) == 2_058_029_843_854_297_758)
        #expect(
            SQLiteEventKeyRun.commandHash(CommandOrigin(clientID: "keeper-3", commandID: "6db3454a"))
                == 1_786_036_979_676_500_085)
        #expect(
            SQLiteEventKeyRun.commandHash(CommandOrigin(clientID: "k1", commandID: "c1"))
                != SQLiteEventKeyRun.commandHash(CommandOrigin(clientID: "k1c", commandID: "1")))
    }

    @Test("ids that JSON escapes are filed and found as they are")
    func escapedIDs() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try SQLiteEventLog(directory: directory)
        var history = History()
        let odd = ["say \"hi\"", "back\\slash/", "jeu-é-🏀", "k1"]
        var events = history.add(Self.moves(Int(SQLiteEventLog.keyRun)))
        for index in odd.indices {
            events[index].origin = CommandOrigin(clientID: odd[index], commandID: odd[odd.count - 1 - index])
            events[index].gameID = GameID(odd[index])
        }
        try log.append(events, refusals: [])
        #expect(try filed().through == SQLiteEventLog.keyRun)
        for index in odd.indices {
            #expect(try await log.contains(events[index].origin), "\(events[index].origin)")
            #expect(try await log.events(ofGame: events[index].gameID) == [events[index]])
        }
        #expect(try await !log.contains(CommandOrigin(clientID: odd[0], commandID: odd[0])))
        try log.close()
    }

    @Test("a log from before the keys were filed keeps its events, loses the per-commit indexes, and is filed whole")
    func migration() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var history = History()
        let events = history.add([1, 2, 1, 2, 3])
        let queue = try DatabaseQueue(path: path)
        try SQLiteEventLog.migrator.migrate(queue, upTo: "v4: checkpoints")
        try await queue.write { db in try Self.insertRows(events, db) }
        try queue.close()

        // The daemon asks first, to say that this start upgrades the log.
        #expect(try SQLiteEventLog.eventsToUpgrade(in: directory) == 5)
        let log = try SQLiteEventLog(directory: directory)
        #expect(try SQLiteEventLog.eventsToUpgrade(in: directory) == nil)
        #expect(try SQLiteEventLog.eventsToUpgrade(in: directory.appendingPathComponent("none")) == nil)
        try log.append([], refusals: [Self.refusal])
        #expect(try log.readAll() == events)
        #expect(try filed() == Filed(5, 5, 5), "the events a migration finds are filed as one run")
        try await expectLookUps(log, history)
        try log.append(history.add([3, 1]), refusals: [])
        try await expectLookUps(log, history)
        try log.close()

        let reopened = try DatabaseQueue(path: path)
        defer { try? reopened.close() }
        let indexes = try await reopened.read { db in try Row.fetchAll(db, sql: "PRAGMA index_list(events)") }
        #expect(indexes.isEmpty)
        #expect(throws: DatabaseError.self) { try reopened.writeWithoutTransaction { try $0.execute(sql: "DELETE FROM events") } }
        #expect(throws: DatabaseError.self) {
            try reopened.writeWithoutTransaction { try $0.execute(sql: "UPDATE events SET version = 9") }
        }
    }

    /// Inserts `events` as rows of `events`, as an older log holds them.
    static func insertRows(_ events: [GameEvent], _ db: Database) throws {
        for event in events {
            var payload = JSONWriter(capacity: 256)
            event.kind.writeJSON(to: &payload)
            try db.execute(
                sql: "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                arguments: [
                    event.sequence, event.gameID.rawValue, event.version, event.at.rawValue, event.origin.clientID,
                    event.origin.commandID, event.kind.typeName, Data(payload.bytes),
                ])
        }
    }

    @Test("runs filed a row an event by its texts are filed anew run by run; the events after them are filed in the next run")
    func groupedRuns() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var history = History()
        let queue = try DatabaseQueue(path: path)
        try SQLiteEventLog.migrator.migrate(queue, upTo: "v6: checkpoints in their own file")
        // Runs of 40 and 60 events, and 25 after them, as migration v5's tables held them.
        let older = history.add(Self.moves(125))
        try await queue.write { db in
            try Self.insertRows(older, db)
            for (after, through) in [(0, 40), (40, 100)] {
                let span: StatementArguments = [after, through]
                try db.execute(
                    sql: """
                        INSERT INTO event_keys_by_game (run, game_id, version, sequence)
                        SELECT ?2, game_id, version, sequence FROM events WHERE sequence > ?1 AND sequence <= ?2
                        """, arguments: span)
                try db.execute(
                    sql: """
                        INSERT INTO event_keys_by_command (run, client_id, command_id, sequence)
                        SELECT ?2, client_id, command_id, sequence FROM events WHERE sequence > ?1 AND sequence <= ?2
                        """, arguments: span)
                try db.execute(sql: "INSERT INTO event_key_runs (run) VALUES (?)", arguments: [through])
            }
        }
        try queue.close()

        #expect(try SQLiteEventLog.eventsToUpgrade(in: directory) == 125)
        let log = try SQLiteEventLog(directory: directory)
        #expect(try filed() == Filed(100, 100, 100))
        let runs = try await DatabaseQueue(path: path).read { db in
            try Int64.fetchAll(db, sql: "SELECT DISTINCT run FROM event_runs_by_game ORDER BY run")
        }
        #expect(runs == [40, 100])
        try log.append([], refusals: [Self.refusal])
        try await expectLookUps(log, history)
        try log.append(history.add(Self.moves(Int(SQLiteEventLog.keyRun) - 25)), refusals: [])
        #expect(
            try filed() == Filed(100 + SQLiteEventLog.keyRun, 100 + Int(SQLiteEventLog.keyRun), 100 + Int(SQLiteEventLog.keyRun)))
        try await expectLookUps(log, history)
        try log.close()
    }

    @Test("a look-up seeks each run's keys, and scans only the events after the last run, by rowid")
    func queryPlans() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try SQLiteEventLog(directory: directory).close()
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        let runs = "run IN (SELECT run FROM event_key_runs)"
        let plans: [(String, String)] = [
            ("SELECT 1 FROM events WHERE game_id = 'g1' AND sequence > 7", "SEARCH events USING INTEGER PRIMARY KEY (rowid>?)"),
            (
                "SELECT 1 FROM events WHERE sequence > 7 AND client_id = 'k' AND command_id = 'c'",
                "SEARCH events USING INTEGER PRIMARY KEY (rowid>?)"
            ),
            (
                "SELECT 1 FROM event_runs_by_game WHERE \(runs) AND game_id = 'g1'",
                "SEARCH event_runs_by_game USING PRIMARY KEY (run=? AND game_id=?)"
            ),
            (
                "SELECT 1 FROM event_runs_by_command WHERE \(runs) AND command_hash = 7",
                "SEARCH event_runs_by_command USING PRIMARY KEY (run=? AND command_hash=?)"
            ),
        ]
        try queue.read { db in
            for (query, expected) in plans {
                let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(query)").map { $0["detail"] as String }
                #expect(plan.first == expected, "\(query): \(plan)")
            }
        }
    }
}
