/// The lease of one courtsided among several on one database, as a value: pure transitions
/// that return what the caller must do, with the time passed in (so its tests need no clock).
///
/// Shaped as postgres-nio's `ConnectionStateMachine`: an enum of states, an enum of actions,
/// one mutating function per event. ``PostgresEventLog`` keeps one under its lock (every commit
/// renews the lease, and reports here); the lease's keeper (`keepLease`) performs its actions;
/// a standby keeps one of its own while it waits.
///
/// A holder counts its lease from the moment it *sent* the last renewal that succeeded, a tenth
/// short: that moment precedes the database's, so the holder stops serving before any standby
/// can take over, whatever paused it.
public struct LeaseStateMachine: Sendable, Equatable {
    public typealias Instant = ContinuousClock.Instant

    /// Where this daemon stands.
    public enum State: Sendable, Equatable {
        /// No lease: the only daemon on its log.
        case standalone
        /// Waiting to take the lease, with what the last attempt found.
        case standby(Observation)
        /// This daemon holds `term`, counted from `renewed` (when the last renewal that succeeded
        /// was sent); `renewal` is the keeper's own renewal.
        case held(term: Int64, renewed: Instant, renewal: Renewal)
        /// Handed back as the log closed (a graceful stop).
        case released(term: Int64)
        /// No longer this daemon's: it must serve nothing more in `term`.
        case fenced(term: Int64, reason: StepDownReason)
    }

    /// What a standby's last attempt found.
    public enum Observation: Sendable, Equatable {
        /// No attempt has answered yet.
        case unknown
        /// Another daemon holds `term`, advertising `endpoint`.
        case active(term: Int64, endpoint: String?)
        /// The database did not answer.
        case unreachable
    }

    /// The keeper's renewal while the lease is held.
    public enum Renewal: Sendable, Equatable {
        /// None on its way; the next is due at `due`.
        case idle(due: Instant)
        /// One sent at `sent`, not answered yet.
        case inFlight(sent: Instant)
    }

    /// Why a holder stepped down.
    public enum StepDownReason: Sendable, Equatable {
        /// A renewal matched no row: another daemon took over in a later term.
        case takenOver
        /// The lease ran out before a renewal came back (a pause, or the database unreachable).
        case ranOut
        /// The daemon cut its connections while holding it (cancelled): it serves nothing more.
        case cut
    }

    /// What the caller must do after an event.
    public enum Action: Sendable, Equatable {
        /// Nothing.
        case none
        /// Send a renewal now (then report ``renewalSent(at:)``).
        case renewNow
        /// Wake at `at` (tick) to renew: nothing is due before.
        case scheduleRenewal(at: Instant)
        /// A renewal is on its way: wake for its answer, or at `until`, when the lease runs out.
        case awaitRenewal(until: Instant)
        /// Ask for the lease again at `at` (a standby).
        case scheduleAttempt(at: Instant)
        /// Stop serving at once and let go of the database: the lease of `term` is lost.
        case stepDown(term: Int64, reason: StepDownReason)
        /// Hand the lease of `term` back, so that a standby need not wait it out.
        case handBack(term: Int64)
    }

    /// How long the lease lasts without a renewal.
    public let duration: Duration
    public private(set) var state: State

    /// A machine for a daemon alone on its log: it serves whenever it runs.
    public static let standalone = LeaseStateMachine(duration: .zero, state: .standalone)

    /// A machine for a standby waiting for a lease of `duration`.
    public init(standbyFor duration: Duration) {
        self.init(duration: duration, state: .standby(.unknown))
    }

    init(duration: Duration, state: State) {
        self.duration = duration
        self.state = state
    }

    /// How often a holder renews between commits, and a standby asks at the least.
    public var period: Duration { duration / 4 }

    /// The instant a renewal sent at `sent` lets this daemon serve until: a tenth short of the lease.
    public func expiry(ofRenewalSent sent: Instant) -> Instant { sent + duration * 0.9 }

    // MARK: - Events

    /// The lease was taken in `term` by a statement sent at `sent`. A lease whose taking waited
    /// long is nearly spent when it comes: then it is renewed at once, or the daemon would step
    /// down as it starts.
    public mutating func acquired(term: Int64, sent: Instant, now: Instant) -> Action {
        state = .held(term: term, renewed: sent, renewal: .idle(due: sent + period))
        return now + duration / 2 > expiry(ofRenewalSent: sent) ? .renewNow : .scheduleRenewal(at: sent + period)
    }

    /// A standby's attempt found `term` held by another daemon, running out in `expiresIn`:
    /// the next attempt is just after it would run out, and at least every ``period``.
    public mutating func heldByAnother(term: Int64, endpoint: String?, expiresIn: Duration, now: Instant) -> Action {
        guard case .standby = state else { return .none }
        state = .standby(.active(term: term, endpoint: endpoint))
        return .scheduleAttempt(at: now + min(period, expiresIn + .milliseconds(5)))
    }

