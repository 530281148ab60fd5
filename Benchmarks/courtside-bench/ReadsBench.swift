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

/// Issue #10, goal 3: does a display's snapshot stall a keeper?
struct ReadsBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reads",
        abstract: "Measures a keeper's round trip while displays take snapshots, and through a resync storm after a restart.",
        discussion: """
            Creates --games games with --moves-per-game moves each, then measures one keeper (one \
            move in flight) four times: quiet; while --displays displays each take a snapshot of \
            every game in a loop (from when each has had its second: the daemon paces a display \
            that asks again, not its first); quiet again; and right after a restart, while --storm displays resync at once \
            (each takes what its kind takes: one in a hundred a snapshot of every game, the rest \
            one game's, as court TVs do). Prints each phase's p50 and p99 and the ratio to quiet, \
            when in the storm its slowest moves were sent, and what the same storm (after one \
            more restart) does to a bare durable round trip (libzmq REQ/REP + fdatasync, no \
            daemon): the displays' clients share this machine's cores, as a venue's would not. \
            So they run at --display-nice (their threads and their libzmq context's I/O thread): \
            at 0 the figures also time the benchmark's own clients competing with the keeper.
            """)

    @Option(help: "Games in the tournament.") var games = 10_000
    @Option(help: "Moves made in each game before measuring.") var movesPerGame = 5
    @Option(help: "Displays taking whole-tournament snapshots in a loop during the second phase.") var displays = 10
    @Option(help: "Displays resyncing at once after the restart (0: no storm phase).") var storm = 1000
    @Option(help: "Moves the keeper makes in each phase.") var moves = 2000
    @Option(help: "The courtsided binary (default: next to this one).") var courtsided: String?
    @Option(help: "The niceness of the displays' client threads (0 to 19).") var displayNice: Int32 = 19
    @Option(help: "The daemon's transport.tournament_reads_mb_per_s (default: its own; 0: unpaced).")
    var tournamentReadsMbPerS: Double?
    @OptionGroup var smoke: SmokeOption

    mutating func validate() throws {
        if smoke.smoke {
            (games, movesPerGame, displays, storm, moves) = (
                min(games, 4), min(movesPerGame, 2), min(displays, 2), min(storm, 20), min(moves, 20)
            )
        }
    }

    /// The raw libzmq round trips each machine figure takes.
    private var rawTrips: Int { smoke.smoke ? 50 : 2000 }

    private var teams: Int { min(games * 2, 200) }

    /// Game sN is team `home(N)` against `home(N) + 1`, each with one player pT of its number.
    private func home(_ game: Int) -> Int { (2 * game) % teams }

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-reads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ports = freeLoopbackPorts(2)
        let command = "tcp://127.0.0.1:\(ports[0])"
        let events = "tcp://127.0.0.1:\(ports[1])"
        var config = """
            data_dir: \(directory.appendingPathComponent("data").path)
            endpoints: { command: "\(command)", events: "\(events)" }
            \(tournamentReadsMbPerS.map { "transport: { tournament_reads_mb_per_s: \($0) }" } ?? "")
            teams:

            """
        // Teams play many games each: a config of 20,000 teams would pass the YAML node limit.
        for team in 0..<teams { config += "  - { id: t\(team), name: T\(team), players: [{id: p\(team), name: P}] }\n" }
        var daemon = try BenchDaemon(config: config, in: directory, executable: courtsided)
        defer { daemon.stop() }
        let context = try ZMQContext()
        try waitUntilServing(context, command, curve: nil)
        let displaysContext = try lowPriorityContext()
        print("the displays' clients run at nice \(displayNice)")

        let filling = ContinuousClock.now
        try fill(context, command)
        print("games=\(games), \(movesPerGame) moves each (filled in \(format((ContinuousClock.now - filling).inSeconds)) s)")
        printRSS("after filling", daemon)
        let heartbeats = try heartbeatBytes(context, events, count: smoke.smoke ? 1 : 3)
        print("heartbeat bytes at \(games) games: largest \(heartbeats.max() ?? 0) of \(heartbeats.count) (\(heartbeats))")
        let sizing = ContinuousClock.now
        let size = try snapshotBytes(context, command, client: "sizer")
        print(
            "one snapshot of every game: \(format(Double(size) / 1e6)) MB in \(format((ContinuousClock.now - sizing).inSeconds * 1000)) ms"
        )
        let again = ContinuousClock.now
        // Another client: the same one asking again within 5 s would be paced, and this would
        // time the pace rather than the cache.
        _ = try snapshotBytes(context, command, client: "sizer-again")
        print("again, cached: \(format((ContinuousClock.now - again).inSeconds * 1000)) ms")

        let quiet = try keeper(context, command, id: "quiet")
        report("quiet", quiet, baseline: quiet)

        let (loaded, snapshotsPerSecond) = try whileDisplaysResync(displaysContext, command) {
            try keeper(context, command, id: "loaded")
        }
        report(
            "\(displays) displays resyncing in a loop (\(format(snapshotsPerSecond)) snapshots/s)", loaded, baseline: quiet)
        // Quiet once more, once the displays are gone: on a shared machine one quiet phase's p99
        // can be several times another's, and the ratio is only as good as its baseline.
        let quietAfter = try keeper(context, command, id: "quiet-after")
        report("quiet again, after the displays", quietAfter, baseline: quiet)
        print(
            "  the displays' p99 against this second quiet p99: "
                + "\(String(format: "%.2f", percentile(loaded, 0.99) / percentile(quietAfter, 0.99))) x")
        // The same load's toll on a bare libzmq round trip: with the displays on the same two
        // cores, part of a keeper's p99 is this machine's, not the daemon's.
        let rawQuiet = try MachineLimits.rawRoundTrips(rawTrips)
        let (rawLoaded, _) = try whileDisplaysResync(displaysContext, command) { try MachineLimits.rawRoundTrips(rawTrips) }
        print(
            "machine: raw libzmq REQ/REP round trip us, quiet p99 \(format(percentile(rawQuiet, 0.99))), "
                + "with the same displays p99 \(format(percentile(rawLoaded, 0.99))) "
                + "(\(String(format: "%.2f", percentile(rawLoaded, 0.99) / percentile(rawQuiet, 0.99))) x quiet)")
        printRSS("after the snapshots", daemon)

        guard storm > 0 else { return }
        var slowest: [(at: Double, latency: Double)] = []
        let (during, stormSeconds) = try afterRestart(
            &daemon, config: config, in: directory, context, displays: displaysContext, command
        ) {
            stormStart, _ in
            try keeper(context, command, id: "storm", moves: min(moves, 500)) { sent, latency in
                slowest.append(((sent - stormStart).inSeconds * 1000, latency / 1000))
            }
        }
        report(
            "resync storm of \(storm) displays after a restart (served in \(format(stormSeconds * 1000)) ms)", during,
            baseline: quiet)
        // When in the storm the slowest moves were sent tells what held them up.
        slowest = slowest.sorted { $0.latency > $1.latency }.prefix(8).sorted { $0.at < $1.at }
        print(
            "  slowest moves, sent at ms after the storm began (round trip ms): "
                + slowest.map { "\(format($0.at)) (\(format($0.latency)))" }.joined(separator: ", "))
        printRSS("after the storm", daemon)
        // The same storm's toll on the least a durable command takes, with no daemon in its way:
        // the displays' clients share these two cores, as the venue's devices would not.
        let (bare, _) = try afterRestart(&daemon, config: config, in: directory, context, displays: displaysContext, command) {
            _, served in
            // A smoke run's storm can be served before the first trip: it takes a few all the same.
            let least = smoke.smoke ? 10 : 0
            return try MachineLimits.durableRoundTrips(in: directory) { trips in
                trips < least || (!served() && trips < 20_000)
            }
        }
        print(
            "machine: raw libzmq REQ/REP round trip + fdatasync us while the same storm was served (\(bare.count) trips): "
                + "p50 \(format(percentile(bare, 0.5)))  p99 \(format(percentile(bare, 0.99)))  "
                + "(keeper's p99 \(String(format: "%.2f", percentile(during, 0.99) / percentile(bare, 0.99))) x this)")
    }

    /// Restarts the daemon (waiting for its first answer through `context`) and has `storm`
    /// displays on `displaysContext` resync at once while `body` runs, given when the storm began
    /// and whether it has been served yet. Returns what `body` returned and how long the storm
    /// took to serve, in seconds.
    private func afterRestart<T>(
        _ daemon: inout BenchDaemon, config: String, in directory: URL, _ context: ZMQContext,
        displays displaysContext: ZMQContext, _ command: String,
        _ body: (ContinuousClock.Instant, _ served: () -> Bool) throws -> T
    ) throws -> (T, Double) {
        daemon.stop()
        let restarted = ContinuousClock.now
        daemon = try BenchDaemon(config: config, in: directory, executable: courtsided)
        try waitUntilServing(context, command, curve: nil)
        print("restart to first answer: \(format((ContinuousClock.now - restarted).inSeconds * 1000)) ms")
        let stormStart = ContinuousClock.now
        // A few threads, each owning its share of the displays' sockets.
        let threads = min(storm, 10)
        let finished = Atomic<Int>(0)
        let stormers = (0..<threads).map { thread in
            BlockingThread { () throws -> Double in
                defer { finished.add(1, ordering: .relaxed) }
                lowerPriority()
                let share = (thread..<storm).filter { $0 % threads == thread }
                let sockets = try share.map { _ in try dealer(displaysContext, command, timeout: 120_000) }
                for (socket, display) in zip(sockets, share) {
                    let operation: Request.Operation =
                        display % 100 == 0 ? .snapshot(game: nil) : .snapshot(game: GameID("s\(display % games)"))
                    try socket.send([read(operation, "tv-\(display)", 1)])
                }
                // Every answer is taken first, and only then checked: decoding a 10 MB snapshot
                // with Foundation takes this client over a second, which is not the daemon's time.
                let replies = try sockets.map { try $0.receive().last ?? [] }
                let served = (ContinuousClock.now - stormStart).inSeconds
                for reply in replies where !ReplyPeek.isOK(reply) {
                    let failure = try? WireCoding.decode(Reply.self, from: reply)
                    throw ValidationError("a resync failed: \(failure?.error?.message ?? "?")")
                }
                return served
            }
        }
        let result = try body(stormStart) { finished.load(ordering: .relaxed) == threads }
        let stormSeconds = try stormers.map { try $0.wait().get() }.max() ?? 0
        return (result, stormSeconds)
    }

    /// Gives the calling thread the displays' niceness (on Linux a thread's nice value is its own,
    /// and the threads it starts inherit it).
    private func lowerPriority() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, displayNice)
    }

    /// A libzmq context for the displays, whose I/O thread runs at their niceness: libzmq starts
    /// it at the context's first socket, from the thread that opens it.
    private func lowPriorityContext() throws -> ZMQContext {
        try BlockingThread { () throws -> ZMQContext in
            lowerPriority()
            let context = try ZMQContext()
            try context.socket(.dealer).close()
            return context
        }.wait().get()
    }

    private func report(_ phase: String, _ latencies: [Double], baseline: [Double]) {
        let p99 = percentile(latencies, 0.99)
        print(
            "\(phase): round trip us: p50 \(format(percentile(latencies, 0.5)))  p99 \(format(p99))  "
                + "(p99 \(String(format: "%.2f", p99 / percentile(baseline, 0.99))) x quiet)")
    }

    /// Runs `body` while `displays` displays take snapshots of every game in a loop; returns its
    /// result and the snapshots served per second meanwhile.
    ///
    /// `body` starts once every display has had two snapshots, the second paced: a display's
    /// first resync is served at once (the daemon paces only a display that asks again), and
    /// the bytes of that first burst keep the pace's budget in debt for a while after. Measured
    /// from the start, a phase of 2,000 moves saw little but that burst: at 48 MB/s ten first
    /// snapshots and then none.
    private func whileDisplaysResync<T>(_ context: ZMQContext, _ command: String, _ body: () throws -> T) throws -> (
        T, Double
    ) {
        let stop = Atomic<Bool>(false)
        let served = Atomic<Int>(0)
        let looping = Atomic<Int>(0)
        let readers = (0..<displays).map { index in
            BlockingThread { () throws -> Void in
                lowerPriority()
                let socket = try dealer(context, command, timeout: 60_000)
                var count = 0
                while !stop.load(ordering: .relaxed) {
                    count += 1
                    try socket.send([read(.snapshot(game: nil), "display-\(index)", count)])
                    _ = try socket.receive()
                    served.add(1, ordering: .relaxed)
                    if count == 2 { looping.add(1, ordering: .relaxed) }
                }
            }
        }
        let warming = ContinuousClock.now
        while looping.load(ordering: .relaxed) < displays, ContinuousClock.now - warming < .seconds(60) {
            Thread.sleep(forTimeInterval: 0.001)
        }
        let before = served.load(ordering: .relaxed)
        let started = ContinuousClock.now
        let result = Result { try body() }
        stop.store(true, ordering: .relaxed)
        let perSecond = Double(served.load(ordering: .relaxed) - before) / (ContinuousClock.now - started).inSeconds
        for reader in readers { try reader.wait().get() }
        return (try result.get(), perSecond)
    }

    /// The daemon's RSS now and at rest: once it has been idle (its checkpoint thread may still
    /// be writing a checkpoint of the burst, which the next phase must not meet), and 1.5 s more, when it
    /// has given back what the burst freed. Under --smoke, no rest: the figure means nothing there.
    private func printRSS(_ moment: String, _ daemon: BenchDaemon) {
        let now = AbuseBench.rss(daemon.processIdentifier)
        let waited = smoke.smoke ? 0 : Self.waitUntilIdle(daemon.processIdentifier)
        let rest = smoke.smoke ? 0 : 1.5
        Thread.sleep(forTimeInterval: rest)
        print(
            "daemon RSS \(moment): \(now / 1024) MiB, \(AbuseBench.rss(daemon.processIdentifier) / 1024) MiB at rest "
                + "(idle after \(format(waited)) s, then \(rest) s)")
    }

    /// Waits until the process has used under 5% of a core for half a second (at most 60 s);
    /// returns how long that took, in seconds.
    static func waitUntilIdle(_ pid: Int32) -> Double {
        let start = ContinuousClock.now
        var last = cpuSeconds(pid)
        while (ContinuousClock.now - start) < .seconds(60) {
            Thread.sleep(forTimeInterval: 0.5)
            let used = cpuSeconds(pid)
            defer { last = used }
            if used - last < 0.025 { break }
        }
        return (ContinuousClock.now - start).inSeconds
    }

    /// The CPU time a process has used, user and system, from /proc.
    static func cpuSeconds(_ pid: Int32) -> Double {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // The fields after the command name, which is in parentheses and may hold spaces.
        guard let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    private func read(_ operation: Request.Operation, _ client: String, _ count: Int) -> [UInt8] {
        Request(origin: CommandOrigin(clientID: client, commandID: "\(count)"), operation: operation).encoded()
    }

    private func dealer(_ context: ZMQContext, _ endpoint: String, timeout: Int32) throws -> ZMQSocket {
        let socket = try context.socket(.dealer)
        try socket.set(.linger(milliseconds: 0))
        try socket.set(.receiveTimeout(milliseconds: timeout))
        try socket.connect(endpoint)
        return socket
    }

    /// Creates the games and makes their moves, pipelined in chunks.
    private func fill(_ context: ZMQContext, _ endpoint: String) throws {
        let socket = try dealer(context, endpoint, timeout: 60_000)
        var requests: [Request.Operation] = (0..<games).map {
            .createGame(
                game: GameID("s\($0)"), home: TeamID("t\(home($0))"), away: TeamID("t\(home($0) + 1)"), court: nil, rules: nil)
        }
        for round in 0..<movesPerGame {
            requests += (0..<games).map {
                .move(game: GameID("s\($0)"), player: PlayerID("p\(home($0) + round % 2)"), move: .twoPoints)
            }
        }
        var next = 0
        for chunk in stride(from: 0, to: requests.count, by: 500) {
            let end = min(chunk + 500, requests.count)
            for operation in requests[chunk..<end] {
                next += 1
                try socket.send([read(operation, "filler", next)])
            }
            for _ in chunk..<end {
                let reply = try WireCoding.decode(Reply.self, from: try socket.receive().last ?? [])
                guard reply.ok else { throw ValidationError("filling failed: \(reply.error?.message ?? "?")") }
            }
        }
    }

    /// The sizes of the next `count` heartbeats on the event endpoint (issue 10's goal 4: at
    /// most 1 KB whatever the number of games).
    private func heartbeatBytes(_ context: ZMQContext, _ endpoint: String, count: Int) throws -> [Int] {
        let subscriber = try context.socket(.sub)
        defer { subscriber.close() }
        try subscriber.set(.linger(milliseconds: 0))
        try subscriber.set(.receiveTimeout(milliseconds: 10_000))
        try subscriber.set(.subscribe(Topic.heartbeat))
        try subscriber.connect(endpoint)
        var sizes: [Int] = []
        while sizes.count < count {
            let frames = try subscriber.receive()
            // The topic is a prefix: a game named "_heartbeat..." would match it too.
            if frames.count == 2, frames[0] == Topic.heartbeat { sizes.append(frames[1].count) }
        }
        return sizes
    }

    private func snapshotBytes(_ context: ZMQContext, _ endpoint: String, client: String) throws -> Int {
        let socket = try dealer(context, endpoint, timeout: 60_000)
        try socket.send([read(.snapshot(game: nil), client, 1)])
        return try socket.receive().last?.count ?? 0
    }

    /// One keeper, one move in flight: each move's round trip in microseconds, sorted. `each` is
    /// told when each move was sent and its round trip.
    ///
    /// The keeper has a libzmq context of its own, as a keeper's tablet is a device of its own:
    /// sharing the displays' client-side I/O thread, it would time their 100 MB of snapshots
    /// arriving, not the daemon.
    private func keeper(
        _: ZMQContext, _ endpoint: String, id: String, moves: Int? = nil,
        each: (ContinuousClock.Instant, Double) -> Void = { _, _ in }
    ) throws -> [Double] {
        let context = try ZMQContext()
        defer { context.terminate() }
        let socket = try dealer(context, endpoint, timeout: 10_000)
        defer { socket.close() }
        var latencies: [Double] = []
        for index in 0..<(moves ?? self.moves) {
            let game = index % games
            // Rebounds score nothing, so no game ends.
            let request = read(
                .move(game: GameID("s\(game)"), player: PlayerID("p\(home(game))"), move: .rebound), "keeper-\(id)", index)
            let sent = ContinuousClock.now
            try socket.send([request])
            let reply = try WireCoding.decode(Reply.self, from: try socket.receive().last ?? [])
            latencies.append((ContinuousClock.now - sent).inSeconds * 1e6)
            each(sent, latencies[latencies.count - 1])
            guard reply.ok else { throw ValidationError("a move failed: \(reply.error?.message ?? "?")") }
        }
        return latencies.sorted()
    }
}
