import CourtsideModel
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
// - Between commits its keeper renews it a quarter of its duration after the last renewal
//   (`PostgresEventLog+LeaseKeeping.swift`), as the lease's `LeaseStateMachine` schedules.
// - Locally the holder counts its lease from the moment it *sent* the last renewal that
//   succeeded, a tenth short: that moment precedes the database's, so the daemon stops
//   answering and publishing before any standby can take over, whatever paused it. Once it
//   runs out the keeper cuts the log's connections: nothing then waits on a silent server.
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

/// Where this daemon stands with the lease (``LeaseStateMachine/status``).
public enum LeaseStatus: Sendable, Equatable {
    /// It runs without a lease: alone on its log.
    case none
    /// It waits for the lease; another daemon holds `term` (nil: not known yet), advertising `endpoint`.
    case standby(term: Int64?, endpoint: String?)
    /// It holds `term`, as far as it knows until `until` (this machine's monotonic clock).
    case held(term: Int64, until: ContinuousClock.Instant)
    /// It handed the lease of `term` back as its log closed.
    case released(term: Int64)
    /// It lost the lease of `term`, for `reason`: it must serve nothing more.
    case fenced(term: Int64, reason: LeaseStateMachine.StepDownReason)
}

extension PostgresEventLog {
    /// Where this daemon stands with the lease.
    public var leaseStatus: LeaseStatus { lease.withLock { $0.status } }

    /// Whether this daemon may answer and publish now: it holds the lease and its last renewal
    /// is recent enough. Always true for a log used without a lease.
    public var holdsLease: Bool { lease.withLock { $0.mayServe(at: .now) } }

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
                let action = lease.withLock { machine in
                    machine = LeaseStateMachine(standbyFor: claim.duration)
                    return machine.acquired(term: taken, sent: sent, now: .now)
                }
                if action == .renewNow {
                    let renewedAt = ContinuousClock.now
                    guard try Self.durably(Self.renewal(taken, claim.duration), on: writer, logger: logger).wait().first != nil
                    else { throw fenced() }
                    noteRenewed(sent: renewedAt)
                }
                logger.notice("took the lease", metadata: ["lease.term": "\(taken)", "lease.holder": "\(claim.holder)"])
                return .acquired(term: taken)
            }
        }
    }

    /// The term held and the lease's length in seconds; nil when no lease is held; throws at
    /// once when this daemon no longer holds it.
    func leaseTerm() throws -> (term: Int64, seconds: Double)? {
        switch lease.withLock({ $0.commitTerm() }) {
        case .success(let held): return held
        case .failure(let lost): throw Self.fenced(lost.term)
        }
    }

    /// The statement that renews the lease of `term` alone, answering the term when it did.
    static func renewal(_ term: Int64, _ duration: Duration) -> PostgresQuery {
        """
        UPDATE lease SET expires_at = clock_timestamp() + make_interval(secs => \(Double(duration.inMilliseconds) / 1000))
        WHERE id = 0 AND term = \(term) RETURNING term
        """
    }

    /// Marks the lease lost for good, and the error that says so: a renewal found the term moved on.
    func fenced() -> PostgresEventLogError {
        let (action, status) = lease.withLock { ($0.renewalRefused(), $0.status) }
        wakeKeeper()
        let term: Int64
        switch status {
        case .fenced(let fenced, _), .released(let fenced), .held(let fenced, _): term = fenced
        case .none, .standby: term = 0
        }
        if action != .none {
            logger.critical("another courtsided took the lease: stepping down", metadata: ["lease.term": "\(term)"])
        }
        return Self.fenced(term)
    }

    /// Counts the lease from `sent`, once a commit's renewal sent then is committed.
    func noteRenewed(sent: ContinuousClock.Instant) {
        _ = lease.withLock { $0.renewalAnswered(sent: sent, byKeeper: false, now: .now) }
    }

    static func fenced(_ term: Int64) -> PostgresEventLogError {
        PostgresEventLogError(
            .fenced, "another courtsided took over the event log after term \(term), or this one's lease ran out; it stepped down"
        )
    }

    /// Hands the lease back as the log closes (a graceful stop): it expires now, in the same
    /// term, so a standby takes it at its next look. From now on this daemon holds none. Waits
    /// half a lease at most (a second at most): a server that does not answer by then has the
    /// lease run out on its own.
    func releaseLease(on writer: LogConnection) {
        let (action, duration) = lease.withLock { ($0.close(), $0.duration) }
        wakeKeeper()
        guard case .handBack(let term) = action else { return }
        writer.answerWithin(min(duration / 2, .seconds(1)))
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

    /// Renews the lease now, in a transaction of its own, and waits for the answer.
    public func renewLease() throws {
        guard let (term, seconds) = try leaseTerm() else { return }
        let writer = try connections().writer
        let sent = ContinuousClock.now
        let renewed = try PostgresEventLogError.server("renewing the lease") {
            try Self.durably(Self.renewal(term, .milliseconds(Int64(seconds * 1000))), on: writer, logger: logger).wait()
                .first != nil
        }
        guard renewed else { throw fenced() }
        noteRenewed(sent: sent)
    }

    /// Closes every connection of the log at once, whatever is on its way on them: what waits
    /// for the server fails now, rather than when TCP gives up on a server that went silent.
    /// A lease still held is lost (its keeper steps down). The log is still to be closed.
    public func cut() {
        _ = lease.withLock { $0.cut() }
        wakeKeeper()
        guard let connections = try? connections() else { return }
        for connection in [connections.writer, connections.reader, connections.checkpoints] { connection.cut() }
    }
}
