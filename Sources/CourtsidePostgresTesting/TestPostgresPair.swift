public import CourtsidePostgres
public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// For tests of failover: a throwaway PostgreSQL 15 primary and one streaming standby on
/// loopback, in a temporary directory, as `scripts/postgres-pair.sh` makes them.
///
/// Synchronous by default: the primary waits for the standby (`synchronous_standby_names`) once
/// it streams, and the standby names the primary, so that once promoted it too waits for a
/// standby rather than commit alone. ``init(asynchronous:)`` with `true` is the control: no
/// node waits for another. The servers run as `postgres` when we are root, like
/// ``TestPostgresServer``'s; ``stop()`` (or ``with(asynchronous:_:)``) stops them and removes
/// everything.
public final class TestPostgresPair {
    /// The two nodes, named for the role each starts with.
    public enum Node: String, Sendable {
        case primary
        case standby
    }

    public let directory: URL
    /// Whether commits wait for the other node (false for the control).
    public let synchronous: Bool
    public private(set) var primaryPort = 0
    public private(set) var standbyPort = 0
    private var running: Set<Node> = []

    /// Makes both nodes and starts them; returns once the standby streams (and, when
    /// synchronous, once the primary waits for it). The caller must ``stop()`` the pair.
    public init(asynchronous: Bool = false) throws {
        synchronous = !asynchronous
        directory = try PostgresPrograms.makeDirectory()
        do {
            try startPrimary()
            try startStandby(first: true)
            try waitFor(
                "SELECT state FROM pg_stat_replication WHERE application_name = 'standby'", on: .primary, toBe: "streaming")
            // Only now: set before the standby streams, every commit would wait for it.
            if synchronous {
                _ = try query("ALTER SYSTEM SET synchronous_standby_names = 'standby'", on: .primary)
                _ = try query("SELECT pg_reload_conf()", on: .primary)
                try waitFor(
                    "SELECT sync_state FROM pg_stat_replication WHERE application_name = 'standby'", on: .primary, toBe: "sync")
            }
        } catch {
            stop()
            throw error
        }
    }

    /// Runs `body` with a new pair, stopped and removed afterwards whatever happens.
    public static func with<T>(asynchronous: Bool = false, _ body: (TestPostgresPair) async throws -> T) async throws -> T {
        let pair = try TestPostgresPair(asynchronous: asynchronous)
        defer { pair.stop() }
        return try await body(pair)
    }

    /// How the log reaches the pair's `postgres` database: the primary first, then the standby.
    public var configuration: PostgresLogConfiguration {
        PostgresLogConfiguration(
            hosts: [.init("127.0.0.1", port: primaryPort), .init("127.0.0.1", port: standbyPort)], database: "postgres",
            user: "postgres")
    }

    func data(_ node: Node) -> URL { directory.appendingPathComponent(node.rawValue) }

    func port(_ node: Node) -> Int { node == .primary ? primaryPort : standbyPort }

    private func startPrimary() throws {
        try PostgresPrograms.initdb(data(.primary), in: directory)
        // initdb's pg_hba.conf already trusts replication from 127.0.0.1 (--auth=trust).
        try append(
            """
            wal_level = replica
            max_wal_senders = 4
            hot_standby = on
            synchronous_commit = on
            cluster_name = 'primary'
            """, toConfigurationOf: .primary)
        primaryPort = try PostgresPrograms.startOnFreePort(data(.primary), in: directory, log: "primary.log")
        running.insert(.primary)
    }

    /// Starts the standby; the first time, makes it from a base backup of the primary.
    private func startStandby(first: Bool) throws {
        if first {
            try makeStandby(.standby, of: .primary)
            standbyPort = try PostgresPrograms.startOnFreePort(data(.standby), in: directory, log: "standby.log")
        } else {
            try PostgresPrograms.start(data(.standby), port: standbyPort, in: directory, log: "standby.log")
        }
        running.insert(.standby)
    }

    /// Makes `node` from a base backup of `source`, streaming from it under `node`'s name (the
    /// one `source` waits for). It names `source` in turn: once promoted, it waits for `source`
    /// (rebuilt as its standby) rather than commit alone.
    private func makeStandby(_ node: Node, of source: Node) throws {
        try PostgresPrograms.run(
            "pg_basebackup",
            [
                "-h", "127.0.0.1", "-p", "\(port(source))", "-U", "postgres", "-D", data(node).path, "-R", "-X", "stream",
                "--checkpoint=fast", "--no-sync", "-d", "application_name=\(node.rawValue)",
            ], in: directory)
        try append(
            """
            cluster_name = '\(node.rawValue)'
            synchronous_standby_names = '\(synchronous ? source.rawValue : "")'
            """, toConfigurationOf: node)
    }

