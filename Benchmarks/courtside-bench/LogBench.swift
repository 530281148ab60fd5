import ArgumentParser
import CourtsideModel
import CourtsideStorage
import Foundation

/// The log's own share of a quiet round trip: one-event commits back to back through
/// `SQLiteEventLog.append`, beside a bare append + fdatasync on the same file system.
struct LogBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "One-event commits through the SQLite log, back to back, beside a bare append + fdatasync.",
        discussion: """
            What a quiet keeper's commit costs in the log writer: GRDB's transaction, SQLite's \
            insert and its WAL write, then the fsync. The difference to the bare fdatasync is \
            the writer's own time, which issue 10's goal 1 (round trip) pays on every move. \
            Under perf record, --no-limits leaves only the commits in the profile.
            """)

    @Option(help: "Commits to time (after 200 to warm up).") var commits = 3_000
    @Option(help: "The directory for the log (default: a new one under the temporary directory).") var directory: String?
    @Flag(help: "Skip the bare fdatasync between commits (for a profile of the commits alone).") var noLimits = false
    @OptionGroup var smoke: SmokeOption

    mutating func validate() throws {
        if smoke.smoke { commits = min(commits, 20) }
    }

    func run() throws {
        let base = directory.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory
        let logDirectory = base.appendingPathComponent("bench-log-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: logDirectory) }
        let log = try SQLiteEventLog(directory: logDirectory)
        defer { try? log.close() }
        // The probe's fdatasync alternates with the commits, so both see the same disk and load.
        let probe = noLimits ? nil : try SyncProbe(in: logDirectory)
        let game = GameID("g1")
        let warmUp = smoke.smoke ? 10 : 200
        var latencies: [Double] = []
        var syncs: [Double] = []
        latencies.reserveCapacity(commits)
        syncs.reserveCapacity(commits)
        for index in 0..<(warmUp + commits) {
            let event = GameEvent(
                gameID: game, version: index + 1, sequence: Int64(index + 1),
                at: Timestamp(milliseconds: Int64(index)), origin: CommandOrigin(clientID: "k", commandID: "\(index)"),
                kind: .move(player: "p1", move: .twoPoints))
            let start = ContinuousClock.now
            try log.append([event], refusals: [])
            let took = (ContinuousClock.now - start).inSeconds * 1e6
            let synced = try probe?.sync()
            if index >= warmUp {
                latencies.append(took)
                if let synced { syncs.append(synced) }
            }
        }
        latencies.sort()
        syncs.sort()
        print("one-event commits: \(commits) (after \(warmUp) to warm up), in \(logDirectory.path)")
        print("commit us: p50 \(format(percentile(latencies, 0.5)))  p99 \(format(percentile(latencies, 0.99)))")
        guard !syncs.isEmpty else { return }
        let syncP50 = percentile(syncs, 0.5)
        print(
            "machine: append \(MachineLimits.recordSize) bytes + fdatasync us, between the commits: p50 \(format(syncP50))  p99 \(format(percentile(syncs, 0.99)))"
        )
        print(
            String(
                format: "commit over fdatasync: p50 %.2f (the writer's own time: about %.0f us a commit)",
                percentile(latencies, 0.5) / syncP50, percentile(latencies, 0.5) - syncP50))
    }
}
