import CourtsideModel
import CourtsideProtocol
import Foundation
import ZeroMQ

#if canImport(Glibc)
    import Glibc
#endif

/// The teams and games of a benchmark's config: game gN is team t(2N) against t(2N+1), each
/// team with one player pN of the same number.
func benchRoster(games: Int) -> String {
    var text = "teams:\n"
    for team in 0..<games * 2 { text += "  - { id: t\(team), name: T\(team), players: [{id: p\(team), name: P}] }\n" }
    text += "games:\n"
    for game in 0..<games { text += "  - { id: g\(game), home: t\(2 * game), away: t\(2 * game + 1) }\n" }
    return text
}

/// A courtsided that a benchmark starts on its own config, and stops with SIGTERM.
struct BenchDaemon {
    let process: Process
    private let cleanup: Int

    /// Writes `config` into `directory` and starts the daemon on it (the binary next to this
    /// one unless `executable` names another). `logLevel` is the daemon's; `BENCH_LOG_LEVEL=info` in the environment shows its checkpoints
    /// and start-up figures among the bench's lines, and `BENCH_METRICS=HOST:PORT` has it serve
    /// its Prometheus metrics there (`--metrics-listen`), to read while the bench runs.
    init(
        config: String, in directory: URL, executable: String?,
        logLevel: String = ProcessInfo.processInfo.environment["BENCH_LOG_LEVEL"] ?? "warning"
    ) throws {
        let path = directory.appendingPathComponent("bench.yaml").path
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL =
            executable.map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("courtsided")
        process.arguments = ["--config", path, "--log-level", logLevel]
        if let metrics = ProcessInfo.processInfo.environment["BENCH_METRICS"] {
            process.arguments? += ["--metrics-listen", metrics]
        }
        try process.run()
        let pid = process.processIdentifier
        cleanup = ChildCleanup.add { kill(pid, SIGTERM) }
    }

    var processIdentifier: Int32 { process.processIdentifier }

    func stop() {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        ChildCleanup.remove(cleanup)
    }
}

/// `count` different ports on 127.0.0.1 that were free a moment ago (the kernel's picks for
/// port 0, held open together so that they differ); random ones in 20000..<60000 if asking fails.
func freeLoopbackPorts(_ count: Int) -> [Int] {
    var descriptors: [Int32] = []
    defer { for fd in descriptors { close(fd) } }
    var ports: [Int] = []
    for _ in 0..<count {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { break }
        descriptors.append(fd)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(fd, address, length) == 0 && getsockname(fd, address, &length) == 0
            }
        }
        guard bound else { break }
        ports.append(Int(UInt16(bigEndian: address.sin_port)))
    }
    if ports.count == count { return ports }
    let base = Int.random(in: 20_000..<(60_000 - count))
    return Array(base..<(base + count))
}

/// A plaintext courtsided with the bench roster of `games` games and `extraConfig` (a
/// `storage` section, say), on free loopback ports and a temporary data directory that
/// ``stop()`` removes.
final class RunningDaemon {
    let directory: URL
    let command: String
    let events: String
    private let daemon: BenchDaemon

    init(games: Int, courtsided: String?, extraConfig: String = "", logLevel: String = "warning") throws {
        let ports = freeLoopbackPorts(2)
        command = "tcp://127.0.0.1:\(ports[0])"
        events = "tcp://127.0.0.1:\(ports[1])"
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = """
            data_dir: \(directory.appendingPathComponent("data").path)
            endpoints: { command: "\(command)", events: "\(events)" }

            """
        do {
            daemon = try BenchDaemon(
                config: config + extraConfig + benchRoster(games: games), in: directory, executable: courtsided,
                logLevel: logLevel)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    var processIdentifier: Int32 { daemon.processIdentifier }

    func stop() {
        daemon.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Waits until courtsided answers on `endpoint` with an `ok` reply, or `unknown_game` (at most
/// `timeout`): a daemon on PostgreSQL answers `not_active` until it holds the lease. The probe is a snapshot of one
/// game (g0), which is cheap however many games there are; a `list_games` of 1,000 games can
/// take longer than a short probe's timeout.
func waitUntilServing(
    _ context: ZMQContext, _ endpoint: String, curve: CurveClientKeys?, timeout: Duration = .seconds(60)
) throws {
    let deadline = ContinuousClock.now + timeout
    var attempt = 0
    while ContinuousClock.now < deadline {
        let socket = try context.socket(.dealer)
        defer { socket.close() }
        try socket.set(.linger(milliseconds: 0))
        try socket.set(.receiveTimeout(milliseconds: 1_000))
        if let curve { try socket.useCurve(curve) }
        try socket.connect(endpoint)
        try socket.send([
            Request(
                origin: CommandOrigin(clientID: "bench", commandID: "ping\(attempt)"), operation: .snapshot(game: GameID("g0"))
            )
            .encoded()
        ])
        // A tournament without a g0 (the reads bench creates its games after the start) answers
        // unknown_game: a read served all the same.
        if let reply = try? socket.receive().last,
            ReplyPeek.isOK(reply) || (try? WireCoding.decode(Reply.self, from: reply))?.error?.code == .unknownGame
        {
            return
        }
        attempt += 1
        usleep(20_000)
    }
    throw BenchError("courtsided did not answer on \(endpoint) within \(timeout)")
}
