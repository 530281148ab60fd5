import CourtsideModel
import CourtsidePostgres
import CourtsideProtocol
import CourtsideThreads
import CourtsideTransport
import Logging
import ServiceLifecycle
import Synchronization

/// A courtsided waiting to become the active one, among several on one PostgreSQL database.
///
/// It binds both endpoints and answers every request with `not_active`, naming the active
/// daemon's advertised command endpoint, while it asks for the lease when its
/// ``LeaseStateMachine`` schedules: just after the holder's lease would run out, at least every
/// quarter of a lease. systemd hears `STATUS=standby …`, once each time the standing changes.
/// Once it holds the lease it closes its sockets (the active daemon binds them again) and ends;
/// ``outcome`` then has the lease's keeper, already renewing, and the term. A lost database is
/// not fatal here: the log is opened again at the next turn, on whichever host is then the
/// primary. Opening the log waits twice the lease at most; a stop cuts an attempt under way.
final class StandbyService: Service {
    /// The lease's keeper and the term this daemon took over in; nil until then, or when stopped first.
    let outcome = Mutex<(lease: LeaseService, term: Int64)?>(nil)
    private let configuration: PostgresLogConfiguration
    private let claim: LeaseClaim
    private let transportConfiguration: TransportConfiguration
    private let notifier: SystemdNotifier
    /// When this daemon stepped down, if it is a standby again after holding the lease.
    private let steppedDownAt: ContinuousClock.Instant?
    private let logger: Logger
    /// What the last attempt found: who is active, for the `not_active` answers.
    private let lease: Mutex<LeaseStateMachine>
    /// The log the attempts go through, while open.
    private let attempting = Mutex<PostgresEventLog?>(nil)

    init(
        configuration: PostgresLogConfiguration, claim: LeaseClaim, transportConfiguration: TransportConfiguration,
        notifier: SystemdNotifier, steppedDownAt: ContinuousClock.Instant? = nil, logger: Logger
    ) {
        self.configuration = configuration
        self.claim = claim
        self.transportConfiguration = transportConfiguration
        self.notifier = notifier
        self.steppedDownAt = steppedDownAt
        self.logger = logger
        lease = Mutex(LeaseStateMachine(standbyFor: claim.duration))
    }

    func run() async throws {
        let transport = try await ZMQTransport.start(transportConfiguration, logger: logger)
        var metadata: Logger.Metadata = [
            "endpoint.command": "\(transport.boundCommandEndpoint)", "lease.ms": "\(claim.duration.inMilliseconds)",
        ]
        var status = "STATUS=standby: waiting for the active courtsided's lease"
        if let steppedDownAt {
            // How long a step-down took, closing what the active daemon held, to a standby answering again.
            let took = (ContinuousClock.now - steppedDownAt).inMilliseconds
            metadata["stepped_down.ms"] = "\(took)"
            status += " (stepped down \(took) ms ago)"
            logger.notice("standby again: waiting for the lease", metadata: metadata)
        } else {
            logger.notice("standby: waiting for the lease", metadata: metadata)
        }
        notifier.notify("READY=1", status)
        await withDiscardingTaskGroup { group in
            group.addTask { await self.answer(transport) }
            // An attempt waits on the database as long as it takes (a synchronous standby may
            // hold its commit back): a stop cuts it.
            await withGracefulShutdownHandler {
                await waitForLease()
            } onGracefulShutdown: {
                self.attempting.withLock { $0 }?.cut()
            }
            transport.requests.finish()
        }
        await transport.stop()
    }

    /// Answers every request, whatever it asks, with `not_active`.
    private func answer(_ transport: ZMQTransport) async {
        for await batch in transport.requests {
            let active: (term: Int64, endpoint: String)? = lease.withLock { lease in
                guard case .standby(.active(let term, let endpoint?)) = lease.state else { return nil }
                return (term, endpoint)
            }
            let error = CourtsideError(
                .notActive,
                active.map { "this courtsided is a standby; the active one (term \($0.term)) is at \($0.endpoint)" }
                    ?? "this courtsided is a standby and no active one is known; retry shortly, or try another daemon")
            for incoming in batch {
                let commandID = incoming.lastFrame.flatMap(CommandService.commandID(in:))
                transport.reply(to: incoming, body: WireCoding.encode(Reply.failure(error, commandID: commandID, epoch: "")))
            }
        }
    }

    /// Asks for the lease until this daemon holds it, or a shutdown is asked for.
    private func waitForLease() async {
        var log: PostgresEventLog?
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            var next = LeaseStateMachine.Action.none
            do {
                let opened: PostgresEventLog
                if let log {
                    opened = log
                } else {
                    opened = try await blockingCall(named: "standby") { [configuration, claim, logger] in
                        try PostgresEventLog(configuration: configuration, logger: logger, answerWithin: claim.duration * 2)
                    }
                    log = opened
                    attempting.withLock { $0 = opened }
                    // A stop that came while it opened did not cut it.
                    if Task.isShuttingDownGracefully { opened.cut() }
                }
                switch try await blockingCall(named: "standby", { [claim] in try opened.acquireLease(claim) }) {
                case .acquired(let term):
                    // Renewed from now on, while the sockets close and the library opens.
                    outcome.withLock { $0 = (lease: LeaseService(log: opened, logger: logger), term: term) }
                    return
                case .held(let term, let endpoint, let expiresIn):
                    next = observe { $0.heldByAnother(term: term, endpoint: endpoint, expiresIn: expiresIn, now: .now) }
                }
            } catch {
                next = observe(failure: error) { $0.unreachable(now: .now) }
                if let log { await Self.discard(log) }
                log = nil
                attempting.withLock { $0 = nil }
            }
            guard case .scheduleAttempt(let at) = next else { continue }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(until: at, clock: .continuous) }
        }
        if let log { await Self.discard(log) }
    }

    /// Feeds an attempt's outcome to the standby's machine, and says the new standing when it
    /// changed: an outage of the database is one line in the log and one status, not one every
    /// quarter lease (systemd's queue of notices is short, too).
    private func observe(failure: (any Error)? = nil, _ event: (inout LeaseStateMachine) -> LeaseStateMachine.Action)
        -> LeaseStateMachine.Action
    {
        let (before, action, after) = lease.withLock { lease in
            let before = lease.state
            let action = event(&lease)
            return (before, action, lease.state)
        }
        guard after != before else {
            if let failure { logger.debug("standby: the event log still does not answer", metadata: ["error": "\(failure)"]) }
            return action
        }
        if before == .standby(.unreachable) { logger.notice("standby: the event log answers again") }
        switch after {
        case .standby(.active(let term, let endpoint)):
            logger.info(
                "standby: another courtsided is active",
                metadata: ["lease.term": "\(term)", "lease.endpoint": "\(endpoint ?? "-")"])
            notifier.notify("STATUS=standby: active courtsided at \(endpoint ?? "unknown") (term \(term))")
        case .standby(.unreachable):
            logger.warning(
                "standby: the event log did not answer; opening it again",
                metadata: ["error": "\(failure.map { "\($0)" } ?? "-")"])
            notifier.notify("STATUS=standby: the event log does not answer")
        default:
            break
        }
        return action
    }

    /// Closes a log that failed or is no longer needed, its connections cut first: a server gone
    /// silent keeps nothing waiting.
    private static func discard(_ log: PostgresEventLog) async {
        log.cut()
        _ = try? await blockingCall(named: "standby") { try log.close() }
    }
}
