import CourtsidePostgres
import CourtsideServer
import Foundation
import Testing

/// How courtside-admin's `--from`, `--to` and `--*-config` name a log.
@Suite("naming a log for courtside-admin")
struct LogLocationTests {
    @Test("sqlite:DIR and postgresql:// addresses, with hosts, ports, sslmode and a password file")
    func addresses() throws {
        #expect(try LogLocation.parse("sqlite:/var/lib/courtside") == .sqlite(directory: "/var/lib/courtside"))
        #expect(try LogLocation.parse("sqlite:data").description == "sqlite:data")
        let password = FileManager.default.temporaryDirectory.appendingPathComponent("pg-\(UUID().uuidString).password")
        try "secret\n".write(to: password, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: password) }
        let parsed = try LogLocation.parse(
            "postgresql://court%20side@db1,db2:5433/tournament?sslmode=require", passwordFile: password.path)
        #expect(
            parsed
                == .postgresql(
                    PostgresLogConfiguration(
                        hosts: [.init("db1"), .init("db2", port: 5433)], database: "tournament", user: "court side",
                        passwordFile: password.path, tls: .require)))
        // Said back without the password, as courtsided logs its storage.
        #expect(parsed.description == "postgresql://court side@db1:5432,db2:5433/tournament")
        #expect(try LogLocation.parse("postgres://u@h/d") == .postgresql(.init(hosts: [.init("h")], database: "d", user: "u")))
    }

    @Test(
        "a wrong address names its part",
        arguments: [
            ("mysql://u@h/d", "unknown_form"), ("sqlite:", "unknown_form"), ("/var/lib/courtside", "unknown_form"),
            ("postgresql://h/d", "name the user"), ("postgresql://u:pw@h/d", "password_in_address"),
            ("postgresql://u@h", "name the database"), ("postgresql://u@h:99999/d", "hosts.0"),
            ("postgresql://u@/d", "hosts name at least one server"), ("postgresql://u@h/", "database must not be empty"),
            ("postgresql://u@h/d?sslmode=maybe", "sslmode must be disable"), ("postgresql://u@h/d?user=x", "user=x is not"),
        ])
    func wrongAddresses(address: String, said: String) {
        #expect(throws: LogLocationError.self) { try LogLocation.parse(address) }
        do {
            _ = try LogLocation.parse(address)
        } catch {
            #expect(error.description.contains(said), "\(error)")
        }
    }

    @Test("an unreadable password file is named as --password-file")
    func unreadablePasswordFile() {
        #expect {
            try LogLocation.parse("postgresql://u@h/d", passwordFile: "/nonexistent/pg.password")
        } throws: { error in
            "\(error)".contains("--password-file /nonexistent/pg.password cannot be read")
        }
    }

    @Test("a config file gives its storage.postgresql, the password file beside it; one without the section is refused")
    func configFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courtside-loc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "secret\n".write(to: folder.appendingPathComponent("pg.password"), atomically: true, encoding: .utf8)
        let teams = "teams:\n  - { id: a, name: A, players: [{id: p, name: P}] }\n"
        let withStorage = folder.appendingPathComponent("postgres.yaml")
        try """
        \(teams)storage:
          postgresql:
            hosts: [db1, "db2:5433"]
            database: courtside
            user: courtside
            password_file: pg.password
            tls: prefer
        """.write(to: withStorage, atomically: true, encoding: .utf8)
        #expect(
            try LogLocation.postgresql(configFile: withStorage.path)
                == .postgresql(
                    PostgresLogConfiguration(
                        hosts: [.init("db1"), .init("db2", port: 5433)], database: "courtside", user: "courtside",
                        passwordFile: folder.appendingPathComponent("pg.password").path, tls: .prefer)))
        let sqlite = folder.appendingPathComponent("sqlite.yaml")
        try "\(teams)data_dir: /var/lib/courtside\n".write(to: sqlite, atomically: true, encoding: .utf8)
        #expect {
            try LogLocation.postgresql(configFile: sqlite.path)
        } throws: { error in
            (error as? LogLocationError)?.codeString == "no_postgresql"
        }
        #expect(throws: ConfigurationError.self) {
            try LogLocation.postgresql(configFile: folder.appendingPathComponent("none").path)
        }
    }
}
