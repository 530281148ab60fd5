import CourtsideModel
import CourtsideThreads
import Foundation
import Logging
import PostgresNIO

// One active courtsided among several on one database: the one holding the lease, a single row
// (migration v4) with a term and an expiry on the database's clock.
//
// - A standby takes it with an UPDATE that only matches an expired lease (or its own) and
//   increments the term.
// - The holder renews it in every commit's own statement, first thing (`courtside_append`): a
//   renewal that matches no row (the term moved on) writes nothing and fences the holder for
//   good. The row lock serialises the two, so a commit and a takeover never both succeed: either
//   the commit renewed first (and the takeover finds the lease unexpired), or the takeover came
//   first.
// - Between commits a thread renews it at a quarter of its duration.
// - Locally the holder counts its lease from the moment it *sent* the last renewal that
//   succeeded, a tenth short: that moment precedes the database's, so the daemon stops
//   answering and publishing before any standby can take over, whatever paused it.
//
// The writer's session never cancels its own statements (`statement_timeout = 0`, set as it
// opens): a commit cancelled while it waits for a synchronous standby is reported committed, with
// only a notice postgres-nio drops. Every statement of the writer is one of its own (no BEGIN),
// so no paused holder can keep the row locked between statements; a standby's attempt gives up
// on the row's lock after one lease (`lock_timeout`) and tries again.

/// What a daemon asks for when it asks for the lease.
public struct LeaseClaim: Sendable, Equatable {
    /// Who asks: the same for a daemon restarted in the same place (its machine and endpoint),
    /// which may then take its own lease back at once; different for any other.
    public var holder: String
    /// The command endpoint clients should use while this daemon is active, which standbys name.
    public var endpoint: String?
    /// How long the lease lasts without a renewal: how soon a standby takes over.
    public var duration: Duration

    public init(holder: String, endpoint: String?, duration: Duration) {
        self.holder = holder
        self.endpoint = endpoint
        self.duration = duration
    }
}

/// The outcome of asking for the lease.
public enum LeaseOutcome: Sendable, Equatable {
    /// This daemon is active, in `term`.
    case acquired(term: Int64)
    /// Another daemon holds it in `term`; `endpoint` is the one it advertised; it runs out in
    /// `expiresIn` unless renewed.
    case held(term: Int64, endpoint: String?, expiresIn: Duration)
}

/// Where this daemon stands with the lease.
public enum LeaseStatus: Sendable, Equatable {
    /// It never took the lease.
    case none
    /// It holds `term`, as far as it knows until `until` (this machine's monotonic clock).
    case held(term: Int64, until: ContinuousClock.Instant)
    /// Another daemon took over after `term`: this one must step down.
    case fenced(term: Int64)
}

extension PostgresEventLog {
    struct LeaseState {
        var claim: LeaseClaim?
        var term: Int64 = 0
        var until = ContinuousClock.Instant.now
        var fenced = false

        var status: LeaseStatus {
            guard claim != nil else { return .none }
            return fenced ? .fenced(term: term) : .held(term: term, until: until)
        }
    }

    /// Where this daemon stands with the lease.
    public var leaseStatus: LeaseStatus { leaseState.withLock { $0.status } }

    /// Whether this daemon may answer and publish now: it holds the lease and its last renewal
    /// is recent enough. Always true for a log used without a lease.
    public var holdsLease: Bool {
        leaseState.withLock { state in
            guard state.claim != nil else { return true }
            return !state.fenced && ContinuousClock.now < state.until
        }
    }

    /// Takes the lease if it has run out (or was never taken), or if it is this holder's own,
    /// left by an earlier run that crashed: a new term fences that run all the same, should it
    /// still be alive. Never waits for a holder's statement longer than the lease: a holder
    /// holding the row's lock for longer (its commit waiting for a synchronous standby) makes
    /// the attempt fail, to be made again.
    public func acquireLease(_ claim: LeaseClaim) throws -> LeaseOutcome {
        let writer = try connections().writer
        let milliseconds = claim.duration.inMilliseconds
        return try appending.withLock { _ in
            try PostgresEventLogError.server("taking the lease") {
                try Self.run("SET lock_timeout = \(milliseconds)", on: writer, logger: logger)
                let sent = ContinuousClock.now
                let taken = try writer.query(
                    """
                    UPDATE lease SET term = term + 1, holder = \(claim.holder), endpoint = \(claim.endpoint),
                        expires_at = clock_timestamp() + make_interval(secs => \(Double(milliseconds) / 1000))
                    WHERE id = 0 AND (expires_at < clock_timestamp() OR holder = \(claim.holder)) RETURNING term
                    """, logger: logger
                ).wait().first?.decode(Int64.self)
                guard let taken else {
                    let row = try writer.query(
                        """
                        SELECT term, endpoint,
                            GREATEST(0, EXTRACT(EPOCH FROM expires_at - clock_timestamp()) * 1000)::bigint FROM lease
                        """, logger: logger
                    ).wait().first
                    guard let row else { return .held(term: 0, endpoint: nil, expiresIn: .zero) }
                    let (term, endpoint, left) = try row.decode((Int64, String?, Int64).self)
                    return .held(term: term, endpoint: endpoint, expiresIn: .milliseconds(left))
                }
                // A commit's renewal must never give up on the lock: only a standby's attempt may.
                // (Answered only once the UPDATE's commit is durable, which may have waited for a
                // synchronous standby that was down.)
                try Self.run("SET lock_timeout = 0", on: writer, logger: logger)
                leaseState.withLock { state in
                    state = LeaseState(claim: claim, term: taken, until: Self.localExpiry(sent: sent, claim.duration))
                }
                // Counted from when the UPDATE was sent, a lease whose commit waited long is
                // nearly spent, or spent, when taken: renewed at once, or the daemon would step
                // down as it starts.
                if ContinuousClock.now + claim.duration / 2 > Self.localExpiry(sent: sent, claim.duration) {
                    let renewal = try leaseRenewal()!
                    let renewedAt = ContinuousClock.now
                    guard try Self.durably(renewal, on: writer, logger: logger).wait().first != nil else { throw fenced() }
                    noteRenewed(sent: renewedAt)
                }
                logger.notice("took the lease", metadata: ["lease.term": "\(taken)", "lease.holder": "\(claim.holder)"])
                return .acquired(term: taken)
            }
        }
    }