    private func append(_ settings: String, toConfigurationOf node: Node) throws {
        let file = try FileHandle(forWritingTo: data(node).appendingPathComponent("postgresql.conf"))
        defer { try? file.close() }
        try file.seekToEnd()
        try file.write(contentsOf: Data("\n\(settings)\n".utf8))
    }

    /// The rows `sql` returns on `node`, as psql prints them unaligned (`|` between columns).
    public func query(_ sql: String, on node: Node) throws -> String {
        try PostgresPrograms.query(sql, port: port(node), in: directory)
    }

    /// Waits (up to `timeout` seconds) until `sql` on `node` returns `expected`.
    public func waitFor(_ sql: String, on node: Node, toBe expected: String, timeout: Double = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = (try? query(sql, on: node)) ?? "(no answer)"
            if last == expected { return }
            usleep(50_000)
        }
        throw PostgresPrograms.CommandFailed(
            description: "\(sql) on the \(node.rawValue) was \(last), not \(expected), for \(timeout) s")
    }

    /// Waits until the standby has replayed everything the primary has flushed so far.
    public func waitForStandbyToCatchUp() throws {
        let flushed = try query("SELECT pg_current_wal_flush_lsn()", on: .primary)
        try waitFor("SELECT pg_last_wal_replay_lsn() >= '\(flushed)'::pg_lsn", on: .standby, toBe: "t")
    }

    /// Kills the primary as a lost machine would: `kill -9` of the postmaster and every child of
    /// it (its backends would otherwise go on serving the connections they have).
    public func killPrimary() throws {
        let pidFile = data(.primary).appendingPathComponent("postmaster.pid")
        guard let first = try String(contentsOf: pidFile, encoding: .utf8).split(separator: "\n").first,
            let postmaster = pid_t(first.trimmingCharacters(in: .whitespaces))
        else { throw PostgresPrograms.CommandFailed(description: "no postmaster pid in \(pidFile.path)") }
        // Stopped first, it starts no child between our look and our kill.
        kill(postmaster, SIGSTOP)
        for child in Self.children(of: postmaster) { kill(child, SIGKILL) }
        kill(postmaster, SIGKILL)
        running.remove(.primary)
        // Its sockets close as it dies; it may linger a while as a zombie until init reaps it.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, Self.isAlive(postmaster) { usleep(10_000) }
        // Its Unix socket's lock file stays, naming its pid: PostgreSQL takes that zombie for a
        // running server and would refuse to start on the port again (a rebuilt machine has none).
        for name in [".s.PGSQL.\(primaryPort)", ".s.PGSQL.\(primaryPort).lock"] {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    /// Promotes the standby (`pg_ctl promote`), and waits until it takes writes. A synchronous
    /// pair's promoted node still waits for a standby of its own before a commit returns.
    public func promoteStandby() throws {
        try PostgresPrograms.run("pg_ctl", ["-D", data(.standby).path, "-w", "promote"], in: directory)
        try waitFor("SELECT pg_is_in_recovery()", on: .standby, toBe: "f")
    }

    /// Brings the lost primary back as the promoted node's standby, as a venue rebuilds a lost
    /// machine: a new base backup of the promoted node, streaming under the name that node waits
    /// for (`primary`), on the old primary's port. Returns once it streams (synchronously, when
    /// the pair is synchronous): commits waiting on the promoted node then return.
    public func rebuildPrimaryAsStandby() throws {
        if running.contains(.primary) { try PostgresPrograms.stop(data(.primary), in: directory) }
        running.remove(.primary)
        try FileManager.default.removeItem(at: data(.primary))
        try makeStandby(.primary, of: .standby)
        try PostgresPrograms.start(data(.primary), port: primaryPort, in: directory, log: "primary.log")
        running.insert(.primary)
        try waitFor(
            "SELECT \(synchronous ? "sync_state" : "state") FROM pg_stat_replication WHERE application_name = 'primary'",
            on: .standby, toBe: synchronous ? "sync" : "streaming")
    }

    /// Stops the standby (fast), as if its machine were down.
    public func stopStandby() throws {
        try PostgresPrograms.stop(data(.standby), in: directory)
        running.remove(.standby)
    }

    /// Starts the standby again on its port; it streams from the primary once it reaches it.
    public func startStandby() throws {
        try startStandby(first: false)
    }

    /// Stops whichever nodes run and removes the directory.
    public func stop() {
        for node in [Node.primary, .standby] where running.contains(node) {
            try? PostgresPrograms.stop(data(node), in: directory)
        }
        running = []
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }

    /// The processes whose parent is `parent`, from /proc.
    static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 2,
                pid_t(fields[1]) == parent
            else { return nil }
            return pid
        }
    }

    /// Whether `pid` runs: there, and not a zombie.
    static func isAlive(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        return stat.split(separator: ")").last?.split(separator: " ").first != "Z"
    }
}
