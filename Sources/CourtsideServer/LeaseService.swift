import CourtsidePostgres
import CourtsideThreads
import Logging
import ServiceLifecycle
import Synchronization

/// Keeps the active daemon's lease, from the moment its standby took it until the lease is lost
/// or the log closes, and publishes where it stands as an async sequence (``statuses``).
///
/// It owns the lease's keeping (`PostgresEventLog.keepLease`, which performs the
/// ``LeaseStateMachine``'s actions on an event loop). Keeping starts as the service is made, not
/// when the active daemon's services start: the library's replay, between the two, may outlast
/// the lease. The
/// moment the lease is lost it cuts the log's connections and the service throws
/// ``SteppedDown``, which stops the active daemon's services; cancelled, it cuts them too, so
/// that no service waits on a database gone silent.
final class LeaseService: Service {
    /// Why the daemon stepped down.
    struct SteppedDown: Error, CustomStringConvertible {
        var term: Int64
        var reason: LeaseStateMachine.StepDownReason
        /// When the lease was lost: the daemon stopped serving then.
        var at: ContinuousClock.Instant
        var description: String {
            switch reason {
            case .takenOver: "stepped down: another courtsided took the lease after term \(term)"
            case .ranOut:
                "stepped down: the lease of term \(term) ran out before it could be renewed (a pause, or the database unreachable)"
            case .cut: "stepped down: the event log's connections were cut while holding the lease of term \(term)"
            }
        }
    }

    let log: PostgresEventLog
    /// Each change of the lease's standing, the newest kept for a late reader; it ends with the keeping.
    let statuses: AsyncStream<LeaseStatus>
    private let keeping: LeaseKeeping
    /// When the keeping ended: the daemon stopped serving then, if it stepped down.
    private let endedAt = Mutex<ContinuousClock.Instant?>(nil)
    private let logger: Logger

    init(log: PostgresEventLog, logger: Logger) {
        self.log = log
        self.logger = logger
        let (statuses, continuation) = AsyncStream.makeStream(of: LeaseStatus.self, bufferingPolicy: .bufferingNewest(16))
        self.statuses = statuses
        keeping = log.keepLease { continuation.yield($0) }
        keeping.whenEnded { [self] _ in
            endedAt.withLock { $0 = .now }
            continuation.finish()
        }
    }

    /// The step-down, once the lease is lost; nil while it is kept, or once handed back.
    var steppedDown: SteppedDown? {
        get async {
            guard case .fenced = log.leaseStatus, case .steppedDown(let term, let reason) = await keeping.end else { return nil }
            return SteppedDown(term: term, reason: reason, at: endedAt.withLock { $0 } ?? .now)
        }
    }

    /// Gives the lease up without serving (the active daemon could not start): its connections
    /// are cut, and the keeping ends.
    func abandon() async {
        log.cut()
        _ = await keeping.end
    }

    /// Hands the lease back without serving (a stop came as it was taken): the log closes.
    func handBack() async {
        _ = try? await blockingCall(named: "lease") { [log] in try log.close() }
        _ = await keeping.end
    }

    func run() async throws {
        let end = await withTaskCancellationHandler {
            await keeping.end
        } onCancel: { [log] in
            log.cut()
        }
        switch end {
        case .released:
            // The log closed as the daemon stops: this service stops last, when told.
            try? await gracefulShutdown()
        case .steppedDown(let term, let reason):
            let steppedDown = SteppedDown(term: term, reason: reason, at: endedAt.withLock { $0 } ?? .now)
            logger.critical("\(steppedDown)", metadata: ["lease.term": "\(term)"])
            throw steppedDown
        }
    }
}