    /// How long this daemon counts a renewal sent at `sent` as good: a tenth short of the lease.
    static func localExpiry(sent: ContinuousClock.Instant, _ duration: Duration) -> ContinuousClock.Instant {
        sent + duration * 0.9
    }

    /// The term held and the lease's length in seconds; nil when no lease is held; throws at
    /// once when this daemon is fenced.
    func leaseTerm() throws -> (term: Int64, seconds: Double)? {
        try leaseState.withLock { state in
            guard let claim = state.claim else { return nil }
            if state.fenced { throw Self.fenced(state.term) }
            return (state.term, Double(claim.duration.inMilliseconds) / 1000)
        }
    }

    /// The statement that renews the lease alone, answering the term when it did; nil when no
    /// lease is held; throws at once when this daemon is fenced.
    func leaseRenewal() throws -> PostgresQuery? {
        guard let (term, seconds) = try leaseTerm() else { return nil }
        return """
            UPDATE lease SET expires_at = clock_timestamp() + make_interval(secs => \(seconds))
            WHERE id = 0 AND term = \(term) RETURNING term
            """
    }

    /// Marks the log fenced for good, and the error that says so: a renewal found the term moved on.
    func fenced() -> PostgresEventLogError {
        let term = leaseState.withLock { state in
            state.fenced = true
            return state.term
        }
        logger.critical("another courtsided took the lease: stepping down", metadata: ["lease.term": "\(term)"])
        return Self.fenced(term)
    }

    /// Counts the lease from `sent`, once the renewal sent then is committed.
    func noteRenewed(sent: ContinuousClock.Instant) {
        leaseState.withLock { state in
            guard let claim = state.claim, !state.fenced else { return }
            state.until = max(state.until, Self.localExpiry(sent: sent, claim.duration))
        }
    }

    static func fenced(_ term: Int64) -> PostgresEventLogError {
        PostgresEventLogError(
            .fenced, "another courtsided took over the event log after term \(term); this one stepped down")
    }

    /// Hands the lease back as the log closes (a graceful stop): it expires now, in the same
    /// term, so a standby takes it at its next look. From now on this daemon holds none.
    func releaseLease(on writer: LogConnection) {
        let term: Int64? = leaseState.withLock { state in
            guard state.claim != nil, !state.fenced else { return nil }
            state.fenced = true
            return state.term
        }
        guard let term else { return }
        do {
            _ = try writer.query(
                "UPDATE lease SET expires_at = '-infinity' WHERE id = 0 AND term = \(term)", logger: logger
            ).wait()
            logger.notice("handed the lease back", metadata: ["lease.term": "\(term)"])
        } catch {
            // It runs out on its own, a lease later.
            logger.warning("the lease could not be handed back", metadata: ["error": "\(String(reflecting: error))"])
        }
    }

    /// Renews the lease now, in a transaction of its own (nothing to commit came lately).
    public func renewLease() throws {
        guard let renewal = try leaseRenewal() else { return }
        let writer = try connections().writer
        try appending.withLock { _ in
            let sent = ContinuousClock.now
            let renewed = try PostgresEventLogError.server("renewing the lease") {
                try Self.durably(renewal, on: writer, logger: logger).wait().first != nil
            }
            guard renewed else { throw fenced() }
            noteRenewed(sent: sent)
        }
    }

    /// Renews the lease every quarter of its duration on a thread of its own, until the log
    /// closes or another daemon takes over. A failed renewal is logged and tried again at the
    /// next turn; meanwhile the local lease runs out, and ``holdsLease`` says so.
    public func keepLease() {
        guard let claim = leaseState.withLock({ $0.claim }) else { return }
        let period = claim.duration / 4
        startThread(named: "lease") { [self] in
            while true {
                Thread.sleep(forTimeInterval: Double(period.inMilliseconds) / 1000)
                do {
                    try renewLease()
                } catch let error as PostgresEventLogError where error.code == .closed || error.code == .fenced {
                    return
                } catch {
                    logger.warning("the lease could not be renewed", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
