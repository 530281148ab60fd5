import ArgumentParser
import CourtsideLibrary
import CourtsideModel
import CourtsideProtocol
import CourtsideSimulator
import CourtsideStorage
import Foundation
import Logging
import Synchronization
import ZeroMQ

#if canImport(Glibc)
    import Glibc
#endif

/// Benchmarks that print figures. Timings on shared machines are noisy: compare the figures of
/// one run with each other (ratios), not with another day's.
@main
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courtside-bench",
        abstract: "Measures Courtside's durable write path, its ZeroMQ round trip and its event fan-out.",
        discussion: """
            Each benchmark first measures this machine's limits in the same run (a raw libzmq \
            REQ/REP round trip over TCP loopback, and an append + fdatasync on the data \
            directory's file system) and prints its figures beside them as ratios.
            """,
        subcommands: [
            LibraryBench.self, DaemonBench.self, LogBench.self, FanoutBench.self, ReadsBench.self, RestartBench.self,
            EncodeBench.self, AbuseBench.self, ReplicationBench.self,
            PlanBench.self,
        ])
}

/// Percentile of sorted values.
func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
}

func format(_ value: Double) -> String { String(format: "%.0f", value) }

/// CPU time, user and system, in seconds, of this process (`CLOCK_PROCESS_CPUTIME_ID`) or the
/// calling thread (`CLOCK_THREAD_CPUTIME_ID`), at the clock's resolution: /proc counts ticks of
/// 10 ms (``ReadsBench/cpuSeconds(_:)`` reads it for another process).
func cpuSeconds(_ clock: clockid_t) -> Double {
    var time = timespec()
    clock_gettime(clock, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

// MARK: - The library's durable write path

/// Counts the transactions of the log under test.
final class CountingLog: ForwardingEventLog {
    let base: any EventLog
    let transactions = Atomic<Int>(0)
    init(_ base: any EventLog) { self.base = base }
    func append(_ events: [GameEvent], refusals: [CommandRefusal]) throws {
        try base.append(events, refusals: refusals)
        transactions.add(1, ordering: .relaxed)
    }
}

struct LibraryBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract:
            "Durable moves per second through GameLibrary and its log (SQLite with synchronous=FULL, or a flat file), by concurrency.",
        discussion: """
            First this machine's limits, measured in the same run: an append + fdatasync in the \
            temporary directory, and SQLite's own insert rate there (the log's rows, from one \
            thread through SQLite's C API, in commits as large as the largest number of keepers: \
            each keeper has one move in flight, so no commit of the library's is larger). Then, \
            for each log and number of keepers, the acknowledged moves a second, their ratios to \
            both, and the CPU time a move of this process (the library and its keepers). Over \
            the flat log (one write + fdatasync a commit, no SQLite), that is the library's and \
            its keepers' own work: on a machine of N cores, N / (CPU a move) bounds the moves a \
            second.

            Issue 10, goal 2 (the library alone): courtside-bench library --keepers 256 --games 1000 --moves 100000 --log sqlite,flat
            """)

    @Option(help: "Games to spread the moves over.") var games = 100
    @Option(help: "Moves per run.") var moves = 20_000
    @Option(help: "Concurrent keepers (tasks) to try, comma-separated.") var keepers = "1,16,64,256"
    @Option(
        help: ArgumentHelp(
            "The logs to run the library over, comma-separated: sqlite (the daemon's), flat (one write + fdatasync a commit to a flat file, no SQLite: what the library's own work allows).",
            valueName: "logs"))
    var log = "sqlite"
    @OptionGroup var smoke: SmokeOption

    mutating func validate() throws {
        if smoke.smoke { (games, moves) = (min(games, 4), min(moves, 200)) }
        guard !logs.isEmpty else { throw ValidationError("--log needs sqlite, flat or both") }
        for name in logs where name != "sqlite" && name != "flat" {
            throw ValidationError("--log takes sqlite and flat, not \(name)")
        }
        guard !concurrencies.isEmpty, concurrencies.allSatisfy({ $0 > 0 }) else {
            throw ValidationError("--keepers takes positive numbers, comma-separated, not \(keepers)")
        }
    }

    private var logs: [String] { log.split(separator: ",").map(String.init) }
    private var concurrencies: [Int] { keepers.split(separator: ",").compactMap { Int($0) } }

    func run() async throws {
        let limits = try smoke.machineLimits(directory: FileManager.default.temporaryDirectory)
        limits.report()
        let sqlite = try SQLiteLimit.measure(
            directory: FileManager.default.temporaryDirectory, rows: smoke.smoke ? 2_000 : 50_000,
            rowsPerCommit: concurrencies.max() ?? 1)
        sqlite.report()
        print("moves=\(moves) games=\(games); each command acknowledged only after its commit (fsync)")
        print(
            "ratios: p50/sync = p50 over (append + fdatasync) p50; moves/sync = moves/s over fdatasyncs/s (1e6 / fdatasync p50), the moves one commit carries with commits back to back; moves/sqlite = moves/s over SQLite's rows/s alone (the SQLite log writes a row a move, on one thread); cpu_us/move and cores: the CPU time, user and system, of this process (the library and its keepers) while the keepers ran (\(ProcessInfo.processInfo.activeProcessorCount) cores here)"
        )
        print(
            "log     keepers  moves/s  commits  moves/commit  p50_us  p99_us  p50/sync  moves/sync  moves/sqlite  cpu_us/move  cores"
        )
        for name in logs {
            for concurrency in concurrencies {
                try await measure(name, concurrency: concurrency, limits: limits, sqlite: sqlite)
            }
        }
    }

    private func measure(_ name: String, concurrency: Int, limits: MachineLimits, sqlite: SQLiteLimit) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = CountingLog(
            name == "flat" ? try FlatFileLog(directory: directory) : try SQLiteEventLog(directory: directory))
        let library = try GameLibrary(log: log, logger: Logger(label: "bench"))
        for index in 0..<games {
            try await library.createGame(setup(index), origin: CommandOrigin(clientID: "bench", commandID: "g\(index)"))
        }
        // Until the retry memory is read, each move asks the log whether it is a retry: which the
        // flat log, write-only, refuses once written (a few games are created before the reading
        // thread has run), and which the runs must not time.
        guard await library.retryMemoryLoaded() else { throw BenchError("the retry memory could not be read") }
        let before = log.transactions.load(ordering: .relaxed)
        let cpuBefore = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID)
        let perKeeper = max(1, moves / concurrency)
        let start = ContinuousClock.now
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for keeper in 0..<concurrency {
                group.addTask {
                    var latencies: [Double] = []
                    latencies.reserveCapacity(perKeeper)
                    for index in 0..<perKeeper {
                        let game = (keeper + index * concurrency) % games
                        let sent = ContinuousClock.now
                        try await library.apply(
                            .move(player: PlayerID("p\(game)-\(index % 3)"), move: .rebound), to: GameID("g\(game)"),
                            origin: CommandOrigin(clientID: "k\(keeper)", commandID: "\(index)"))
                        latencies.append((ContinuousClock.now - sent).inSeconds * 1e6)
                    }
                    return latencies
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }.sorted()
        }
        let elapsed = ContinuousClock.now - start
        let seconds = elapsed.inSeconds
        let cpu = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - cpuBefore
        let commits = log.transactions.load(ordering: .relaxed) - before
        print(
            name.padding(toLength: 6, withPad: " ", startingAt: 0)
                + String(
                    format: "  %7d  %7.0f  %7d  %12.1f  %6.0f  %6.0f  %8.2f  %10.1f  %12.2f  %11.1f  %5.2f", concurrency,
                    Double(latencies.count) / seconds,
                    commits, Double(latencies.count) / Double(max(commits, 1)), percentile(latencies, 0.5),
                    percentile(latencies, 0.99), percentile(latencies, 0.5) / limits.syncP50,
                    limits.movesPerSync(Double(latencies.count) / seconds),
                    Double(latencies.count) / seconds / sqlite.rowsPerSecond, cpu * 1e6 / Double(max(latencies.count, 1)),
                    cpu / seconds))
        await library.close()
    }

    func setup(_ index: Int) -> GameSetup {
        func team(_ side: String, _ players: Range<Int>) -> Team {
            Team(
                id: TeamID("t\(index)\(side)"), name: side,
                players: players.map { Player(id: PlayerID("p\(index)-\($0)"), name: "P\($0)") })
        }
        return GameSetup(id: GameID("g\(index)"), home: team("h", 0..<3), away: team("a", 3..<6))
    }
}

