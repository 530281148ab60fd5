import CourtsideClient
import CourtsideModel
import CourtsidePostgresTesting
import CourtsideProtocol
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// courtsided with its log on PostgreSQL (`storage.postgresql` in its config) over real sockets.
@Suite(
    "courtsided on PostgreSQL", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: TestPostgresServer.isInstalled, "\(TestPostgresServer.notInstalled)"))
struct PostgresStorageTests {
    @Test(
        "what was acknowledged before a kill -9 is there after the restart, a retry is the same answer, and no SQLite file is made"
    )
    func killAndRestart() throws {
        let server = try TestPostgresServer()
        defer { server.stop() }
        let database = server.configuration
        let password = FileManager.default.temporaryDirectory.appendingPathComponent("pg-\(UUID().uuidString).password")
        try "unused by a trust server\n".write(to: password, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: password) }
        let storage = """
            storage:
              postgresql:
                hosts: ["127.0.0.1:\(TestPostgresServer.freePort())", "\(database.hosts[0].host):\(database.hosts[0].port)"]
                database: \(database.database)
                user: \(database.user)
                password_file: \(password.path)
                lease_ms: 10000

            """
        let daemon = try DaemonProcess(extraConfig: storage)
        #expect(daemon.notify.wait(containing: "active (term 1)", seconds: 10))
        #expect(daemon.log().contains("storage=postgresql://postgres@"), "\(daemon.log())")
        let keeper = try Keeper(daemon.commandEndpoint, clientID: "court-1")
        var last = Reply(commandID: nil, epoch: "")
        for _ in 0..<5 { last = try keeper.send(.move(game: "g1", player: "ann", move: .twoPoints)) }
        let origin = CommandOrigin(clientID: "court-1", commandID: "last-one")
        let final = try keeper.send(.move(game: "g1", player: "di", move: .onePoint), origin: origin)
        #expect(last.ok && final.ok)
        daemon.signal(SIGKILL)
        #expect(daemon.waitForExit(seconds: 10) != nil)
        try daemon.start()
        // Restarted in the same place, it takes its own lease back at once (a new term), rather
        // than wait out the 10 s one its killed run held.
        #expect(daemon.notify.wait(containing: "active (term 2)", seconds: 5), "waited out the lease")
        let after = try Keeper(daemon.commandEndpoint, clientID: "court-1")
        let g1 = try #require(try after.send(.snapshot(game: "g1")).snapshot?.first)
        #expect(g1.score == SideValues(home: 10, away: 1) && g1.version == final.version)
        #expect(try after.send(.move(game: "g1", player: "di", move: .onePoint), origin: origin).sequence == final.sequence)
        #expect(!FileManager.default.fileExists(atPath: daemon.directory.appendingPathComponent("data/courtside.sqlite").path))
    }

    @Test(
        "a storage section with a bad host, no database or an unreadable password file stops courtsided at start, naming the key")
    func badStorage() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courtsided-pgbad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases: [(String, String)] = [
            ("hosts: [\"db:99999\"]\n    database: d\n    user: u", "storage.postgresql.hosts.0"),
            ("hosts: []\n    database: d\n    user: u", "storage.postgresql.hosts"),
            ("hosts: [db]\n    database: d\n    user: u\n    password_file: nowhere.txt", "storage.postgresql.password_file"),
            ("hosts: [db]\n    database: d\n    user: u\n    tls: maybe", "storage.postgresql.tls"),
            ("hosts: [db]\n    database: d\n    user: u\n    pasword_file: x", "pasword_file"),
        ]
        for (section, key) in cases {
            let config = directory.appendingPathComponent("tournament.yaml")
            try """
            teams:
              - { id: a, name: A, players: [{id: p, name: P}] }
            storage:
              postgresql:
                \(section)
            """.write(to: config, atomically: true, encoding: .utf8)
            let (status, output) = try ChildProcess.run(
                DaemonProcess.executable.path, ["--config", config.path], mergeError: true)
            #expect(status == 78 && output.contains(key), "\(section): \(status) \(output)")
        }
    }
}
