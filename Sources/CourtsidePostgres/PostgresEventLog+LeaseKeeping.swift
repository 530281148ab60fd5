import CourtsideModel
import Logging
import PostgresNIO

/// Why the keeping of a lease ended.
public enum LeaseEnd: Sendable, Equatable {
    /// The log closed and handed the lease back, or no lease was held.
    case released
    /// The lease of `term` was lost: the log's connections are cut, and the daemon must serve
    /// nothing more.
    case steppedDown(term: Int64, reason: LeaseStateMachine.StepDownReason)
}

/// A lease being kept (``PostgresEventLog/keepLease(reporting:)``), and how the keeping ends.
public struct LeaseKeeping: Sendable {
    let future: EventLoopFuture<LeaseEnd>

    /// How the keeping ended: returns once the lease is handed back or lost.
    public var end: LeaseEnd {
        get async { (try? await future.get()) ?? .released }
    }

    /// Runs `body` with how the keeping ended, as soon as it has.
    public func whenEnded(_ body: @escaping @Sendable (LeaseEnd) -> Void) {
        future.whenSuccess(body)
    }
}

/// The keeper's own state, on its event loop.
struct LeaseKeepingState {
    var ended: EventLoopPromise<LeaseEnd>?
    var report: (@Sendable (LeaseStatus) -> Void)?
    var reported: LeaseStatus?
    var timer: Scheduled<Void>?
}

extension PostgresEventLog {
    /// Keeps the lease this log took, performing its ``LeaseStateMachine``'s actions from now on:
    /// renews it a quarter lease after the last renewal (each commit renews it too), and steps
    /// down the moment it runs out or another daemon takes it. Stepping down cuts every
    /// connection of the log (``cut()``), so that nothing waits on a server that may never
    /// answer. Each change of the lease's standing goes to `report`.
    ///
    /// The keeper runs on an event loop: a timer until the next renewal is due or the lease
    /// would run out, woken early when a renewal answers or the lease changes under it (a
    /// commit refused, the log closed or cut). Never a thread of its own, never a poll.
    public func keepLease(reporting report: @escaping @Sendable (LeaseStatus) -> Void = { _ in }) -> LeaseKeeping {
        let ended = keeperLoop.makePromise(of: LeaseEnd.self)
        let previous = keeping.withLock { keeping in
            defer { keeping = LeaseKeepingState(ended: ended, report: report) }
            return keeping.ended
        }
        // One keeper a log: a second call takes over from the first.
        previous?.succeed(.released)
        wakeKeeper()
        return LeaseKeeping(future: ended.futureResult)
    }

    /// Has the keeper look at the lease again, on its event loop.
    func wakeKeeper() {
        keeperLoop.execute { [self] in stepKeeper() }
    }

    /// One look at the lease: performs what its machine says now.
    private func stepKeeper() {
        let now = ContinuousClock.now
        let (action, status) = lease.withLock { ($0.tick(now: now), $0.status) }
        let keeper: (report: (@Sendable (LeaseStatus) -> Void)?, changed: Bool)? = keeping.withLock { keeping in
            guard keeping.ended != nil else { return nil }
            keeping.timer?.cancel()
            keeping.timer = nil
            let changed = !Self.sameStanding(status, keeping.reported)
            if changed { keeping.reported = status }
            return (keeping.report, changed)
        }
        guard let keeper else { return }
        if keeper.changed { keeper.report?(status) }
        switch action {
        case .renewNow:
            // Its answer wakes the keeper; so does the lease running out, should none come.
            let next = renew(sent: now)
            switch next {
            case .awaitRenewal(let at), .scheduleRenewal(let at): wakeKeeper(at: at, now: now)
            // Not sent (the lease changed meanwhile): the keeper looks again shortly.
            default: wakeKeeper(at: now + lease.withLock { $0.duration } / 10, now: now)
            }
        case .scheduleRenewal(let at), .awaitRenewal(let at):
            wakeKeeper(at: at, now: now)
        case .stepDown(let term, let reason):
            cut()
            endKeeping(.steppedDown(term: term, reason: reason))
        case .none, .handBack, .scheduleAttempt:
            endKeeping(.released)
        }
    }

    /// Has the keeper look at the lease again at `at`.
    private func wakeKeeper(at: ContinuousClock.Instant, now: ContinuousClock.Instant) {
        let timer = keeperLoop.scheduleTask(in: .nanoseconds(max(0, (at - now).nanoseconds))) { [self] in
            stepKeeper()
        }
        keeping.withLock { $0.timer = timer }
    }

    private func endKeeping(_ end: LeaseEnd) {
        let ended = keeping.withLock { keeping in
            defer { keeping = LeaseKeepingState() }
            keeping.timer?.cancel()
            return keeping.ended
        }
        ended?.succeed(end)
    }

    /// Sends the keeper's renewal; its answer goes to the lease's machine and wakes the keeper.
    /// Returns what the machine says while it is on its way.
    private func renew(sent: ContinuousClock.Instant) -> LeaseStateMachine.Action {
        let (action, duration) = lease.withLock { ($0.renewalSent(at: sent), $0.duration) }
        guard case .awaitRenewal = action else { return action }
        let renewal: EventLoopFuture<PostgresQueryResult>
        do {
            guard let (term, _) = try leaseTerm() else { return action }
            renewal = Self.durably(Self.renewal(term, duration), on: try connections().writer, logger: logger)
        } catch {
            renewal = keeperLoop.makeFailedFuture(error)
        }
        renewal.whenComplete { [self] result in
            let now = ContinuousClock.now
            let action = lease.withLock { machine in
                switch result {
                case .success(let rows) where rows.first != nil: machine.renewalAnswered(sent: sent, now: now)
                case .success: machine.renewalRefused()
                case .failure: machine.renewalFailed(now: now)
                }
            }
            switch (result, action) {
            case (.failure(let error), _):
                logger.warning("the lease could not be renewed", metadata: ["error": "\(String(reflecting: error))"])
            case (.success, .stepDown(let term, .takenOver)):
                logger.critical("another courtsided took the lease: stepping down", metadata: ["lease.term": "\(term)"])
            default:
                break
            }
            wakeKeeper()
        }
        return action
    }

    /// Whether two statuses say the same standing (a renewal moves only the held lease's end).
    private static func sameStanding(_ status: LeaseStatus, _ other: LeaseStatus?) -> Bool {
        switch (status, other) {
        case (.held(let term, _), .held(let otherTerm, _)): term == otherTerm
        default: status == other
        }
    }
}