// MARK: - The daemon over ZeroMQ

struct DaemonBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Starts courtsided and measures the command round trip and the events per second a subscriber receives.",
        discussion: """
            First this machine's limits, measured in the same run: a raw libzmq REQ/REP round trip \
            over TCP loopback, and an append + fdatasync in the daemon's data directory (on \
            PostgreSQL, also the server's own one-row synchronous commit through postgres-nio). Then \
            the keepers' round trip (p50, p99, max) and its ratio to (raw round trip + a commit: \
            the fdatasync on SQLite, PostgreSQL's commit on PostgreSQL), the acknowledged moves per second and their ratio to a raw libzmq \
            DEALER/ROUTER echo with the same keepers and window, the CPU time per acknowledged \
            move of courtsided and of this benchmark's own keepers and subscriber (on a machine \
            they share, cores / their sum bounds the moves a second), and the events per second \
            one subscriber receives. Each storage, security and number of keepers is a run of its \
            own (a new daemon on a new log); a table at the end sets them side by side.

            With postgresql among the storages, a throwaway PostgreSQL 15 server is started (and \
            stopped at the end); with postgresql-pair, a primary and its synchronous streaming standby \
            (TestPostgresPair, as scripts/postgres-pair.sh makes them), so that each commit waits \
            for the standby. After each one's \
            runs, the takeover: two courtsided on one database, a keeper listing both endpoints, kill -9 of the active one at a random moment; \
            the time from the kill to the first move acknowledged under a higher term (through the \
            standby), each trial and min/median/max, against the goal of the lease plus 1 s. \
            (The standby that takes over is a daemon; the database's own standby is never promoted.)

            Issue 10, goal 1 (round trip): courtside-bench daemon --keepers 1 --security plaintext
            Issue 10, goal 2 (throughput): courtside-bench daemon --keepers 16 --window 32 --games 1000 --security plaintext
            Issue 32 (PostgreSQL beside SQLite, and the takeover): courtside-bench daemon --storage sqlite,postgresql,postgresql-pair --keepers 1,16 --security plaintext
            """)

    @Option(
        help: ArgumentHelp(
            "Concurrent scorekeepers, each waiting for its reply before the next move; several numbers, comma-separated, are a run each.",
            valueName: "counts"))
    var keepers = "8"
    @Option(help: "Games the moves are spread over, as at a venue (each keeper goes round all of them).") var games = 100
    @Option(help: "Moves per keeper.") var moves = 2_000
    @Option(help: "Requests each keeper keeps in flight (1: wait for each reply before the next move).") var window = 1
    @Option(help: "The courtsided binary (default: next to this one).") var courtsided: String?
    @Option(help: "Runs to measure, in order, comma-separated: plaintext, curve (CURVE with a ZAP allowlist).")
    var security = "plaintext,curve"
    @Option(
        help: ArgumentHelp(
            "The keepers' secret certificate for the curve run (default: a new key pair).", valueName: "file"))
    var key: String?
    @Option(
        help: ArgumentHelp(
            "The secret certificate of the daemon the curve run starts (default: a new key pair); it must hold the secret key, since the benchmark starts that daemon.",
            valueName: "file"))
    var serverKey: String?
    @Option(
        help: ArgumentHelp(
            "Where the daemon keeps its event log, comma-separated, each a set of runs: sqlite (its data directory), postgresql (a throwaway PostgreSQL 15 server that the benchmark starts and stops; a new database each run), postgresql-pair (the same on a throwaway primary and its synchronous streaming standby).",
            valueName: "storages"))
    var storage = "sqlite"
    @Option(
        help: ArgumentHelp(
            "With postgresql or postgresql-pair: the daemons' lease (storage.postgresql.lease_ms; default the daemon's, 2000).",
            valueName: "ms"))
    var leaseMs: Int?
    @Option(
        help:
            "With postgresql or postgresql-pair: takeovers to time after its runs (kill -9 of the active of two daemons; 0: none)."
    )
    var takeoverTrials = 5
    @Option(
        help: ArgumentHelp(
            "In the takeover: how long the keeper waits for a reply before it tries the other endpoint.", valueName: "ms"))
    var keeperTimeoutMs = 300
    @OptionGroup var smoke: SmokeOption

    /// The lease the daemons run with when `--lease-ms` is not given (`PostgresLogConfiguration`'s).
    static let defaultLeaseMilliseconds = 2_000

    mutating func validate() throws {
        if smoke.smoke { (games, moves, takeoverTrials) = (min(games, 4), min(moves, 20), min(takeoverTrials, 1)) }
        for mode in security.split(separator: ",") where mode != "plaintext" && mode != "curve" {
            throw ValidationError("--security takes plaintext and curve, not \(mode)")
        }
        guard !keeperCounts.isEmpty, keeperCounts.allSatisfy({ $0 > 0 }),
            keeperCounts.count == keepers.split(separator: ",").count
        else { throw ValidationError("--keepers takes positive numbers, comma-separated, not \(keepers)") }
        for name in storage.split(separator: ",") where BenchStorage.Kind(rawValue: String(name)) == nil {
            throw ValidationError("--storage takes sqlite, postgresql and postgresql-pair, not \(name)")
        }
        guard !storages.isEmpty else { throw ValidationError("--storage needs sqlite, postgresql or postgresql-pair") }
        if let leaseMs, !(200...60_000).contains(leaseMs) {
            throw ValidationError("--lease-ms must be between 200 and 60000, as the daemon's lease_ms")
        }
        guard takeoverTrials >= 0, keeperTimeoutMs > 0 else {
            throw ValidationError("--takeover-trials takes 0 or more, --keeper-timeout-ms a positive number")
        }
    }

    private var keeperCounts: [Int] { keepers.split(separator: ",").compactMap { Int($0) } }
    private var storages: [BenchStorage.Kind] {
        storage.split(separator: ",").compactMap { BenchStorage.Kind(rawValue: String($0)) }
    }

    func run() async throws {
        ChildCleanup.stopOnInterrupt()
        var figures: [DaemonFigures] = []
        var takeovers: [(storage: BenchStorage.Kind, durations: [Duration])] = []
        for kind in storages {
            let storage = try BenchStorage(kind)
            defer { storage.stop() }
            for mode in security.split(separator: ",") {
                var curve: (server: CurveKeyPair, client: CurveKeyPair)?
                if mode == "curve" {
                    func pair(_ path: String?, _ option: String) throws -> CurveKeyPair {
                        guard let path else { return try CurveKeyPair.generate() }
                        guard let pair = try ZMQCertificate.load(path: path).keyPair else {
                            throw ValidationError("\(option) \(path) is a public certificate; the benchmark needs the secret one")
                        }
                        return pair
                    }
                    curve = (try pair(serverKey, "--server-key"), try pair(key, "--key"))
                }
                for count in keeperCounts {
                    print("storage=\(kind.rawValue) security=\(mode) keepers=\(count)")
                    figures.append(
                        try measure(storage, curve: curve, keepers: count, security: String(mode)))
                }
            }
            if storage.isPostgres, takeoverTrials > 0 { takeovers.append((kind, try takeover(storage))) }
        }
        DaemonFigures.report(figures)
        for (kind, durations) in takeovers { reportTakeovers(durations, on: kind) }
    }

    /// Times `--takeover-trials` takeovers, each on a new database of `storage`'s server.
    private func takeover(_ storage: BenchStorage) throws -> [Duration] {
        let trial = TakeoverTrial(
            games: min(games, 10), courtsided: courtsided, leaseMilliseconds: leaseMs ?? Self.defaultLeaseMilliseconds,
            keeperTimeoutMilliseconds: Int32(keeperTimeoutMs))
        return try (1...takeoverTrials).map { number in
            let taken = try trial.run(on: storage)
            print(
                String(
                    format: "takeover %d: %.3f s from kill -9 to the first move acknowledged under the new term", number,
                    taken.inSeconds))
            return taken
        }
    }

    private func reportTakeovers(_ takeovers: [Duration], on storage: BenchStorage.Kind) {
        let seconds = takeovers.map(\.inSeconds).sorted()
        let lease = Double(leaseMs ?? Self.defaultLeaseMilliseconds) / 1000
        print(
            "takeover (\(storage.rawValue), two daemons, lease \(format(lease * 1000)) ms, keeper timeout \(keeperTimeoutMs) ms, \(seconds.count) trials): "
                + seconds.map { String(format: "%.3f", $0) }.joined(separator: " ")
                + String(
                    format: " s; min %.3f  median %.3f  max %.3f s; goal lease + 1 s = %.1f s: ", seconds[0],
                    percentile(seconds, 0.5), seconds[seconds.count - 1], lease + 1)
                + (seconds.allSatisfy { $0 <= lease + 1 }
                    ? "met by every trial" : "missed by \(seconds.count { $0 > lease + 1 }) of \(seconds.count)"))
    }

    func measure(
        _ storage: BenchStorage, curve: (server: CurveKeyPair, client: CurveKeyPair)?, keepers: Int, security: String
    ) throws -> DaemonFigures {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-daemon-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dataDirectory = directory.appendingPathComponent("data")
        let limits = try smoke.machineLimits(directory: dataDirectory)
        limits.report()
        let storageConfig = try storage.newLogConfig(leaseMilliseconds: leaseMs)
        // In a database of its own: the probe's log takes a lease there.
        let postgres = try storage.newDatabase().map {
            try PostgresCommitLimit.measure($0, commits: smoke.smoke ? 10 : 300)
        }
        postgres?.report()
        let commit = postgres.map { CommitLimit(name: "pg commit", p50: $0.p50, p99: $0.p99) } ?? limits.fdatasyncCommit
        let ports = freeLoopbackPorts(2)
        let command = "tcp://127.0.0.1:\(ports[0])"
        let events = "tcp://127.0.0.1:\(ports[1])"
        var config = """
            data_dir: \(dataDirectory.path)
            endpoints: { command: "\(command)", events: "\(events)" }

            """
        let clientKeys = curve.map { CurveClientKeys(client: $0.client, serverPublicKey: $0.server.publicKey) }
        if let curve {
            _ = try ZMQCertificate.write(curve.server, name: "server", directory: directory.path)
            config =
                """
                security:
                  server_certificate: server.key_secret
                  clients:
                    - { name: bench, public_key: "\(curve.client.publicKey.z85)", role: organiser }

                """ + config
        }
        let daemon = try BenchDaemon(
            config: config + storageConfig + benchRoster(games: games), in: directory, executable: courtsided)
        defer { daemon.stop() }
        let context = try ZMQContext()
        try waitUntilServing(context, command, curve: clientKeys)

        // The subscriber counts events on its own thread.
        let total = keepers * moves
        let subscriber = BlockingThread { () throws -> (Int, Duration) in
            let socket = try context.socket(.sub)
            try socket.set(.linger(milliseconds: 0))
            try socket.set(.receiveTimeout(milliseconds: 5000))
            if let clientKeys { try socket.useCurve(clientKeys) }
            try socket.connect(events)
            try socket.set(.subscribe([]))
            var first: ContinuousClock.Instant?
            var last = ContinuousClock.now
            var count = 0
            // Heartbeats keep arriving after the last event: a subscriber that fell past the
            // publisher's high-water mark (events dropped) stops once no event came for 10 s.
            while count < total, ContinuousClock.now - last < .seconds(10) {
                let frames: [[UInt8]]
                do { frames = try socket.receive() } catch let error as ZMQError where error.wouldBlock { continue }
                // Only events count: not heartbeats, game beats, standings or bracket.
                guard frames.count == 2, frames[0].suffix(6).elementsEqual("/event".utf8) else { continue }
                if first == nil { first = .now }
                last = .now
                count += 1
            }
            return (count, last - (first ?? last))
        }
        usleep(300_000)  // let the subscription reach the daemon

        let load = KeeperLoad(keepers: keepers, games: games, window: window, curve: clientKeys)
        let cpuBefore = (ReadsBench.cpuSeconds(daemon.processIdentifier), ReadsBench.cpuSeconds(getpid()))
        let switchesBefore = ContextSwitches.of(daemon.processIdentifier)
        let (latencies, elapsed) = try load.drive(context, command, moves: moves)
        let switches = ContextSwitches.of(daemon.processIdentifier) - switchesBefore
        let cpu = (
            daemon: ReadsBench.cpuSeconds(daemon.processIdentifier) - cpuBefore.0,
            bench: ReadsBench.cpuSeconds(getpid()) - cpuBefore.1
        )
        let seconds = elapsed.inSeconds
        let (received, listening) = try subscriber.wait().get()
        let listeningSeconds = listening.inSeconds
        print(
            "keepers=\(keepers) games=\(games) moves/keeper=\(moves) window=\(window) (requests in flight per keeper; replies are sent after the commit)"
        )
        print(
            "round trip us: p50 \(format(percentile(latencies, 0.5)))  p99 \(format(percentile(latencies, 0.99)))  max \(format(latencies.last ?? 0))"
        )
        print(limits.roundTripRatios(p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), commit: commit))
        let movesPerSecond = Double(latencies.count) / seconds
        print("acknowledged moves/s: \(format(movesPerSecond))")
        // What bounds throughput on a machine whose cores the keepers share: at most
        // cores / (both figures) moves a second. Ticks of 10 ms: read it over thousands of moves.
        let perMove = { (seconds: Double) in format(seconds * 1e6 / Double(max(latencies.count, 1))) }
        print(
            "CPU per acknowledged move: courtsided \(perMove(cpu.daemon)) us (\(String(format: "%.2f", cpu.daemon / seconds)) cores), "
                + "this benchmark's keepers and subscriber \(perMove(cpu.bench)) us (\(String(format: "%.2f", cpu.bench / seconds)) cores), "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores here")
        // The hand-overs a move makes between threads (I/O thread, game actors, log writer):
        // each blocked thread is a voluntary switch, whichever futex or poll it waited on.
        print("context switches per acknowledged move in courtsided: \(switches.perMove(latencies.count))")
        // Which thread spends the CPU and blocks: the pool (game actors, command service,
        // publisher), the log writer, the checkpoint writer, the I/O thread, libzmq's own.
        print("courtsided per acknowledged move, by thread (CPU, voluntary switches): \(switches.byRole(latencies.count))")
        let echo = try RawEcho.throughput(
            keepers: keepers, window: window, messages: min(total, 50_000), requestSize: MachineLimits.requestSize,
            replySize: MachineLimits.replySize)
        print(
            "acknowledged moves/s ratio to raw libzmq DEALER/ROUTER echo (same keepers and window, \(format(echo)) msgs/s): \(String(format: "%.3f", movesPerSecond / echo)); moves per commit time (moves/s / (1e6 / \(commit.name) p50)): \(String(format: "%.1f", movesPerSecond * commit.p50 / 1e6))"
        )
        print("events/s at one subscriber: \(format(Double(received) / listeningSeconds)) (\(received) events)")
        if received < total {
            print("the subscriber received \(received) of \(total) events: it fell behind and ZeroMQ dropped the rest")
        }
        return DaemonFigures(
            storage: storage.kind.rawValue, security: security, keepers: keepers, window: window,
            p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), zmqP50: limits.zmqP50, zmqP99: limits.zmqP99,
            commit: commit, movesPerSecond: movesPerSecond)
    }
}
