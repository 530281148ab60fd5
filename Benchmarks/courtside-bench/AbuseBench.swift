import ArgumentParser
import CourtsideModel
import CourtsideProtocol
import CourtsideSimulator
import Foundation
import Synchronization
import ZeroMQ

#if canImport(Glibc)
    import Glibc
#endif

/// One client floods the daemon with refused commands while keepers score: does memory stay
/// bounded, and do the keepers notice?
struct AbuseBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "abuse",
        abstract: "Floods courtsided with refused commands (moves on a finished game, fresh ids) while keepers score.",
        discussion: """
            Prints the daemon's RSS before and after the flood, and the keepers' round trip in a \
            quiet run beside the same keepers during the flood.
            """)

    @Option(help: "Refused commands the abuser sends.") var refused = 1_000_000
    @Option(help: "Requests the abuser keeps in flight.") var window = 64
    @Option(help: "Keepers scoring meanwhile, one game each.") var keepers = 4
    @Option(help: "Moves per keeper in the quiet run.") var quietMoves = 2_000
    @Option(help: "The courtsided binary (default: next to this one).") var courtsided: String?
    @OptionGroup var smoke: SmokeOption

    mutating func validate() throws {
        if smoke.smoke { (refused, quietMoves) = (min(refused, 200), min(quietMoves, 20)) }
    }

    func run() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-abuse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ports = freeLoopbackPorts(2)
        let command = "tcp://127.0.0.1:\(ports[0])"
        let config = """
            data_dir: \(directory.appendingPathComponent("data").path)
            endpoints: { command: "\(command)", events: "tcp://127.0.0.1:\(ports[1])" }

            """
        let daemon = try BenchDaemon(
            config: config + benchRoster(games: keepers + 1), in: directory, executable: courtsided, logLevel: "error")
        defer { daemon.stop() }
        let context = try ZMQContext()
        // Game g{keepers} is the abuser's: finished first (16 to 0), then flooded.
        let finished = GameID("g\(keepers)")
        let organiser = try Self.dealer(context, command)
        for number in 0..<8 {
            _ = try Self.request(
                organiser, .move(game: finished, player: PlayerID("p\(2 * keepers)"), move: .twoPoints), "finish-\(number)")
        }
        organiser.close()
        let rssBefore = Self.rss(daemon.processIdentifier)

        let quiet = try keeperRun(context, command, until: { $0 >= quietMoves })
        print(
            "quiet: keepers=\(keepers) round trip us: p50 \(format(percentile(quiet, 0.5)))  p99 \(format(percentile(quiet, 0.99)))"
        )

        let flooding = Atomic(true)
        let (refused, window, keepers) = (self.refused, self.window, self.keepers)
        let pid = daemon.processIdentifier
        let abuser = BlockingThread { () throws -> (Int, Double, [String: Int], [(Int, Int)]) in
            var samples: [(Int, Int)] = []
            let abuserSocket = try Self.dealer(context, command)
            var codes: [String: Int] = [:]
            var sent = 0
            var answered = 0
            let start = ContinuousClock.now
            while answered < refused {
                while sent < refused, sent - answered < window {
                    let request = Request(
                        origin: CommandOrigin(clientID: "abuser", commandID: "x\(sent)"),
                        operation: .move(game: finished, player: PlayerID("p\(2 * keepers)"), move: .onePoint))
                    try abuserSocket.send([request.encoded()])
                    sent += 1
                }
                let reply = try WireCoding.decode(Reply.self, from: try abuserSocket.receive().last ?? [])
                codes[reply.error?.code.rawValue ?? "ok", default: 0] += 1
                answered += 1
                // RSS along the way: bounded memory shows as a plateau once the window is full.
                if answered % max(1, refused / 10) == 0 { samples.append((answered, Self.rss(pid))) }
            }
            flooding.store(false, ordering: .relaxed)
            return (answered, (ContinuousClock.now - start).inSeconds, codes, samples)
        }
        let loaded = try keeperRun(context, command, until: { _ in !flooding.load(ordering: .relaxed) })
        let (answered, seconds, codes, samples) = try abuser.wait().get()
        let rssAfter = Self.rss(daemon.processIdentifier)
        print(
            "flood: \(answered) refused commands in \(String(format: "%.1f", seconds)) s (\(format(Double(answered) / seconds))/s): \(codes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))"
        )
        print(
            "during the flood: keepers=\(keepers) round trip us: p50 \(format(percentile(loaded, 0.5)))  p99 \(format(percentile(loaded, 0.99)))  (\(loaded.count) moves)"
        )
        print(
            "keepers' p99 during the flood / quiet: \(String(format: "%.2f", percentile(loaded, 0.99) / percentile(quiet, 0.99)))"
        )
        print("daemon RSS: before the flood \(rssBefore / 1024) MiB, after \(rssAfter / 1024) MiB")
        print(
            "daemon RSS during the flood (refused so far: MiB): "
                + samples.map { "\($0.0): \($0.1 / 1024)" }.joined(separator: ", "))
    }

    /// Each keeper scores rebounds in its own game, one at a time, until `until` says stop;
    /// returns every round trip in microseconds, sorted.
    func keeperRun(_ context: ZMQContext, _ endpoint: String, until: @escaping @Sendable (Int) -> Bool) throws -> [Double] {
        let runs = (0..<keepers).map { keeper in
            BlockingThread { () throws -> [Double] in
                let socket = try Self.dealer(context, endpoint)
                var latencies: [Double] = []
                let id = UUID().uuidString.prefix(6)
                while !until(latencies.count) {
                    let start = ContinuousClock.now
                    _ = try Self.request(
                        socket, .move(game: GameID("g\(keeper)"), player: PlayerID("p\(2 * keeper)"), move: .rebound),
                        "\(id)-\(latencies.count)")
                    latencies.append((ContinuousClock.now - start).inSeconds * 1e6)
                }
                return latencies
            }
        }
        return try runs.flatMap { try $0.wait().get() }.sorted()
    }

    static func dealer(_ context: ZMQContext, _ endpoint: String) throws -> ZMQSocket {
        let socket = try context.socket(.dealer)
        try socket.set(.linger(milliseconds: 0))
        try socket.set(.receiveTimeout(milliseconds: 10_000))
        try socket.connect(endpoint)
        return socket
    }

    static func request(_ socket: ZMQSocket, _ operation: Request.Operation, _ commandID: String) throws -> Reply {
        let origin = CommandOrigin(clientID: "bench-\(commandID.prefix(6))", commandID: commandID)
        try socket.send([Request(origin: origin, operation: operation).encoded()])
        return try WireCoding.decode(Reply.self, from: try socket.receive().last ?? [])
    }

    /// Resident set size of a process, in KiB.
    static func rss(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
}
