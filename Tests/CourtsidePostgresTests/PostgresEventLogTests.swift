import CourtsideModel
import CourtsidePostgres
import CourtsidePostgresTesting
import CourtsideStorage
import CourtsideStorageTesting
import Foundation
import Logging
import Testing

/// The engines the log's suite runs on. PostgreSQL's is left out, with a note, where it is not
/// installed; CI installs it (scripts/setup.sh), so CI runs both.
enum Engine: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    static var available: [Engine] { TestPostgresServer.isInstalled ? allCases : [.sqlite] }
}

/// Where one test keeps its log, on one engine: a temporary directory, or a throwaway PostgreSQL
/// server. The test opens and closes the log there as often as it likes.
final class LogPlace {
    let engine: Engine
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courtside-log-\(UUID().uuidString)")
    let server: TestPostgresServer?
    static let logger = Logger(label: "courtside.test")

    private init(_ engine: Engine) throws {
        self.engine = engine
        server = engine == .postgres ? try TestPostgresServer() : nil
    }

    /// Runs `body` with a new place on `engine`, removed afterwards whatever happens.
    static func with(_ engine: Engine, _ body: (LogPlace) async throws -> Void) async throws {
        let place = try LogPlace(engine)
        defer { place.remove() }
        try await body(place)
    }

    func open() throws -> any EventLog {
        switch engine {
        case .sqlite: try SQLiteEventLog(directory: directory)
        // Pages of 7 events: the long reads cross pages in every test.
        case .postgres: try PostgresEventLog(configuration: server!.configuration, logger: Self.logger, pageSize: 7)
        }
    }

