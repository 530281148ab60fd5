import CourtsidePostgres
import CourtsidePostgresTesting
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A PostgreSQL server a benchmark runs its logs on: a lone throwaway one, or a pair.
protocol BenchPostgresServer: AnyObject {
    /// How to reach its `postgres` database: every host, the primary first.
    var configuration: PostgresLogConfiguration { get }
    /// Runs `sql` with psql on the primary; returns whether it succeeded.
    func psql(_ sql: String) -> Bool
    /// Stops it and removes its files.
    func stop()
}

extension TestPostgresServer: BenchPostgresServer {}

/// A PostgreSQL 15 primary and its synchronous streaming standby on loopback, as a venue with a
/// second database machine runs them: each commit returns once the standby has it. Started by
/// the repository's `scripts/postgres-pair.sh` in a temporary directory (found beside this
/// source file: the bench must run from a build of this checkout).
final class PostgresPairServer: BenchPostgresServer {
    let directory: URL
    let primaryPort: Int
    let standbyPort: Int
    private let script: String
    private var started = false

    /// Where the pair will run; ``start()`` starts it.
    init() throws {
        script =
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "../../scripts/postgres-pair.sh"
            ).standardized.path
        guard FileManager.default.isExecutableFile(atPath: script) else {
            throw BenchError("postgresql-pair needs \(script), which this checkout does not have")
        }
        guard TestPostgresServer.isInstalled else { throw BenchError(TestPostgresServer.notInstalled) }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("courtside-bench-pair-\(UUID().uuidString)")
        let ports = freeLoopbackPorts(2)
        (primaryPort, standbyPort) = (ports[0], ports[1])
    }

    /// Starts both servers, and returns once the standby is synchronous.
    func start() throws {
        started = true
        try run([script, "start", directory.path, "\(primaryPort)", "\(standbyPort)"])
    }

    var configuration: PostgresLogConfiguration {
        PostgresLogConfiguration(
            hosts: [.init("127.0.0.1", port: primaryPort), .init("127.0.0.1", port: standbyPort)], database: "postgres",
            user: "postgres")
    }

    func psql(_ sql: String) -> Bool {
        (try? run([
            "/usr/sbin/runuser", "-u", "postgres", "--", "/usr/lib/postgresql/15/bin/psql", "-h", "127.0.0.1", "-p",
            "\(primaryPort)", "-U", "postgres", "-v", "ON_ERROR_STOP=1", "-c", sql,
        ])) != nil
    }

    func stop() {
        guard started else { return }
        started = false
        try? run([script, "stop", directory.path])
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.removeItem(atPath: logPath)
    }

    private var logPath: String { directory.path + ".log" }

    /// Runs a command through the shell's `system`, its output appended to a log beside the
    /// directory. Not Foundation's `Process`: it waits for a descriptor of its own to close,
    /// which the servers the script leaves running inherit and hold open.
    private func run(_ command: [String]) throws {
        let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let status = system("\(quoted) </dev/null >>'\(logPath)' 2>&1")
        // Exited normally (no signal) with status 0.
        guard status == 0 else {
            let said = (try? String(contentsOfFile: logPath, encoding: .utf8))?.suffix(1_000) ?? ""
            throw BenchError("\(command.prefix(3).joined(separator: " ")) failed (wait status \(status)): \(said)")
        }
    }
}
