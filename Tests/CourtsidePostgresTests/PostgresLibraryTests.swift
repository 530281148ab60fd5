import CourtsideLibrary
import CourtsideModel
import CourtsidePostgresTesting
import CourtsideStorage
import CourtsideStorageTesting
import Foundation
import Logging
import Synchronization
import Testing

@testable import CourtsidePostgres

/// A clock the test moves by hand.
final class ManualClock: TimeSource {
    private let current = Mutex(Timestamp(milliseconds: 1_700_000_000_000))
    func now() -> Timestamp { current.withLock { $0 } }
    func advance(seconds: Double) { current.withLock { $0 = $0.adding(milliseconds: Int64(seconds * 1000)) } }
}

@Suite(
    "The game library on the PostgreSQL log", .enabled(if: TestPostgresServer.isInstalled, "\(TestPostgresServer.notInstalled)"))
struct PostgresLibraryTests {
    static func setup(_ id: String) -> GameSetup {
        func team(_ side: String) -> Team {
            Team(
                id: TeamID("\(id)-\(side)"), name: "\(side.capitalized) of \(id)",
                players: (1...3).map { Player(id: PlayerID("\(id)-\(side)\($0)"), name: "Player \($0)") })
        }
        return GameSetup(id: GameID(id), home: team("home"), away: team("away"), rules: RuleSet(timeLimit: .minutes(10)))
    }

    static func origin(_ client: String = "keeper", _ command: String = UUID().uuidString) -> CommandOrigin {
        CommandOrigin(clientID: client, commandID: command)
    }

    @Test("play, close, reopen: identical state and numbering, and a retry answered as before")
    func reopen() async throws {
        try await TestPostgresServer.with { server in
            let clock = ManualClock()
            func open() throws -> GameLibrary {
                try GameLibrary(
                    log: PostgresEventLog(configuration: server.configuration, logger: LogPlace.logger, pageSize: 5),
                    clock: clock,
                    logger: LogPlace.logger)
            }
            var library = try open()
            for game in ["g1", "g2"] {
                try await library.createGame(Self.setup(game), origin: Self.origin())
                try await library.apply(.startClock, to: GameID(game), origin: Self.origin())
            }
            let basket = Self.origin("keeper-1", "42")
            var first: Receipt?
            for index in 0..<30 {
                let game = ["g1", "g2"][index % 2]
                clock.advance(seconds: 0.5)
                let move: MoveKind = [.assist, .rebound, .foul, .onePoint, .twoPoints][index % 5]
                let receipt = try await library.apply(
                    .move(player: PlayerID("\(game)-\(index % 3 == 0 ? "away" : "home")1"), move: move), to: GameID(game),
                    origin: index == 3 ? basket : Self.origin())
                if index == 3 { first = receipt }
            }
            try await library.retract(version: 5, in: "g1", origin: Self.origin())
            try await library.apply(.pauseClock, to: "g2", origin: Self.origin())
            // A refusal is logged too.
            let pause = Self.origin("keeper-1", "43")
            await #expect(throws: CourtsideError.self) { try await library.apply(.pauseClock, to: "g2", origin: pause) }
            let before = library.snapshot()
            await library.close()

            // Closing wrote a checkpoint of every game at the last event.
            let log = try PostgresEventLog(configuration: server.configuration, logger: LogPlace.logger)
            let checkpoint = try #require(try log.readCheckpoint())
            #expect(checkpoint.sequence == before.sequence)
            #expect(checkpoint.games.sorted { $0.id < $1.id } == before.value.sorted { $0.id < $1.id })
            try log.close()

            library = try open()
            #expect(library.snapshot() == before)
            // Numbering continues with no gap.
            let next = try await library.apply(.startClock, to: "g2", origin: Self.origin())
            #expect(next.sequence == before.sequence + 1)
            #expect(next.version == before.value.first { $0.id == "g2" }!.version + 1)
            // Retries are answered from the log: the move as it was, the refusal still a refusal.
            let again = try await library.apply(.move(player: "g2-away1", move: .onePoint), to: "g2", origin: basket)
            #expect(again == first)
            await #expect(throws: CourtsideError.self) { try await library.apply(.pauseClock, to: "g2", origin: pause) }
            #expect(try library.snapshot(of: "g2").value.clock.isRunning)
            await library.close()
        }
    }
}

@Suite("Reaching the PostgreSQL log", .enabled(if: TestPostgresServer.isInstalled, "\(TestPostgresServer.notInstalled)"))
struct PostgresConnectionTests {
    @Test("the first host that answers is used; none answering is an error that names them")
    func hosts() async throws {
        try await TestPostgresServer.with { server in
            let deadPort = TestPostgresServer.freePort()
            var configuration = server.configuration
            configuration.hosts.insert(.init("127.0.0.1", port: deadPort), at: 0)
            let log = try PostgresEventLog(configuration: configuration, logger: LogPlace.logger)
            try log.append(LogFixtures.events(1...2), refusals: [])
            #expect(try log.readAll() == LogFixtures.events(1...2))
            try log.close()
            configuration.hosts.removeLast()
            let error = #expect(throws: PostgresEventLogError.self) {
                try PostgresEventLog(configuration: configuration, logger: LogPlace.logger)
            }
            #expect(error?.description.contains("127.0.0.1:\(deadPort)") == true)
        }
    }

    @Test("the writer's commits wait for the flush, whatever the database's default")
    func synchronousCommit() async throws {
        try await TestPostgresServer.with { server in
            #expect(server.psql("ALTER DATABASE postgres SET synchronous_commit = off"))
            let log = try PostgresEventLog(configuration: server.configuration, logger: LogPlace.logger)
            #expect(try log.synchronousCommit() == "on")
            try log.close()
        }
    }

    @Test("opening again applies no step twice; a schema newer than this build is refused, not used")
    func schemaVersions() async throws {
        try await TestPostgresServer.with { server in
            try PostgresEventLog(configuration: server.configuration, logger: LogPlace.logger).close()
            try PostgresEventLog(configuration: server.configuration, logger: LogPlace.logger).close()
            #expect(server.psql("UPDATE schema_version SET version = 99"))
            let error = #expect(throws: PostgresEventLogError.self) {
                try PostgresEventLog(configuration: server.configuration, logger: LogPlace.logger)
            }
            #expect(error?.codeString == "newer_schema")
        }
    }

    @Test("the password is read from its file, without the trailing newline; a missing file is an error")
    func passwordFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("courtside-pw-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("s3cret word\n".utf8).write(to: URL(fileURLWithPath: path))
        var configuration = PostgresLogConfiguration(
            hosts: [.init("127.0.0.1")], database: "courtside", user: "courtside", passwordFile: path)
        #expect(try configuration.password() == "s3cret word")
        configuration.passwordFile = path + ".missing"
        #expect(throws: PostgresEventLogError.self) { try configuration.password() }
        configuration.passwordFile = nil
        #expect(try configuration.password() == nil)
    }
}
