import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// PostgreSQL's programs as the test servers run them (``TestPostgresServer``, ``TestPostgresPair``):
/// as the `postgres` user when we are root, in a temporary directory that user owns, on free
/// loopback ports.
enum PostgresPrograms {
    static let binaries = "/usr/lib/postgresql/15/bin"

    struct CommandFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// A new directory under /tmp, owned by `postgres` when we are root (the servers write in it).
    static func makeDirectory() throws -> URL {
        let directory = URL(fileURLWithPath: "/tmp/courtside-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if getuid() == 0 {
            try FileManager.default.setAttributes(
                [.ownerAccountName: "postgres", .groupOwnerAccountName: "postgres"], ofItemAtPath: directory.path)
        }
        return directory
    }

    /// A new cluster in `data`, trusting every local connection (loopback tests only).
    static func initdb(_ data: URL, in directory: URL) throws {
        try run(
            "initdb", ["-D", data.path, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"], in: directory)
    }

    /// Starts the cluster in `data` on 127.0.0.1:`port` (its socket in `directory`) and waits until it answers.
    static func start(_ data: URL, port: Int, in directory: URL, log: String = "server.log") throws {
        try run(
            "pg_ctl",
            [
                "-D", data.path, "-l", directory.appendingPathComponent(log).path, "-w", "-o",
                "-p \(port) -k \(directory.path) -c listen_addresses=127.0.0.1", "start",
            ], in: directory)
    }

    /// Starts the cluster in `data` on a free port, and returns it. A port taken since we looked
    /// (another test's server) fails the start: then it tries another.
    static func startOnFreePort(_ data: URL, in directory: URL, log: String = "server.log") throws -> Int {
        var attempts = 0
        while true {
            let port = freePort()
            do {
                try start(data, port: port, in: directory, log: log)
                return port
            } catch  where attempts < 4 {
                attempts += 1
            }
        }
    }

    /// Stops the cluster in `data` (fast: open connections are ended) and waits until it has.
    static func stop(_ data: URL, in directory: URL) throws {
        try run("pg_ctl", ["-D", data.path, "-m", "fast", "-w", "stop"], in: directory)
    }

    /// The rows `sql` returns at 127.0.0.1:`port`, unaligned, one per line, columns split by `|`.
    static func query(_ sql: String, port: Int, in directory: URL) throws -> String {
        let output = directory.appendingPathComponent("query-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: output) }
        try run(
            "psql", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "postgres", "-v", "ON_ERROR_STOP=1", "-Atq", "-c", sql],
            in: directory, output: output)
        return try String(contentsOf: output, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs one of PostgreSQL's programs, as `postgres` when we are root, from `directory` (that
    /// user may not read the one the tests run in); its output goes to `output`, by default
    /// `commands.log` there (a pipe would be held open by the server that pg_ctl leaves running).
    ///
    /// posix_spawn and waitpid rather than Foundation's `Process`: its `waitUntilExit` never
    /// returned here once the tests held every thread of the cooperative pool (children left
    /// defunct, unreaped).
    static func run(_ program: String, _ arguments: [String], in directory: URL, output: URL? = nil) throws {
        let output = (output ?? directory.appendingPathComponent("commands.log")).path
        let program = ["/usr/bin/env", "--chdir=\(directory.path)", "\(binaries)/\(program)"] + arguments
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

    /// The ports handed out in this process: the kernel may pick a port it picked moments ago
    /// once its socket closed, and two endpoints of one daemon on the same port is a config error.
    private static let handedOut = Mutex<Set<Int>>([])

    /// A loopback port that nothing listens on just now and that this process has not handed out
    /// before: the kernel's pick for a socket bound to port 0.
    static func freePort() -> Int {
        for _ in 0..<100 {
            let port = kernelsPick()
            if handedOut.withLock({ $0.insert(port).inserted }) { return port }
        }
        return kernelsPick()
    }

    private static func kernelsPick() -> Int {
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
