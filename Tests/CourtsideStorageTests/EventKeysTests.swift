import CourtsideModel
import Foundation
import GRDB
import Testing

@testable import CourtsideStorage

/// The look-ups by game and by command, whose keys the checkpoints file: whatever has been filed,
/// they answer as a scan of the whole log would.
@Suite("Event keys filed by checkpoints")
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

        func games(_ numbers: [Int]) -> [Game] {
            let all = CheckpointStorageTests.games(events)
            return numbers.compactMap { number in all.first { $0.id == GameID("g\(number)") } }
        }

        func states(_ numbers: [Int]) -> [CheckpointPart.State] { games(numbers).map(CheckpointPart.State.init) }
    }

    static let refusal = CommandRefusal(
        gameID: "g1", origin: CommandOrigin(clientID: "k9", commandID: "refused"), at: Timestamp(milliseconds: 1),
        error: CourtsideError(.gameFinished, "game g1 has ended"))

    /// Every game's events, and every command, found as the whole log holds them.
    func expectLookUps(_ log: SQLiteEventLog, _ history: History, sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        for game in history.versions.keys {
            let expected = history.events.filter { $0.gameID == game }
            #expect(try await log.events(ofGame: game) == expected, "\(game)", sourceLocation: sourceLocation)
        }
        for event in history.events {
            #expect(try await log.contains(event.origin), "\(event.origin)", sourceLocation: sourceLocation)
        }
        #expect(try await log.contains(Self.refusal.origin), sourceLocation: sourceLocation)
        #expect(try await !log.contains(CommandOrigin(clientID: "k1", commandID: "never")), sourceLocation: sourceLocation)
        #expect(try await log.events(ofGame: "nobody").isEmpty, sourceLocation: sourceLocation)
    }

    /// How far every event is filed, and how many keys of each kind are.
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
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM event_keys_by_game") ?? -1,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM event_keys_by_command") ?? -1)
        }
    }

    @Test("before, during and after checkpoints, a game's events and a command are found")
    func lookUps() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try SQLiteEventLog(directory: directory)
        var history = History()
        try log.append(history.add([1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4]), refusals: [Self.refusal])
        try await expectLookUps(log, history)
        #expect(try filed() == Filed(0, 0, 0))

        // A checkpoint of every game, in two parts: the first files its games' keys alone.
        try log.writeCheckpoint(
            CheckpointPart(sequence: 12, states: history.states([1, 2]), first: true, complete: true, completion: nil))
        try await expectLookUps(log, history)
        #expect(try filed() == Filed(0, 6, 6))
        try log.append(
            [], refusals: [],
            checkpoint: CheckpointPart(sequence: 12, states: history.states([3, 4]), first: false, complete: true, completion: 4))
        try await expectLookUps(log, history)
        #expect(try filed() == Filed(12, 12, 12))

        // Moves in two games, then a checkpoint of those two only.
        try log.append(history.add([1, 2, 1, 2, 1, 2]), refusals: [])
        try await expectLookUps(log, history)
        try log.writeCheckpoint(sequence: 18, changed: history.games([1, 2]), complete: false, gameCount: 4)
        try await expectLookUps(log, history)
        #expect(try filed() == Filed(18, 18, 18))
        try log.append(history.add([3, 3]), refusals: [])
        try await expectLookUps(log, history)
        try log.close()
    }

    @Test("a checkpoint put in force without filing (by an older build) is made up for by the next one")
    func foreignCheckpoint() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try SQLiteEventLog(directory: directory)
        var history = History()
        try log.append(history.add([1, 2, 3, 4, 1, 2, 3, 4]), refusals: [Self.refusal])
        try log.writeCheckpoint(sequence: 8, changed: history.games([1, 2, 3, 4]), complete: true, gameCount: 4)
        #expect(try filed().through == 8)
        try log.append(history.add([1, 1]), refusals: [])
        // Another build's checkpoint of 10, which files nothing: g1's moves stay unfiled.
        let queue = try DatabaseQueue(path: path)
        try await queue.write { try $0.execute(sql: "UPDATE checkpoint SET sequence = 10") }
        try queue.close()
        try log.append(history.add([2, 2]), refusals: [])
        // The next checkpoint writes g2 alone: it must file g1's two moves too.
        try log.writeCheckpoint(sequence: 12, changed: history.games([2]), complete: false, gameCount: 4)
        #expect(try filed() == Filed(12, 12, 12))
        try await expectLookUps(log, history)
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
        try await queue.write { db in
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
        try queue.close()

        let log = try SQLiteEventLog(directory: directory)
        try log.append([], refusals: [Self.refusal])
        #expect(try log.readAll() == events)
        #expect(try filed() == Filed(5, 5, 5))
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

    @Test("the events after the last filed are scanned by rowid, never the whole table")
    func tailIsARange() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try SQLiteEventLog(directory: directory).close()
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.read { db in
            for condition in ["game_id = 'g1' AND sequence > 7", "sequence > 7 AND client_id = 'k' AND command_id = 'c'"] {
                let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT 1 FROM events WHERE \(condition)")
                    .map { $0["detail"] as String }
                #expect(plan == ["SEARCH events USING INTEGER PRIMARY KEY (rowid>?)"], "\(condition)")
            }
        }
    }
}
