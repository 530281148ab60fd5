import CourtsideModel
import CourtsidePostgres
public import CourtsideStorageTesting
import CourtsideThreads
import Dispatch
import Foundation
import Logging
import Synchronization

/// One failover trial on a new ``TestPostgresPair``: writers append to the log, each through a
/// ``PostgresEventLog`` of its own, and record every append that returned (acknowledged); at a
/// random moment the primary is killed with -9; the standby is promoted, the log read back from
/// it, and checked: every acknowledged event there exactly once.
///
/// With a synchronous pair nothing acknowledged may be missing; with the asynchronous control an
/// event may be, when the primary acknowledged it before the standby had it.
public struct ReplicationTrial: Sendable {
    /// The control: the standby is not waited for.
    public var asynchronous: Bool
    /// How many threads append at once, each to a game of its own.
    public var writers: Int
    /// When to kill the primary, in seconds after the first acknowledgement: a random moment in it.
    public var killAfter: ClosedRange<Double>

    /// What a trial found.
    public struct Outcome: Sendable {
        /// Acknowledged events (by sequence) against those on the promoted node.
        public let check: AcknowledgementCheck<Int64>
        /// When the primary was killed, in seconds after the first acknowledgement.
        public let killedAfter: Double
        /// Writers whose append had not returned 2 s after the kill, though their connection was gone.
        public let strandedWriters: Int
    }

    public init(asynchronous: Bool = false, writers: Int = 4, killAfter: ClosedRange<Double> = 0.2...0.8) {
        self.asynchronous = asynchronous
        self.writers = writers
        self.killAfter = killAfter
    }

    /// Runs the trial on a thread of its own (it blocks on servers and writers for seconds).
    public func run() async throws -> Outcome {
        try await blockingCall(named: "repl-trial") { try self.runBlocking() }
    }

    /// Runs the trial on the calling thread: not the cooperative pool's.
    public func runBlocking() throws -> Outcome {
        let logger = Logger(label: "courtside.replication-trial") { _ in SwiftLogNoOpLogHandler() }
        let pair = try TestPostgresPair(asynchronous: asynchronous)
        defer { pair.stop() }
        var logs: [PostgresEventLog] = []
        do {
            for _ in 0..<writers { logs.append(try PostgresEventLog(configuration: pair.configuration, logger: logger)) }
        } catch {
            for log in logs { try? log.close() }  // a log let go while open fails postgres-nio's assertion
            throw error
        }
        let acknowledged = Mutex<[Int64]>([])
        let finished = DispatchGroup()
        let returned = Mutex(0)
        for (index, log) in logs.enumerated() {
            finished.enter()
            startThread(named: "repl-writer\(index)") {
                defer {
                    returned.withLock { $0 += 1 }
                    finished.leave()
                }
                Self.append(to: log, game: GameID("w\(index)"), sequenceOffset: Int64(index) * 1_000_000_000) { batch in
                    acknowledged.withLock { $0.append(contentsOf: batch) }
                }
                try? log.close()
            }
        }
        // The moment counts from the first acknowledgement, so that a slow start never makes a trial of nothing.
        let started = Date()
        while acknowledged.withLock({ $0.isEmpty }) && Date().timeIntervalSince(started) < 30 { usleep(1_000) }
        let killedAfter = Double.random(in: killAfter)
        Thread.sleep(forTimeInterval: killedAfter)
        try pair.killPrimary()
        // Every writer's connection is gone with the primary: its append fails, or never returns
        // (postgres-nio 1.33.2 never answers a query written to a closed connection, and the
        // log's append writes a ROLLBACK after its failed COMMIT). Either way nothing more is
        // acknowledged; a writer that has not returned within the grace is left behind, holding its log.
        let stranded = finished.wait(timeout: .now() + 2) == .success ? 0 : logs.count - returned.withLock { $0 }
        try pair.promoteStandby()
        let reader = try PostgresEventLog(configuration: pair.configuration, logger: logger)
        defer { try? reader.close() }
        let found = try reader.readAll().map(\.sequence)
        return Outcome(
            check: AcknowledgementCheck(acknowledged: acknowledged.withLock { $0 }, found: found), killedAfter: killedAfter,
            strandedWriters: stranded)
    }

    /// Appends batches of one to three events of `game` until an append fails (the primary is
    /// gone), reporting the sequences of each append that returned.
    private static func append(
        to log: PostgresEventLog, game: GameID, sequenceOffset: Int64, acknowledged: ([Int64]) -> Void
    ) {
        var version = 1
        while true {
            let batch = LogFixtures.events(
                version...(version + Int.random(in: 0...2)), game: game, sequenceOffset: sequenceOffset)
            do {
                try log.append(batch, refusals: [])
            } catch {
                return
            }
            acknowledged(batch.map(\.sequence))
            version += batch.count
        }
    }
}
