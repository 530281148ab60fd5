public import CourtsidePostgres
public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// For tests (the log's, the daemon's): a throwaway PostgreSQL 15 cluster in a temporary directory, listening on 127.0.0.1 on a port
/// of its own: made with `initdb`, started and stopped with `pg_ctl`, removed at the end.
///
/// PostgreSQL refuses to run as root, so a test run as root (as CI is) runs the server's
/// commands as the `postgres` user that Debian's package creates. `scripts/setup.sh` installs it.
public final class TestPostgresServer {
    static let binaries = "/usr/lib/postgresql/15/bin"
    /// Whether PostgreSQL 15 is installed: the tests that need it are skipped when it is not.
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: binaries + "/initdb") }
    public static let notInstalled = "PostgreSQL 15 is not installed (scripts/setup.sh installs Debian's postgresql)"

    public let directory: URL
    var data: URL { directory.appendingPathComponent("data") }
    public private(set) var port = 0
    private var running = false

    /// Makes a new cluster and starts it. The caller must ``stop()`` it: see ``with(_:)``.
    public init() throws {
        directory = URL(fileURLWithPath: "/tmp/courtside-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            if getuid() == 0 {
                try FileManager.default.setAttributes(
                    [.ownerAccountName: "postgres", .groupOwnerAccountName: "postgres"], ofItemAtPath: directory.path)
            }
            try Self.run(
                "initdb", ["-D", data.path, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"],
                log: directory)
            // A port taken since we looked (another test's server) fails the start: try another.
            var attempts = 0
            while true {
                port = Self.freePort()
                do {
                    try Self.run(
                        "pg_ctl",
                        [
                            "-D", data.path, "-l", directory.appendingPathComponent("server.log").path, "-w", "-o",
                            "-p \(port) -k \(directory.path) -c listen_addresses=127.0.0.1", "start",
                        ], log: directory)
                    break
                } catch  where attempts < 4 {
                    attempts += 1
                }
            }
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
        (try? Self.run(
            "psql", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-v", "ON_ERROR_STOP=1", "-c", sql], log: directory))
            != nil
    }

    /// Stops the server (fast: open connections are ended) and removes its directory.
    public func stop() {
        if running {
            try? Self.run("pg_ctl", ["-D", data.path, "-m", "fast", "-w", "stop"], log: directory)
            running = false
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }

    private struct CommandFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs one of PostgreSQL's programs, as `postgres` when we are root; its output goes to a
    /// file in `log` (a pipe would be held open by the server that pg_ctl leaves running).
    ///
    /// posix_spawn and waitpid rather than Foundation's `Process`: its `waitUntilExit` never
    /// returned here once the tests held every thread of the cooperative pool (children left
    /// defunct, unreaped).
    private static func run(_ program: String, _ arguments: [String], log: URL) throws {
        let output = log.appendingPathComponent("commands.log").path
        // In the server's own directory: `postgres` may not read the directory the tests run in.
        let program = ["/usr/bin/env", "--chdir=\(log.path)", "\(binaries)/\(program)"] + arguments
        let command = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + program : program
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw CommandFailed(description: "\(command[0]) could not be started: \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // Exited normally (no signal) with status 0.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            let said = (try? String(contentsOfFile: output, encoding: .utf8))?.suffix(2_000) ?? ""
            throw CommandFailed(description: "\(program.joined(separator: " ")) failed (wait status \(status)): \(said)")
        }
    }

    /// A loopback port that nothing listens on just now: the kernel's pick for a socket bound to port 0.
    public static func freePort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else { return Int.random(in: 20_000..<60_000) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
