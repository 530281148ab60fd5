public import CourtsidePostgres
public import Foundation

/// For tests (the log's, the daemon's): a throwaway PostgreSQL 15 cluster in a temporary directory, listening on 127.0.0.1 on a port
/// of its own: made with `initdb`, started and stopped with `pg_ctl`, removed at the end.
///
/// PostgreSQL refuses to run as root, so a test run as root (as CI is) runs the server's
/// commands as the `postgres` user that Debian's package creates. `scripts/setup.sh` installs it.
public final class TestPostgresServer {
    /// Whether PostgreSQL 15 is installed: the tests that need it are skipped when it is not.
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: PostgresPrograms.binaries + "/initdb") }
    public static let notInstalled = "PostgreSQL 15 is not installed (scripts/setup.sh installs Debian's postgresql)"

    public let directory: URL
    var data: URL { directory.appendingPathComponent("data") }
    public private(set) var port = 0
    private var running = false

    /// Makes a new cluster and starts it. The caller must ``stop()`` it: see ``with(_:)``.
    public init() throws {
        directory = try PostgresPrograms.makeDirectory()
        do {
            try PostgresPrograms.initdb(data, in: directory)
            port = try PostgresPrograms.startOnFreePort(data, in: directory)
            running = true
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Runs `body` with a new server, stopped and removed afterwards whatever happens.
    public static func with<T>(_ body: (TestPostgresServer) async throws -> T) async throws -> T {
        let server = try TestPostgresServer()
        defer { server.stop() }
        return try await body(server)
    }

    /// How the log reaches this server's `postgres` database.
    public var configuration: PostgresLogConfiguration {
        PostgresLogConfiguration(hosts: [.init("127.0.0.1", port: port)], database: "postgres", user: "postgres")
    }

    /// Runs `sql` with psql, as an operator would; returns whether it succeeded.
    public func psql(_ sql: String) -> Bool {
        (try? PostgresPrograms.run(
            "psql", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-v", "ON_ERROR_STOP=1", "-c", sql],
            in: directory)) != nil
    }

    /// Stops the server (fast: open connections are ended) and removes its directory.
    public func stop() {
        if running {
            try? PostgresPrograms.stop(data, in: directory)
            running = false
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }

    /// A loopback port that nothing listens on just now: the kernel's pick for a socket bound to port 0.
    public static func freePort() -> Int { PostgresPrograms.freePort() }
}
