import CourtsideModel
import CourtsidePostgres
import CourtsidePostgresTesting
import CourtsideStorage
import CourtsideStorageTesting
import Foundation
import Logging
import Testing

/// The built courtside-admin, run as an operator runs it: its arguments, its output, its exit status.
@Suite("courtside-admin copies and verifies logs", .timeLimit(.minutes(2)))
struct AdminLogCopyTests {
    /// The built courtside-admin, beside courtsided.
    static var executable: String {
        DaemonProcess.executable.deletingLastPathComponent().appendingPathComponent("courtside-admin").path
    }

    /// Runs courtside-admin with `arguments`: its status and what it said on both streams.
    static func admin(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        try ChildProcess.run(
            executable, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            mergeError: true)
    }

    /// A folder of its own, removed afterwards, with a SQLite log in `source` of two games and a refusal.
    static func withFolder(_ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courtside-admin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = try SQLiteEventLog(directory: folder.appendingPathComponent("source"))
        try log.append(LogFixtures.events(1...12), refusals: [LogFixtures.refusal])
        try log.close()
        try body(folder)
    }

    @Test("--help says to stop the daemons, names the three forms and gives examples")
    func help() throws {
        let (status, output) = try Self.admin(["copy", "--help"])
        #expect(status == 0)
        for words in ["Stop the daemons", "--to-config", "postgresql://", "sqlite:/var/lib/courtside", "--batch-size"] {
            #expect(output.contains(words), "\(words): \(output)")
        }
        let top = try Self.admin(["--help"])
        #expect(top.output.contains("copy") && top.output.contains("verify") && top.output.contains("Exit status"))
    }

    @Test("wrong arguments exit 64 naming the option; a log it cannot use exits 2 and writes nothing")
    func wrongArguments() throws {
        try Self.withFolder { folder in
            let source = "sqlite:" + folder.appendingPathComponent("source").path
            let target = folder.appendingPathComponent("target")
            let cases: [([String], Int32, String)] = [
                (["copy", "--to", "sqlite:x"], 64, "--from or --from-config"),
                (["copy", "--from", source, "--from-config", "c.yaml", "--to", "sqlite:x"], 64, "--from or --from-config"),
                (["copy", "--from", source, "--to", "sqlite:x", "--batch-size", "0"], 64, "--batch-size"),
                (["copy", "--from", source, "--to", "sqlite:x", "--password-file", "p"], 64, "--password-file is for"),
                (["copy", "--from", source, "--to", "mysql://u@h/d"], 2, "unknown_form"),
                (["copy", "--from", source, "--to", "postgresql://u:pw@h/d"], 2, "password_in_address"),
                (
                    ["copy", "--from", "sqlite:" + folder.appendingPathComponent("none").path, "--to", "sqlite:" + target.path],
                    2, "no_log"
                ),
                (["verify", "--from", source, "--to", "sqlite:" + target.path], 2, "no_log"),
                (["copy", "--from", source, "--to-config", folder.appendingPathComponent("none.yaml").path], 2, "none.yaml"),
            ]
            for (arguments, expected, said) in cases {
                let (status, output) = try Self.admin(arguments)
                #expect(status == expected && output.contains(said), "\(arguments): \(status) \(output)")
            }
            #expect(!FileManager.default.fileExists(atPath: target.path))
        }
    }

    @Test("SQLite to SQLite: copied and checked; again into the copy is refused; verify finds a changed log")
    func sqliteCopy() throws {
        try Self.withFolder { folder in
            let source = "sqlite:" + folder.appendingPathComponent("source").path
            let target = "sqlite:" + folder.appendingPathComponent("target").path
            var (status, output) = try Self.admin(["copy", "--from", source, "--to", target, "--batch-size", "5"])
            #expect(status == 0, "\(output)")
            #expect(
                output.contains("Copied 12 events (1 game) and 1 refusals") && output.contains("in 3 transactions"), "\(output)")
            #expect(output.contains("Checkpoints were not copied"))
            (status, output) = try Self.admin(["verify", "--from", source, "--to", target])
            #expect(status == 0 && output.contains("hold the same 12 events"), "\(output)")

            (status, output) = try Self.admin(["copy", "--from", source, "--to", target])
            #expect(status == 2 && output.contains("target_not_empty"), "\(output)")

            let other = folder.appendingPathComponent("other")
            let log = try SQLiteEventLog(directory: other)
            try log.append(LogFixtures.events(1...11), refusals: [LogFixtures.refusal])
            try log.close()
            (status, output) = try Self.admin(["verify", "--from", source, "--to", "sqlite:" + other.path])
            #expect(status == 1 && output.contains("event 12 is in the source only"), "\(output)")
        }
    }

    @Test(
        "SQLite into PostgreSQL by address and password file, back by a courtsided config; refused while a courtsided holds the lease",
        .enabled(if: TestPostgresServer.isInstalled, "\(TestPostgresServer.notInstalled)"))
    func throughPostgres() throws {
        let server = try TestPostgresServer()
        defer { server.stop() }
        try Self.withFolder { folder in
            let password = folder.appendingPathComponent("pg.password")
            try "unused by a trust server\n".write(to: password, atomically: true, encoding: .utf8)
            let database = server.configuration
            let address = "postgresql://\(database.user)@127.0.0.1:\(database.hosts[0].port)/\(database.database)"
            let source = "sqlite:" + folder.appendingPathComponent("source").path
            var (status, output) = try Self.admin(["copy", "--from", source, "--to", address, "--password-file", password.path])
            #expect(status == 0 && output.contains("Copied 12 events"), "\(output)")

            let config = folder.appendingPathComponent("tournament.yaml")
            try """
            teams:
              - { id: a, name: A, players: [{id: p, name: P}] }
            storage:
              postgresql:
                hosts: ["127.0.0.1:\(database.hosts[0].port)"]
                database: \(database.database)
                user: \(database.user)
                password_file: ${CREDENTIALS_DIRECTORY}/pg.password
            """.write(to: config, atomically: true, encoding: .utf8)
            // As under systemd's LoadCredential=: the operator names the folder the unit loads it from.
            let credentials = ["CREDENTIALS_DIRECTORY": folder.path]
            let back = folder.appendingPathComponent("back")
            (status, output) = try Self.admin(["copy", "--from-config", config.path, "--to", "sqlite:" + back.path])
            #expect(status == 2 && output.contains("CREDENTIALS_DIRECTORY"), "\(output)")
            (status, output) = try Self.admin(
                ["copy", "--from-config", config.path, "--to", "sqlite:" + back.path], environment: credentials)
            #expect(status == 0, "\(output)")
            let log = try SQLiteEventLog(directory: back)
            #expect(try log.readAll() == LogFixtures.events(1...12) && log.readRefusals() == [LogFixtures.refusal])
            try log.close()
            (status, output) = try Self.admin(["verify", "--from", source, "--to-config", config.path], environment: credentials)
            #expect(status == 0, "\(output)")

            // A courtsided active on the database (it holds the lease): nothing is read or written.
            let daemon = try PostgresEventLog(configuration: database, logger: Logger(label: "courtside.test"))
            defer { try? daemon.close() }
            let claim = LeaseClaim(holder: "court-a:5555", endpoint: "tcp://court-a:5555", duration: .seconds(10))
            guard case .acquired = try daemon.acquireLease(claim) else {
                Issue.record("the lease was not handed back")
                return
            }
            (status, output) = try Self.admin(["verify", "--from", source, "--to-config", config.path], environment: credentials)
            #expect(status == 2 && output.contains("daemon_active") && output.contains("tcp://court-a:5555"), "\(output)")
        }
    }
}