    private func remove() {
        server?.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// The event log's suite (as `SQLiteEventLogTests` and `EventKeysTests` check SQLite's), run on
/// every engine: what one log does, the other must.
@Suite("The event log on every engine")
struct EventLogEngineTests {
    /// Three games interleaved, from three keepers, each game's first event its creation.
    static func threeGames(_ count: Int) -> [GameEvent] {
        var versions: [GameID: Int] = [:]
        return (1...count).map { sequence in
            let game = GameID("g\(sequence % 3)")
            let version = versions[game, default: 0] + 1
            versions[game] = version
            var setup = LogFixtures.setup
            setup.id = game
            return GameEvent(
                gameID: game, version: version, sequence: Int64(sequence), at: Timestamp(milliseconds: Int64(sequence * 10)),
                origin: CommandOrigin(clientID: "k\(sequence % 3)", commandID: "c\(sequence)"),
                kind: version == 1 ? .gameCreated(setup) : .move(player: "h1", move: .twoPoints))
        }
    }

    @Test(
        "checkpoints: a complete one, a later one of the changed games, a part not yet in force, one the log does not match",
        arguments: Engine.available)
    func checkpoints(engine: Engine) async throws {
        try await LogPlace.with(engine) { place in
            let all = Self.threeGames(12)
            var log = try place.open()
            #expect(try log.readCheckpoint() == nil)
            try log.append(Array(all.prefix(4)), refusals: [])
            try log.writeCheckpoint(sequence: 4, changed: LogFixtures.games(all.prefix(4)), complete: true, gameCount: 3)
            var checkpoint = try #require(try log.readCheckpoint())
            #expect(checkpoint.sequence == 4 && checkpoint.at == all[3].at)
            #expect(checkpoint.games.sorted { $0.id < $1.id } == LogFixtures.games(all.prefix(4)))
            // Only the games changed since: events 5 to 9 touch all three, 8 and 9 two of them.
            try log.append(Array(all[4..<9]), refusals: [])
            let changed = LogFixtures.games(all.prefix(9)).filter { game in all[7..<9].contains { $0.gameID == game.id } }
            try log.writeCheckpoint(sequence: 7, changed: LogFixtures.games(all.prefix(7)), complete: false, gameCount: 3)
            try log.writeCheckpoint(sequence: 9, changed: changed, complete: false, gameCount: 3)
            // A part without its completion is not in force yet.
            try log.append(Array(all[9...]), refusals: [])
            try log.writeCheckpoint(
                CheckpointPart(
                    sequence: 12, states: LogFixtures.games(all).map(CheckpointPart.State.init), first: true, complete: false,
                    completion: nil))
            try log.close()
            log = try place.open()
            checkpoint = try #require(try log.readCheckpoint())
            #expect(checkpoint.sequence == 9)
            #expect(checkpoint.games.sorted { $0.id < $1.id } == LogFixtures.games(all.prefix(9)))
            // A checkpoint of an event the log does not hold is refused, not used.
            try log.writeCheckpoint(sequence: 99, changed: LogFixtures.games(all), complete: true, gameCount: 3)
            #expect(throws: CheckpointError.self) { try log.readCheckpoint() }
            try log.close()
        }
    }

    @Test("what is appended reads back in order, after reopening, refusals beside the events", arguments: Engine.available)
    func roundTrip(engine: Engine) async throws {
        try await LogPlace.with(engine) { place in
            var log = try place.open()
            try log.append(LogFixtures.events(1...10), refusals: [])
            try log.append(LogFixtures.events(11...12), refusals: [LogFixtures.refusal])
            // The same refusal twice is kept once: a retry must never fail a commit.
            try log.append([], refusals: [LogFixtures.refusal])
            try log.append([], refusals: [LogFixtures.refusal, LogFixtures.refusal])
            try log.close()
            log = try place.open()
            #expect(try log.readAll() == LogFixtures.events(1...12))
            #expect(try log.readRefusals() == [LogFixtures.refusal])
            try log.close()
            // Closed is closed.
            #expect(throws: (any Error).self) { try log.readAll() }
        }
    }

    @Test(
        "the events that nest objects or carry a reason read back whole: a correction's reason, a tournament change",
        arguments: Engine.available)
    func reasonsAndChanges(engine: Engine) async throws {
        try await LogPlace.with(engine) { place in
            let origin = CommandOrigin(clientID: "organiser", commandID: "c")
            let events =
                LogFixtures.events(1...2) + [
                    GameEvent(
                        gameID: "g1", version: 3, sequence: 3, at: Timestamp(milliseconds: 3), origin: origin,
                        kind: .retraction(targetVersion: 2, reason: "the scorer's \"slip\"")),
                    GameEvent(
                        gameID: .tournament, version: 1, sequence: 4, at: Timestamp(milliseconds: 4), origin: origin,
                        kind: .tournamentChanged(
                            .playerAdded(team: "lions", player: Player(id: "dee", name: "Dee")), reason: "late")),
                    GameEvent(
                        gameID: "g1", version: 4, sequence: 5, at: Timestamp(milliseconds: 5), origin: origin,
                        kind: .setupChanged(court: "Court 2", rules: .standard)),
                ]
            var log = try place.open()
            try log.append(events, refusals: [])
            try log.close()
            log = try place.open()
            #expect(try log.readAll() == events)
            #expect(try log.readEvents(ofGame: .tournament) == [events[3]])
            #expect(try log.readEvents(after: 2) == Array(events[2...]))
            try log.close()
        }
    }

    @Test(
        "the log is append-only: updates and deletes are refused, a duplicate key fails the whole batch",
        arguments: Engine.available)
    func appendOnly(engine: Engine) async throws {
        try await LogPlace.with(engine) { place in
            let log = try place.open()
            try log.append(LogFixtures.events(1...3), refusals: [LogFixtures.refusal])
            // Behind the log's back, as an operator (or a bug) would: refused. (SQLite's triggers
            // are checked through GRDB in SQLiteEventLogTests.)
            if let server = place.server {
                for sql in [
                    "DELETE FROM events", "UPDATE events SET version = 9", "TRUNCATE events", "DELETE FROM refusals",
                    "UPDATE refusals SET code = 'x'",
                ] {
                    #expect(!server.psql(sql), "\(sql)")
                }
                #expect(server.psql("SELECT 1"))
            }
            #expect(try log.readAll() == LogFixtures.events(1...3))
            // A duplicate sequence is refused, and the batch leaves nothing behind.
            #expect(throws: (any Error).self) { try log.append(LogFixtures.events(3...4), refusals: []) }
            // Refused halfway through a batch: the rows before the duplicate are gone with it.
            #expect(throws: (any Error).self) {
                try log.append(LogFixtures.events(4...5) + LogFixtures.events(2...2), refusals: [])
            }
            // The same game and version under another sequence: PostgreSQL's unique key refuses
            // it. (SQLite's log files its keys in runs, without a unique index: the library never
            // writes one, as it numbers versions itself.)
            if engine == .postgres {
                var again = LogFixtures.events(3...3)
                again[0].sequence = 9
                #expect(throws: (any Error).self) { try log.append(again, refusals: []) }
                // What the server said reaches the library's log in words, not a generic line.
                let error = #expect(throws: PostgresEventLogError.self) {
                    try log.append(LogFixtures.events(3...3), refusals: [])
                }
                #expect(error?.description.contains("events_pkey") == true, "\(String(describing: error))")
            }
            #expect(try log.readAll() == LogFixtures.events(1...3))
            // The log goes on after a refused batch; ids beyond ASCII read back whole and are found.
            var next = LogFixtures.events(4...6)
            next[1].origin = CommandOrigin(clientID: "Zürich ⛹️", commandID: "ß-\u{7f}")
            try log.append(next, refusals: [])
            #expect(try log.readAll() == LogFixtures.events(1...3) + next)
            #expect(try await log.contains(next[1].origin))
            try log.close()
        }
    }