    /// A standby's attempt got no answer from the database: it tries again a ``period`` later.
    public mutating func unreachable(now: Instant) -> Action {
        guard case .standby = state else { return .none }
        state = .standby(.unreachable)
        return .scheduleAttempt(at: now + period)
    }

    /// The keeper sent its renewal at `at`.
    public mutating func renewalSent(at: Instant) -> Action {
        guard case .held(let term, let renewed, .idle) = state else { return .none }
        state = .held(term: term, renewed: renewed, renewal: .inFlight(sent: at))
        return .awaitRenewal(until: expiry(ofRenewalSent: renewed))
    }

    /// A renewal sent at `sent` succeeded: the keeper's own, or a commit's (each renews the
    /// lease in its own statement). The next renewal is due a ``period`` after it.
    public mutating func renewalAnswered(sent: Instant, byKeeper: Bool = true, now: Instant) -> Action {
        guard case .held(let term, let renewed, let renewal) = state else { return .none }
        let latest = max(renewed, sent)
        switch renewal {
        case .inFlight where !byKeeper:
            state = .held(term: term, renewed: latest, renewal: renewal)
            return .awaitRenewal(until: expiry(ofRenewalSent: latest))
        case .inFlight, .idle:
            state = .held(term: term, renewed: latest, renewal: .idle(due: latest + period))
            return tick(now: now)
        }
    }

    /// A renewal (the keeper's or a commit's) matched no row: the term has moved on.
    public mutating func renewalRefused() -> Action {
        guard case .held(let term, _, _) = state else { return .none }
        state = .fenced(term: term, reason: .takenOver)
        return .stepDown(term: term, reason: .takenOver)
    }

    /// The keeper's renewal failed (the connection, not the term): tried again a tenth of the
    /// lease later, while the lease lasts.
    public mutating func renewalFailed(now: Instant) -> Action {
        guard case .held(let term, let renewed, .inFlight) = state else { return .none }
        state = .held(term: term, renewed: renewed, renewal: .idle(due: now + duration / 10))
        return tick(now: now)
    }

    /// Time passed: a lease that ran out is lost; a renewal due is sent.
    public mutating func tick(now: Instant) -> Action {
        switch state {
        case .standalone, .standby, .released:
            return .none
        case .fenced(let term, let reason):
            return .stepDown(term: term, reason: reason)
        case .held(let term, let renewed, let renewal):
            let until = expiry(ofRenewalSent: renewed)
            if now >= until {
                state = .fenced(term: term, reason: .ranOut)
                return .stepDown(term: term, reason: .ranOut)
            }
            switch renewal {
            case .inFlight: return .awaitRenewal(until: until)
            case .idle(let due) where due <= now: return .renewNow
            case .idle(let due): return .scheduleRenewal(at: min(due, until))
            }
        }
    }

    /// The log closes (a graceful stop): a lease still held is handed back.
    public mutating func close() -> Action {
        guard case .held(let term, _, _) = state else { return .none }
        state = .released(term: term)
        return .handBack(term: term)
    }

    /// The daemon cut its connections: a lease still held is lost to it (it can no longer renew).
    public mutating func cut() -> Action {
        guard case .held(let term, _, _) = state else { return .none }
        state = .fenced(term: term, reason: .cut)
        return .stepDown(term: term, reason: .cut)
    }

    // MARK: - Questions

    /// Whether the daemon may answer and publish at `now`: it holds the lease and its last
    /// renewal is recent enough, or it runs alone.
    public func mayServe(at now: Instant) -> Bool {
        switch state {
        case .standalone: true
        case .held(_, let renewed, _): now < expiry(ofRenewalSent: renewed)
        case .standby, .released, .fenced: false
        }
    }

    /// The term a commit must renew, and the lease's length in seconds; nil alone. Throws the
    /// term once the lease is no longer held (fenced, released, or never taken by a standby).
    func commitTerm() -> Result<(term: Int64, seconds: Double)?, LeaseLost> {
        switch state {
        case .standalone: .success(nil)
        case .held(let term, _, _): .success((term, Double(duration.inMilliseconds) / 1000))
        case .released(let term), .fenced(let term, _): .failure(LeaseLost(term: term))
        case .standby(.active(let term, _)): .failure(LeaseLost(term: term))
        case .standby: .failure(LeaseLost(term: 0))
        }
    }

    /// The term that was held, where a commit finds the lease no longer held.
    struct LeaseLost: Error {
        var term: Int64
    }

    /// The state as the log's users see it.
    public var status: LeaseStatus {
        switch state {
        case .standalone: .none
        case .standby(.active(let term, let endpoint)): .standby(term: term, endpoint: endpoint)
        case .standby: .standby(term: nil, endpoint: nil)
        case .held(let term, let renewed, _): .held(term: term, until: expiry(ofRenewalSent: renewed))
        case .released(let term): .released(term: term)
        case .fenced(let term, let reason): .fenced(term: term, reason: reason)
        }
    }
}
