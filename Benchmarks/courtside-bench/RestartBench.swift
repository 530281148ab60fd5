import ArgumentParser
import CourtsideLibrary
import CourtsideModel
import CourtsideStorage
import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// How long a start takes over a long log, with and without checkpoints, and the memory a
/// tournament takes once open. Each open runs in a process of its own, so that its time and
/// its RSS are those of a fresh start, not of the process that filled the log.
struct RestartBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restart",
        abstract: "Fills an event log, then times opening the library (≈ READY) with and without checkpoints.",
        discussion: """
            The log is filled through the storage API: games, then moves spread over them by 16 keepers, \
            with a retraction now and then. Each open runs in a child process, which prints the time to \
            open (the library serves from then on), to the first answer, and until the retry memory is \
            loaded (a retry of a command from before the start waits for it), and its RSS. Then the \
            same for a venue's worth of small games (--small-games, 5 moves each), for the memory figure.
            """)

    @Option(help: "Events in the long log (0: none).") var events = 1_000_000
    @Option(help: "Games in the long log.") var games = 10_000
    @Option(help: "Events after the checkpoint in the long log (a crash just before the next one).")
    var tail = CheckpointPolicy().interval
    @Option(help: "Games of the memory figure, with 5 moves each (0: none).") var smallGames = 10_000
    @Option(help: "Opens to time for each figure; the best is printed.") var runs = 3
    @Option(help: "Where to keep the logs, reused when there (default: a temporary directory, removed after).")
    var directory: String?
    @Option(help: .hidden) var open: String?
    @Flag(help: .hidden) var full = false
    /// With --open: serve one keeper's moves through a checkpoint written in parts of this many
    /// microseconds (negative: no checkpoint).
    @Option(help: .hidden) var serve: Int?
    /// With --serve: the keeper's moves before the checkpoint begins, and after it is written.
    @Option(help: .hidden) var serveMoves = 500
    @OptionGroup var smoke: SmokeOption

    mutating func validate() throws {
        if smoke.smoke {
            (events, games, smallGames, runs, serveMoves) = (min(events, 2_000), min(games, 20), min(smallGames, 20), 1, 20)
            // The checkpoint must fall inside the shrunk log.
            tail = min(tail, events / 2)
        }
    }

    func run() async throws {
        if let open {
            if let serve {
                return try await Self.serveOnce(
                    URL(fileURLWithPath: open), partBudget: .microseconds(serve), moves: serveMoves)
            }
            return try await Self.openOnce(URL(fileURLWithPath: open), full: full)
        }
        let root =
            directory.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("bench-restart-\(UUID().uuidString)")
        defer { if directory == nil { try? FileManager.default.removeItem(at: root) } }

        if events > 0 {
            print("long log: \(events) events over \(games) games, checkpoint \(tail) events before the end")
            let long = root.appendingPathComponent("long-\(events)-\(games)-\(tail)")
            try Self.fill(long, games: games, events: events, checkpointBefore: tail, movesPerGame: nil)
            try compare(long, checkpointed: "checkpoint + \(tail) events")
            try serveDuringCheckpoint(long)
            print("")
        }
        guard smallGames > 0 else { return }
        print("venue: \(smallGames) games with 5 moves each, checkpoint at the end")
        let small = root.appendingPathComponent("venue-\(smallGames)")
        try Self.fill(small, games: smallGames, events: 0, checkpointBefore: 0, movesPerGame: 5)
        try compare(small, checkpointed: "checkpoint")
    }

    /// Opens `directory` `runs` times from its checkpoint and `runs` times by a full replay.
    func compare(_ directory: URL, checkpointed: String) throws {
        print("start                            open_ms  open_cpu_ms  first_answer_ms  retry_memory_ms  rss_mib  peak_rss_mib")
        for (label, full) in [(checkpointed, false), ("full replay (no checkpoint)", true)] {
            var best: [String: Double]?
            for _ in 0..<runs {
                let figures = try Self.child(directory, full: full)
                if best == nil || figures["open_ms", default: 0] < best!["open_ms", default: 0] { best = figures }
            }
            guard let best else { continue }
            print(
                label.padding(toLength: 32, withPad: " ", startingAt: 0)
                    + String(
                        format: " %7.0f  %11.0f  %15.0f  %15.0f  %7.1f  %12.1f", best["open_ms"] ?? .nan,
                        best["open_cpu_ms"] ?? .nan,
                        best["first_answer_ms"] ?? .nan,
                        best["retry_memory_ms"] ?? .nan, (best["rss_kib"] ?? .nan) / 1024, (best["hwm_kib"] ?? .nan) / 1024))
        }
    }

    /// One keeper's moves while a checkpoint of every game the tail changed is written on the
    /// library's checkpoint thread: in parts, as courtsided writes it, and in one part, for
    /// comparison (it holds no commit up either way; its copy of the WAL differs).
    func serveDuringCheckpoint(_ directory: URL) throws {
        print(
            "one keeper's moves (\(serveMoves) before, \(serveMoves) after) while a checkpoint of the games the tail changed is written:"
        )
        print("checkpoint written          moves  p50_us  p99_us  max_us  checkpoint_ms  parts")
        let budget = CheckpointPolicy().partBudget
        for (label, budget) in [
            ("none (for comparison)", -1), ("in parts of \(budget.inMicroseconds) us", budget.inMicroseconds),
            ("in one go", Int(Int32.max)),
        ] {
            // On a copy: the checkpoint changes the log the other figures read.
            let copy = directory.deletingLastPathComponent().appendingPathComponent("serve-\(UUID().uuidString)")
            try FileManager.default.copyItem(at: directory, to: copy)
            defer { try? FileManager.default.removeItem(at: copy) }
            // On disk before the run: the first fsync would otherwise write the whole copy.
            for file in try FileManager.default.contentsOfDirectory(atPath: copy.path) {
                try FileHandle(forUpdating: copy.appendingPathComponent(file)).synchronize()
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            process.arguments = ["restart", "--open", copy.path, "--serve=\(budget)", "--serve-moves", "\(serveMoves)"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            var figures: [String: Double] = [:]
            for pair in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace) {
                let parts = pair.split(separator: "=")
                if parts.count == 2, let value = Double(parts[1]) { figures[String(parts[0])] = value }
            }
            print(
                label.padding(toLength: 26, withPad: " ", startingAt: 0)
                    + String(
                        format: " %6.0f  %6.0f  %6.0f  %6.0f  %13.0f  %5.0f", figures["moves"] ?? .nan, figures["p50_us"] ?? .nan,
                        figures["p99_us"] ?? .nan, figures["max_us"] ?? .nan, figures["checkpoint_ms"] ?? .nan,
                        figures["parts"] ?? .nan))
        }
    }

    /// Opens the library and waits for its retry memory, then sends one keeper's moves, one at a
    /// time: after `moves` of them (with the tail, an interval since the checkpoint) a checkpoint
    /// begins; `moves` more after it is written.
    static func serveOnce(_ directory: URL, partBudget: Duration, moves: Int) async throws {
        let written = CheckpointWatch()
        let log = try SQLiteEventLog(directory: directory)
        let tail = try log.readCheckpoint().map { try log.readEvents(after: $0.sequence).count } ?? 0
        let library = try GameLibrary(
            log: log,
            checkpoints: CheckpointPolicy(
                interval: partBudget < .zero ? .max : tail + moves, atClose: false, partBudget: partBudget),
            logger: Logger(label: "bench") { _ in written })
        let last = library.gameIDs().count - 1
        _ = try await library.createGame(setup(last), origin: CommandOrigin(clientID: "keeper-16", commandID: "\(last + 1)"))
        var latencies: [Double] = []
        let games = library.gameIDs()
        var random = SeededRandom(seed: 1)
        var after = 0
        let started = ContinuousClock.now
        while after < moves, ContinuousClock.now - started < .seconds(60) {
            if written.figures != nil || (partBudget < .zero && latencies.count >= 2 * moves) { after += 1 }
            let game = games[Int(random.next() % UInt64(games.count))]
            let sent = ContinuousClock.now
            _ = try? await library.apply(
                .move(player: PlayerID("p\(game.rawValue.dropFirst())-0"), move: .rebound), to: game,
                origin: CommandOrigin(clientID: "bench", commandID: UUID().uuidString))
            latencies.append((ContinuousClock.now - sent).inSeconds * 1e6)
        }
        latencies.sort()
        let (milliseconds, parts) = written.figures ?? (.nan, .nan)
        print(
            "moves=\(latencies.count) p50_us=\(percentile(latencies, 0.5)) p99_us=\(percentile(latencies, 0.99))",
            "max_us=\(latencies.last ?? .nan) checkpoint_ms=\(milliseconds) parts=\(parts)",
            "p90_us=\(percentile(latencies, 0.9)) p95_us=\(percentile(latencies, 0.95)) over2ms=\(latencies.filter { $0 > 2000 }.count)"
        )
        await library.close()
    }

    // MARK: - Filling

    static func setup(_ index: Int) -> GameSetup {
        func team(_ side: String, _ players: Range<Int>) -> Team {
            Team(
                id: TeamID("t\(index)\(side)"), name: "Team \(index) \(side)",
                players: players.map { Player(id: PlayerID("p\(index)-\($0)"), name: "Player \($0)") })
        }
        return GameSetup(id: GameID("g\(index)"), home: team("h", 0..<3), away: team("a", 3..<6), rules: RulePresets.fiba3x3)
    }

    /// Writes games and moves through the storage API, folding the games as it goes, and a
    /// checkpoint of every game `checkpointBefore` events before the end. With `movesPerGame`,
    /// each game gets that many moves; otherwise `events` in all, at random games.
    static func fill(_ directory: URL, games count: Int, events total: Int, checkpointBefore: Int, movesPerGame: Int?) throws {
        if FileManager.default.fileExists(atPath: directory.appendingPathComponent(SQLiteEventLog.fileName).path) {
            print("reusing the log in \(directory.path)")
            let log = try SQLiteEventLog(directory: directory)
            let games = try log.readCheckpoint()?.games ?? []
            try log.close()
            return try measureCoding(games, directory: directory)
        }
        let started = ContinuousClock.now
        let log = try SQLiteEventLog(directory: directory)
        var games: [GameID: Game] = [:]
        var batch: [GameEvent] = []
        var sequence: Int64 = 0
        var time = Timestamp(milliseconds: 1_700_000_000_000)
        var random = SeededRandom(seed: 42)
        var checkpointTime = Duration.zero
        let total = movesPerGame.map { count * (1 + $0) } ?? total
        func append(_ id: GameID, _ kind: GameEvent.Kind, keeper: Int) throws {
            sequence += 1
            time = time.adding(milliseconds: Int64(random.next() % 3))
            let version = (games[id]?.version ?? 0) + 1
            let event = GameEvent(
                gameID: id, version: version, sequence: sequence, at: time,
                origin: CommandOrigin(clientID: "keeper-\(keeper)", commandID: "\(sequence)"), kind: kind)
            if case .gameCreated(let setup) = kind { games[id] = Game(setup: setup) } else { games[id]?.apply(event) }
            batch.append(event)
            if batch.count == 5_000 {
                try log.append(batch, refusals: [])
                batch = []
            }
            if sequence == Int64(total - checkpointBefore) {
                try log.append(batch, refusals: [])
                batch = []
                let writing = ContinuousClock.now
                try log.writeCheckpoint(sequence: sequence, changed: Array(games.values), complete: true, gameCount: games.count)
                checkpointTime = ContinuousClock.now - writing
            }
        }
        for index in 0..<count { try append(GameID("g\(index)"), .gameCreated(setup(index)), keeper: 16) }
        let moves: [MoveKind] = [.rebound, .assist, .foul, .rebound, .onePoint]
        var number = 0
        while Int(sequence) < total {
            let game = movesPerGame.map { _ in number % count } ?? Int(random.next() % UInt64(count))
            let id = GameID("g\(game)")
            number += 1
            // Every 50th move retracts the game's last play that still counts (as undo does).
            if number % 50 == 0, let target = games[id]?.plays.last(where: { $0.retractedBy == nil }) {
                try append(id, .retraction(targetVersion: target.version), keeper: game % 16)
            } else {
                let player = PlayerID("p\(game)-\(Int(random.next() % 6))")
                try append(id, .move(player: player, move: moves[Int(random.next() % 5)]), keeper: game % 16)
            }
        }
        try log.append(batch, refusals: [])
        try log.close()
        let seconds = (ContinuousClock.now - started).inSeconds
        print(
            String(
                format: "filled %d events in %.1f s; checkpoint of %d games written in %.0f ms (%.1f us a game)", total, seconds,
                games.count, checkpointTime.inSeconds * 1e3, checkpointTime.inSeconds * 1e6 / Double(max(1, games.count))))
        try measureCoding(Array(games.values), directory: directory)
    }

    /// The encodings a checkpoint could use, on these games, and what replaying an event costs.
    static func measureCoding(_ games: [Game], directory: URL) throws {
        // CPU time of this thread, not wall time: on a shared machine the latter measures the neighbours.
        func time(_ body: () throws -> Void) rethrows -> Double {
            let start = threadCPUTime()
            try body()
            return (threadCPUTime() - start) * 1e6 / Double(max(1, games.count))
        }
        var binary: [[UInt8]] = []
        let binaryEncode = time { binary = games.map(CheckpointCoding.encode) }
        let binaryDecode = try time { for bytes in binary { _ = try CheckpointCoding.decode(bytes) } }
        let json = JSONEncoder()
        var jsons: [Data] = []
        let jsonEncode = try time { jsons = try games.map { try json.encode($0) } }
        let jsonDecoder = JSONDecoder()
        let jsonDecode = try time { for data in jsons { _ = try jsonDecoder.decode(Game.self, from: data) } }
        let plist = PropertyListEncoder()
        plist.outputFormat = .binary
        var plists: [Data] = []
        let plistEncode = try time { plists = try games.map { try plist.encode($0) } }
        let plistDecoder = PropertyListDecoder()
        let plistDecode = try time { for data in plists { _ = try plistDecoder.decode(Game.self, from: data) } }
        func size(_ sizes: [Int]) -> Int { sizes.reduce(0, +) / max(1, sizes.count) }
        print("checkpoint encoding, per game (CPU time)  encode_us  decode_us  bytes")
        print(
            String(
                format: "  binary (CheckpointCoding)            %9.1f  %9.1f  %5d", binaryEncode, binaryDecode,
                size(binary.map(\.count))))
        print(
            String(
                format: "  JSON (Foundation)                    %9.1f  %9.1f  %5d", jsonEncode, jsonDecode,
                size(jsons.map(\.count))))
        print(
            String(
                format: "  binary plist (Foundation)            %9.1f  %9.1f  %5d", plistEncode, plistDecode,
                size(plists.map(\.count))))

        // What the tail after a checkpoint costs a start, per event: reading and decoding, then the fold.
        let log = try SQLiteEventLog(directory: directory)
        defer { try? log.close() }
        let reading = threadCPUTime()
        let events = try log.readAll()
        let read = threadCPUTime() - reading
        let folding = threadCPUTime()
        var folded: [GameID: Game] = [:]
        for event in events {
            if case .gameCreated(let setup) = event.kind {
                folded[event.gameID] = Game(setup: setup)
            } else {
                folded[event.gameID]?.apply(event)
            }
        }
        let fold = threadCPUTime() - folding
        // And writing them all as one checkpoint (encoding, then SQLite, one transaction), into a
        // log of its own: this one's checkpoint must stay where the figures below expect it.
        let scratch = directory.deletingLastPathComponent().appendingPathComponent("scratch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let other = try SQLiteEventLog(directory: scratch)
        let writing = threadCPUTime()
        try other.writeCheckpoint(sequence: 1, changed: Array(folded.values), complete: true, gameCount: folded.count)
        let write = threadCPUTime() - writing
        try other.close()
        print(
            String(
                format: "replay, per event (CPU time): read and decode %.2f us, fold %.2f us (%d events)",
                read * 1e6 / Double(max(1, events.count)), fold * 1e6 / Double(max(1, events.count)), events.count))
        print(
            String(
                format: "checkpoint write, per game (CPU time): %.2f us, encoding included (%d games)",
                write * 1e6 / Double(max(1, folded.count)), folded.count))
    }

    // MARK: - One open, in a child process

    /// Runs this benchmark again to open `directory` once, and reads the figures it prints.
    static func child(_ directory: URL, full: Bool) throws -> [String: Double] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        process.arguments = ["restart", "--open", directory.path] + (full ? ["--full"] : [])
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ValidationError("the open failed: \(String(decoding: data, as: UTF8.self))")
        }
        var figures: [String: Double] = [:]
        for pair in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace) {
            let parts = pair.split(separator: "=")
            if parts.count == 2, let value = Double(parts[1]) { figures[String(parts[0])] = value }
        }
        return figures
    }

    /// Opens the library once and prints `key=value` figures: the time to open, to answer a new
    /// command, and to answer a retry of the log's first command (which waits for the retry
    /// memory), then the RSS. Nothing is written but that command: no checkpoint at close.
    static func openOnce(_ directory: URL, full: Bool) async throws {
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let started = ContinuousClock.now
        let cpu = threadCPUTime()
        let library = try GameLibrary(
            log: SQLiteEventLog(directory: directory),
            checkpoints: CheckpointPolicy(interval: .max, atClose: false, restore: !full), logger: logger)
        let opened = ContinuousClock.now - started
        let openedCPU = threadCPUTime() - cpu
        // A new command: answered at once (a refusal, if g0 has ended, is an answer too).
        _ = try? await library.apply(
            .move(player: "p0-0", move: .rebound), to: "g0",
            origin: CommandOrigin(clientID: "bench", commandID: UUID().uuidString))
        let answered = ContinuousClock.now - started
        // A retry of the last game's creation: answered from the retry memory once it is loaded.
        let last = library.gameIDs().count - 1
        let retry = try await library.createGame(
            setup(last), origin: CommandOrigin(clientID: "keeper-16", commandID: "\(last + 1)"))
        guard retry.version == 1 else { throw ValidationError("the retry got \(retry), not its original receipt") }
        let remembered = ContinuousClock.now - started
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        func kib(_ key: String) -> Int {
            let line = status.split(separator: "\n").first { $0.hasPrefix(key) } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        print(
            "open_ms=\(opened.inSeconds * 1e3) open_cpu_ms=\(openedCPU * 1e3) first_answer_ms=\(answered.inSeconds * 1e3)",
            "retry_memory_ms=\(remembered.inSeconds * 1e3) rss_kib=\(kib("VmRSS:")) hwm_kib=\(kib("VmHWM:"))",
            "games=\(library.gameIDs().count) remembered=\(library.rememberedAnswers)")
        await library.close()
    }
}

/// Catches the library's "checkpoint written" line: how long it took, in how many parts.
final class CheckpointWatch: LogHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var written: (Double, Double)?
    var figures: (milliseconds: Double, parts: Double)? { lock.withLock { written } }
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        guard "\(event.message)" == "checkpoint written", let metadata = event.metadata else { return }
        let milliseconds = Double("\(metadata["checkpoint.ms"] ?? "")") ?? .nan
        let parts = Double("\(metadata["checkpoint.parts"] ?? "")") ?? .nan
        lock.withLock { written = (milliseconds, parts) }
    }
}

extension Duration {
    var inMicroseconds: Int { Int(nanoseconds / 1000) }
}

/// CPU seconds this thread has used.
func threadCPUTime() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}
