import CourtsidePostgres
import CourtsidePostgresTesting
import Foundation

/// Where the daemons a benchmark starts keep their event log: SQLite in each daemon's data
/// directory (nothing to start), or PostgreSQL on a throwaway server (or a primary with its
/// synchronous standby) that this starts and ``stop()`` stops, with a new database for each log.
final class BenchStorage {
    enum Kind: String, CaseIterable {
        case sqlite, postgresql
        case postgresqlPair = "postgresql-pair"
    }

    let kind: Kind
    private let server: (any BenchPostgresServer)?
    private let cleanup: Int?
    private var databases = 0

    /// Starts the PostgreSQL server or pair; nothing for `.sqlite`.
    init(_ kind: Kind) throws {
        self.kind = kind
        let server: (any BenchPostgresServer)?
        switch kind {
        case .sqlite: server = nil
        case .postgresql:
            guard TestPostgresServer.isInstalled else { throw BenchError(TestPostgresServer.notInstalled) }
            server = try TestPostgresServer()
        case .postgresqlPair:
            guard TestPostgresServer.isInstalled else { throw BenchError(TestPostgresServer.notInstalled) }
            server = try TestPostgresPair()
        }
        self.server = server
        let box = UncheckedBox(server)
        cleanup = server.map { _ in ChildCleanup.add { box.value?.stop() } }
    }

    /// Whether the daemons share a database, so that one can take over from another.
    var isPostgres: Bool { server != nil }

    /// A new, empty event log, as the `storage` section of the config of the daemons that share
    /// it: on PostgreSQL a new database, so that no run replays another's events or inherits its
    /// lease's term; empty for SQLite, which each daemon keeps in its own data directory. `lease`
    /// is the daemons' `lease_ms` (nil: theirs).
    func newLogConfig(leaseMilliseconds lease: Int? = nil) throws -> String {
        guard let database = try newDatabase() else { return "" }
        let hosts = database.hosts.map { "\"\($0.host):\($0.port)\"" }.joined(separator: ", ")
        return """
            storage:
              postgresql:
                hosts: [\(hosts)]
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
            throw BenchError("could not create the database \(name) on \(kind.rawValue)")
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
