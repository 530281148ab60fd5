import CourtsideModel
import CourtsidePostgresTesting
import CourtsideProtocol
import Foundation
import Testing
import ZeroMQ

#if canImport(Glibc)
    import Glibc
#endif

/// The real courtsided, started as a process on free loopback ports with its own data directory.
final class DaemonProcess {
    let directory: URL
    private(set) var commandEndpoint = ""
    private(set) var eventEndpoint = ""
    let notify: NotifyListener
    private(set) var process: ChildProcess?
    private let extraConfig: String
    private let transportConfig: [String]
    private let schedule: String
    /// A whole tournament (its name, teams and schedule, as `courtside tournament plan`
    /// writes it) in place of Test Cup's; nil for Test Cup.
    private let tournament: String?
    private let environment: [String: String]
    private let arguments: [String]
    /// The address the daemon binds; clients always connect through loopback.
    private let bindHost: String
    /// A command the daemon runs under (faketime, say), with its arguments.
    private let launcher: [String]

    /// The default games: two on two courts, no groups.
    static let twoGames = """
        games:
          - { id: g1, home: lions, away: tigers, court: Court 1 }
          - { id: g2, home: bears, away: wolves, court: Court 2 }
        """

    /// The built courtsided next to this test binary.
    static var executable: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("courtsided")
    }

    /// Starts the daemon and waits for its READY=1.
    init(
        extraConfig: String = "", transportConfig: [String] = [], schedule: String = DaemonProcess.twoGames,
        environment: [String: String] = [:], arguments: [String] = [], bindHost: String = "127.0.0.1",
        launcher: [String] = [], directory: URL? = nil, tournament: String? = nil
    ) throws {
        self.directory =
            directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("courtsided-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
        self.extraConfig = extraConfig
        self.transportConfig = transportConfig
        self.schedule = schedule
        self.tournament = tournament
        self.environment = environment
        self.arguments = arguments
        self.bindHost = bindHost
        self.launcher = launcher
        notify = try NotifyListener(path: self.directory.appendingPathComponent("notify.sock").path)
        // A port free a moment ago may be taken by a test running beside this one: try others.
        for attempt in 1...3 {
            commandEndpoint = "tcp://127.0.0.1:\(try freePort())"
            eventEndpoint = "tcp://127.0.0.1:\(try freePort())"
            do {
                try start()
                return
            } catch let error as DaemonError where error.portTaken && attempt < 3 {
                continue
            }
        }
    }

    var configPath: String { directory.appendingPathComponent("tournament.yaml").path }
    var logPath: String { directory.appendingPathComponent("courtsided.log").path }

    /// (Re)starts the process on the same ports and data, waiting for READY=1.
    func start() throws {
        // Test Cup: its name first, its four teams and `schedule` last; or else `tournament` whole.
        let name = tournament == nil ? "tournament: Test Cup\n" : ""
        let rest =
            tournament ?? """
                teams:
                  - { id: lions, name: Lions, players: [{id: ann, name: Ann}, {id: bo, name: Bo}, {id: cy, name: Cy}] }
                  - { id: tigers, name: Tigers, players: [{id: di, name: Di}, {id: ed, name: Ed}, {id: flo, name: Flo}] }
                  - { id: bears, name: Bears, players: [{id: gus, name: Gus}, {id: hal, name: Hal}, {id: ida, name: Ida}] }
                  - { id: wolves, name: Wolves, players: [{id: jo, name: Jo}, {id: kai, name: Kai}, {id: lu, name: Lu}] }
                \(schedule)
                """
        let config = """
            \(name)data_dir: \(directory.appendingPathComponent("data").path)
            endpoints:
              command: \(commandEndpoint.replacingOccurrences(of: "127.0.0.1", with: bindHost))
              events: \(eventEndpoint.replacingOccurrences(of: "127.0.0.1", with: bindHost))
            transport:
              heartbeat_ms: 200
            \(transportConfig.map { "  \($0)\n" }.joined())\(extraConfig)
            \(rest)
            """
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notify.path
        environment.merge(self.environment) { _, new in new }
        // A restart must wait for its own READY=1, not find the last run's.
        notify.forget()
        let command = launcher + [Self.executable.path, "--config", configPath, "--log-level", "info"] + arguments
        let process = try ChildProcess(
            command[0], Array(command.dropFirst()), environment: environment,
            output: .file(logPath), error: .file(logPath))
        self.process = process
        guard notify.wait(for: "READY=1", seconds: 30, while: { process.isRunning }) else {
            process.signal(SIGKILL)
            let log = log()
            throw DaemonError(
                "courtsided exited (status \(process.status.map(String.init) ?? "none: still running")) or sent no READY=1 within 30 s; log:\n\(log)",
                portTaken: log.contains("Address already in use"))
        }
    }

    /// The running daemon's process id.
    var processIdentifier: pid_t { process?.processIdentifier ?? 0 }

    /// The exit status once the daemon has ended (128 + signal when a signal ended it).
    var exitStatus: Int32? { process?.status }

    /// Whether the daemon still runs.
    var isRunning: Bool { process?.isRunning ?? false }

    /// The daemon's log so far.
    func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Signals the daemon; with a launcher (which forks, as faketime does), its whole process
    /// group, so that the daemon itself gets it.
    func signal(_ number: Int32) {
        guard let process else { return }
        if launcher.isEmpty { process.signal(number) } else { kill(-process.processIdentifier, number) }
    }

    /// Rewrites the config file through `edit` and sends SIGHUP, as an organiser reloading it.
    func reload(_ edit: (String) -> String) throws {
        let config = try String(contentsOfFile: configPath, encoding: .utf8)
        try edit(config).write(toFile: configPath, atomically: true, encoding: .utf8)
        signal(SIGHUP)
    }

    /// Waits for the process to exit; returns the seconds it took, or nil on timeout.
    func waitForExit(seconds: Double) -> Double? {
        let start = Date()
        guard process?.wait(seconds: seconds) != nil else { return nil }
        return Date().timeIntervalSince(start)
    }

    func stop() {
        guard let process, process.isRunning else { return }
        signal(SIGTERM)
        if process.wait(seconds: 5) == nil {
            signal(SIGKILL)
            process.wait(seconds: 5)
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

struct DaemonError: Error, CustomStringConvertible {
    var description: String
    /// The daemon could not bind: another process took a port.
    var portTaken = false
    init(_ description: String, portTaken: Bool = false) {
        self.description = description
        self.portTaken = portTaken
    }
}

/// A port that was free a moment ago (the kernel's pick, as the test servers' ports are).
func freePort() throws -> UInt16 { UInt16(TestPostgresServer.freePort()) }

/// A test's end of systemd's notify socket: a Unix datagram socket the daemon writes to.
final class NotifyListener {
    let path: String
    private let fd: Int32
    private(set) var received: [String] = []

    init(path: String) throws {
        self.path = path
        unlink(path)
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw DaemonError("cannot bind \(path)") }
        var timeout = timeval(tv_sec: 0, tv_usec: 50_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Drops what has arrived so far.
    func forget() { received = [] }

    /// Takes in every datagram that has arrived, waiting at most 50 ms (the socket's time-out)
    /// for one more.
    func receiveArrived() {
        while receiveOne() {}
    }

    /// Takes in one datagram, waiting at most 50 ms (the socket's time-out); false when none came.
    @discardableResult
    private func receiveOne() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return false }
        received.append(String(decoding: buffer.prefix(count), as: UTF8.self))
        return true
    }

    /// Waits until a datagram with this line arrives (or has arrived), giving up early once
    /// `alive` turns false.
    func wait(for line: String, seconds: Double, while alive: () -> Bool = { true }) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, alive() {
            if received.contains(where: { $0.split(separator: "\n").contains(Substring(line)) }) { return true }
            receiveOne()
        }
        return received.contains { $0.split(separator: "\n").contains(Substring(line)) }
    }

    /// Waits until a line containing `text` arrives (or has arrived): for a STATUS= line.
    func wait(containing text: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if received.contains(where: { $0.contains(text) }) { return true }
            receiveOne()
        }
        return received.contains { $0.contains(text) }
    }

    /// Waits until `count` datagrams containing `text` have arrived; returns those that have.
    func wait(count: Int, containing text: String, seconds: Double) -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        var matching: [String] { received.filter { $0.contains(text) } }
        while Date() < deadline, matching.count < count {
            receiveOne()
        }
        return matching
    }

    deinit {
        close(fd)
        unlink(path)
    }
}
