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
    private var databases = 0

    /// Starts the PostgreSQL server for `.postgresql`; nothing for `.sqlite`.
    init(_ kind: Kind) throws {
        self.kind = kind
        switch kind {
        case .sqlite: server = nil
        case .postgresql:
            guard TestPostgresServer.isInstalled else { throw BenchError(TestPostgresServer.notInstalled) }
            server = try TestPostgresServer()
        }
    }

    /// A new, empty event log: on PostgreSQL a new database, so that no run replays another's
    /// events or inherits its lease's term. `lease` is the daemons' `lease_ms` (nil: theirs).
    func newLog(leaseMilliseconds lease: Int? = nil) throws -> BenchLog {
        guard let server else { return BenchLog(config: "", database: nil) }
        databases += 1
        let name = "bench\(databases)"
        guard server.psql("CREATE DATABASE \(name)") else {
            throw BenchError("could not create the database \(name) (see \(server.directory.path)/commands.log)")
        }
        var database = server.configuration
        database.database = name
        let host = database.hosts[0]
        return BenchLog(
            config: """
                storage:
                  postgresql:
                    hosts: ["\(host.host):\(host.port)"]
                    database: \(name)
                    user: \(database.user)
                \(lease.map { "    lease_ms: \($0)\n" } ?? "")
                """, database: database)
    }

    /// Stops and removes the PostgreSQL server, if there is one.
    func stop() { server?.stop() }
}

/// One empty event log: the `storage` section of the config of the daemons that share it
/// (empty for SQLite, which each daemon keeps in its own data directory) and, on PostgreSQL,
/// how to reach its database.
struct BenchLog {
    var config: String
    var database: PostgresLogConfiguration?
}
