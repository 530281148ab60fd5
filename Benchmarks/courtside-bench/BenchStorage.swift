import CourtsidePostgres
import CourtsidePostgresTesting
import Foundation

/// Where the daemons a benchmark starts keep their event log: SQLite in each daemon's data
/// directory (nothing to start), or PostgreSQL on a throwaway server that this starts and
/// ``stop()`` stops, with a new database for each log.
final class BenchStorage {
    enum Kind: String, CaseIterable {
        case sqlite, postgresql
    }

    let kind: Kind
    private let server: TestPostgresServer?
    private let cleanup: Int?
    private var databases = 0

    /// Starts the PostgreSQL server for `.postgresql`; nothing for `.sqlite`.
    init(_ kind: Kind) throws {
        self.kind = kind
        switch kind {
        case .sqlite:
            server = nil
            cleanup = nil
        case .postgresql:
            guard TestPostgresServer.isInstalled else { throw BenchError(TestPostgresServer.notInstalled) }
            let server = try TestPostgresServer()
            let box = UncheckedBox(server)
            self.server = server
            cleanup = ChildCleanup.add { box.value.stop() }
        }
    }

    /// A new, empty event log, as the `storage` section of the config of the daemons that share
    /// it: on PostgreSQL a new database, so that no run replays another's events or inherits its
    /// lease's term; empty for SQLite, which each daemon keeps in its own data directory. `lease`
    /// is the daemons' `lease_ms` (nil: theirs).
    func newLogConfig(leaseMilliseconds lease: Int? = nil) throws -> String {
        guard let database = try newDatabase() else { return "" }
        let host = database.hosts[0]
        return """
            storage:
              postgresql:
                hosts: ["\(host.host):\(host.port)"]
                database: \(database.database)
                user: \(database.user)
            \(lease.map { "    lease_ms: \($0)\n" } ?? "")
            """
    }

    /// A new, empty database on the PostgreSQL server; nil for SQLite.
    func newDatabase() throws -> PostgresLogConfiguration? {
        guard let server else { return nil }
        databases += 1
        let name = "bench\(databases)"
        guard server.psql("CREATE DATABASE \(name)") else {
            throw BenchError("could not create the database \(name) (see \(server.directory.path)/commands.log)")
        }
        var database = server.configuration
        database.database = name
        return database
    }

    /// Stops and removes the PostgreSQL server, if there is one.
    func stop() {
        server?.stop()
        cleanup.map(ChildCleanup.remove)
    }
}