    @Test("look-ups by game and by command, the events after a sequence, and every answer in order", arguments: Engine.available)
    func lookUps(engine: Engine) async throws {
        try await LogPlace.with(engine) { place in
            let all = Self.threeGames(60)
            let versions = Set(all.map(\.gameID))
            let late = CommandRefusal(
                gameID: "g1", origin: CommandOrigin(clientID: "k9", commandID: "refused"), at: Timestamp(milliseconds: 205),
                error: CourtsideError(.gameFinished, "game g1 has ended"))
            let log = try place.open()
            for batch in stride(from: 0, to: all.count, by: 7) {
                try log.append(Array(all[batch..<min(batch + 7, all.count)]), refusals: batch == 14 ? [late] : [])
            }
            for game in versions {
                #expect(try await log.events(ofGame: game) == all.filter { $0.gameID == game })
                #expect(try log.readEvents(ofGame: game) == all.filter { $0.gameID == game })
            }
            #expect(try await log.events(ofGame: "nobody").isEmpty)
            for event in all where event.sequence % 11 == 0 || event.sequence == 60 {
                #expect(try await log.contains(event.origin))
            }
            #expect(try await log.contains(late.origin))
            #expect(try await !log.contains(CommandOrigin(clientID: "k1", commandID: "never")))
            // The same command id from another client is another command.
            #expect(try await !log.contains(CommandOrigin(clientID: "k2", commandID: "c1")))
            #expect(try log.readEvents(after: 55) == Array(all[55...]))
            #expect(try log.readEvents(after: 60).isEmpty)
            // Every answer, the refusal among the events by its time, as any log gives them.
            var answers: [LoggedAnswer] = []
            try log.forEachAnswer { answers.append($0) }
            var expected: [LoggedAnswer] = []
            var events = all.makeIterator()
            try LoggedAnswer.merge(nextEvent: { events.next().map(LoggedAnswer.init) }, refusals: [late]) { expected.append($0) }
            #expect(answers == expected)
            #expect(answers.count == 61)
            try log.close()
        }
    }
}
