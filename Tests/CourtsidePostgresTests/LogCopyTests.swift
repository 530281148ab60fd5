import CourtsideModel
import CourtsidePostgres
import CourtsidePostgresTesting
import CourtsideStorage
import CourtsideStorageTesting
import Foundation
import Testing

/// Moving a tournament: a log copied between engines, checked event by event (``EventLogCopy``).
@Suite("copying a log between engines")
struct LogCopyTests {
    /// Three games, the tournament's own stream, and refusals between them (and one after all):
    /// appended as a daemon would, a few at a time.
    static func tournament(into log: any EventLog) throws -> (events: [GameEvent], refusals: [CommandRefusal]) {
        var events = EventLogEngineTests.threeGames(23)
        events.append(
            GameEvent(
                gameID: .tournament, version: 1, sequence: 24, at: Timestamp(milliseconds: 240),
                origin: CommandOrigin(clientID: "organiser", commandID: "roster"),
                kind: .tournamentChanged(.playerAdded(team: "lions", player: Player(id: "dee", name: "Dee")), reason: "late")))
        let refusals = [15, 15, 95, 500].enumerated().map { index, time in
            CommandRefusal(
                gameID: GameID("g\(index % 3)"), origin: CommandOrigin(clientID: "k\(index)", commandID: "refused\(index)"),
                at: Timestamp(milliseconds: Int64(time)), error: CourtsideError(.gameFinished, "game g\(index % 3) has ended"))
        }
        try log.append(Array(events[0..<2]), refusals: [])
        try log.append(Array(events[2..<9]), refusals: Array(refusals[0..<2]))
        try log.append(Array(events[9...]), refusals: [refusals[2]])
        try log.append([], refusals: [refusals[3]])
        return (events, refusals)
    }

    /// Every answer the log gives, in the order the retry memory reads them.
    static func answers(_ log: any EventLog) throws -> [LoggedAnswer] {
        var answers: [LoggedAnswer] = []
        try log.forEachAnswer { answers.append($0) }
        return answers
    }

    static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("courtside-copy-\(UUID().uuidString)")
    }

    @Test(
        "SQLite into a new PostgreSQL database and back into a new directory: every event, refusal and answer the same",
        .enabled(if: TestPostgresServer.isInstalled, "\(TestPostgresServer.notInstalled)"))
    func roundTrip() async throws {
        let (first, back) = (Self.directory(), Self.directory())
        defer { for directory in [first, back] { try? FileManager.default.removeItem(at: directory) } }
        try await TestPostgresServer.with { server in
            // Closed whatever happens: a PostgreSQL log must be closed before it goes.
            let sqlite = try SQLiteEventLog(directory: first)
            defer { try? sqlite.close() }
            let (events, refusals) = try Self.tournament(into: sqlite)
            // A checkpoint is derived: it stays behind, and the copy is replayed instead.
            try sqlite.writeCheckpoint(sequence: 9, changed: LogFixtures.games(events.prefix(9)), complete: true, gameCount: 3)
            let postgres = try PostgresEventLog(configuration: server.configuration, logger: LogPlace.logger, pageSize: 5)
            defer { try? postgres.close() }
            var heard: [Int] = []
            // Batches of 4 events: the refusals ride in several of them.
            let report = try EventLogCopy.copy(from: sqlite, to: postgres, batchSize: 4) { copied, _ in heard.append(copied) }
            #expect(heard == [4, 8, 12, 16, 20, 24])
            #expect(
                report.events == 24 && report.refusals == 4 && report.games == 3 && report.tournamentStream
                    && report.batches == 6)
            #expect(try postgres.readAll() == events)
            #expect(try postgres.readRefusals() == refusals)
            #expect(try postgres.readCheckpoint() == nil)
            #expect(try await postgres.events(ofGame: .tournament) == [events[23]])

            let sqliteBack = try SQLiteEventLog(directory: back)
            defer { try? sqliteBack.close() }
            try EventLogCopy.copy(from: postgres, to: sqliteBack)
            for log in [postgres, sqliteBack] as [any EventLog] {
                #expect(try log.readAll() == events)
                #expect(try log.readRefusals() == refusals)
                #expect(try Self.answers(log) == Self.answers(sqlite))
                #expect(try EventLogCopy.verify(sqlite, against: log).events == 24)
            }
        }
    }

    @Test("a copy into a log that holds events, or refusals alone, is refused and writes nothing", arguments: Engine.available)
    func nonEmptyTarget(engine: Engine) async throws {
        let from = Self.directory()
        defer { try? FileManager.default.removeItem(at: from) }
        let source = try SQLiteEventLog(directory: from)
        _ = try Self.tournament(into: source)
        try await LogPlace.with(engine) { place in
            let target = try place.open()
            defer { try? target.close() }
            try target.append([], refusals: [LogFixtures.refusal])
            var refused = #expect(throws: EventLogCopyError.self) { try EventLogCopy.copy(from: source, to: target) }
            #expect(refused?.codeString == "target_not_empty" && refused?.message.contains("1 refusals") == true)
            #expect(try target.readAll().isEmpty && target.readRefusals() == [LogFixtures.refusal])

            try target.append(LogFixtures.events(1...3), refusals: [])
            refused = #expect(throws: EventLogCopyError.self) { try EventLogCopy.copy(from: source, to: target) }
            #expect(refused?.codeString == "target_not_empty" && refused?.message.contains("events") == true)
            #expect(try target.readAll() == LogFixtures.events(1...3) && target.readRefusals() == [LogFixtures.refusal])
        }
        try source.close()
    }

    @Test("verify names the first difference: the event's sequence and field, or the refusal's position")
    func verifyNamesTheDifference() throws {
        let (left, right) = (Self.directory(), Self.directory())
        defer { for directory in [left, right] { try? FileManager.default.removeItem(at: directory) } }
        let source = try SQLiteEventLog(directory: left)
        let (events, refusals) = try Self.tournament(into: source)
        var changed = events
        changed[6].at = Timestamp(milliseconds: 61)
        changed[9].origin.commandID = "other"
        let target = try SQLiteEventLog(directory: right)
        try target.append(changed, refusals: refusals)
        let error = #expect(throws: EventLogCopyError.self) { try EventLogCopy.verify(source, against: target) }
        #expect(error?.codeString == "logs_differ")
        #expect(
            error?.difference
                == EventLogDifference(place: .event(sequence: 7), field: .time, source: "70 ms", target: "61 ms"))
        #expect(error?.message.contains("event 7: time is 70 ms in the source, 61 ms in the target") == true)
        try source.close()
        try target.close()

        // The same, field by field, without a log.
        let first = EventLogDifference.first
        #expect(first(events, events, refusals, refusals) == nil)
        #expect(first(events, Array(events.dropLast()), refusals, refusals)?.description == "event 24 is in the source only")
        #expect(first(Array(events.prefix(3)), events, [], [])?.place == .event(sequence: 4))
        var kind = events
        kind[4].kind = .clockStarted
        #expect(first(events, kind, [], [])?.field == .kind)
        #expect(first(events, events, refusals, refusals.reversed())?.place == .refusal(position: 1))
        #expect(first(events, events, refusals, Array(refusals.prefix(3)))?.description == "refusal 4 is in the source only")
    }
}
