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
/// daemon's advertised command endpoint, while it asks for the lease: each time just after the
/// holder's lease would run out, at least every quarter of a lease. systemd hears
/// `STATUS=standby …`. Once it holds the lease it closes its sockets (the active daemon binds
/// them again) and ends; ``outcome`` then has the log, holding the lease, and its term.
/// A lost database is not fatal here: the log is opened again at the next turn, on whichever
/// host is then the primary.
final class StandbyService: Service {
    /// The log and the term this daemon took over in; nil until then, or when stopped first.
    let outcome = Mutex<(log: PostgresEventLog, term: Int64)?>(nil)
    private let configuration: PostgresLogConfiguration
    private let claim: LeaseClaim
    private let transportConfiguration: TransportConfiguration
    private let notifier: SystemdNotifier
    private let logger: Logger
    /// What the last look at the lease said: who is active, for the `not_active` answers.
    private let active = Mutex<(term: Int64, endpoint: String?)>((0, nil))

    init(
        configuration: PostgresLogConfiguration, claim: LeaseClaim, transportConfiguration: TransportConfiguration,
        notifier: SystemdNotifier, logger: Logger
    ) {
        self.configuration = configuration
        self.claim = claim
        self.transportConfiguration = transportConfiguration
        self.notifier = notifier
        self.logger = logger
    }

    func run() async throws {
        let transport = try await ZMQTransport.start(transportConfiguration, logger: logger)
        logger.notice(
            "standby: waiting for the lease",
            metadata: [
                "endpoint.command": "\(transport.boundCommandEndpoint)", "lease.ms": "\(claim.duration.inMilliseconds)",
            ])
        notifier.notify("READY=1", "STATUS=standby: waiting for the active courtsided's lease")
        await withDiscardingTaskGroup { group in
            group.addTask { await self.answer(transport) }
            await waitForLease()
            transport.requests.finish()
        }
        await transport.stop()
    }

    /// Answers every request, whatever it asks, with `not_active`.
    private func answer(_ transport: ZMQTransport) async {
        for await batch in transport.requests {
            let (term, endpoint) = active.withLock { $0 }
            let error = CourtsideError(
                .notActive,
                endpoint.map { "this courtsided is a standby; the active one (term \(term)) is at \($0)" }
                    ?? "this courtsided is a standby and no active one is known; retry shortly, or try another daemon")
            for incoming in batch {
                let commandID = incoming.frames.last.flatMap(CommandService.commandID(in:))
                transport.reply(to: incoming, body: WireCoding.encode(Reply.failure(error, commandID: commandID, epoch: "")))
            }
        }
    }

    /// Asks for the lease until this daemon holds it, or a shutdown is asked for.
    private func waitForLease() async {
        var log: PostgresEventLog?
        let poll = claim.duration / 4
        // Said once each time it changes: an outage of the database is one line in the log and
        // one status, not one every quarter lease (systemd's queue of notices is short, too).
        var status = ""
        func say(_ text: String) {
            guard text != status else { return }
            status = text
            notifier.notify("STATUS=\(text)")
        }
        var failing = false
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            var wait = poll
            do {
                let opened: PostgresEventLog
                if let log {
                    opened = log
                } else {
                    opened = try await blockingCall(named: "standby") { [configuration, logger] in
                        try PostgresEventLog(configuration: configuration, logger: logger)
                    }
                    log = opened
                }
                let outcome = try await blockingCall(named: "standby", { [claim] in try opened.acquireLease(claim) })
                if failing { logger.notice("standby: the event log answers again") }
                failing = false
                switch outcome {
                case .acquired(let term):
                    // Renewed from now on, while the sockets close and the library opens.
                    opened.keepLease()
                    self.outcome.withLock { $0 = (opened, term) }
                    return
                case .held(let term, let endpoint, let expiresIn):
                    let known = active.withLock { known in
                        defer { known = (term, endpoint) }
                        return known
                    }
                    if known.term != term || known.endpoint != endpoint {
                        logger.info(
                            "standby: another courtsided is active",
                            metadata: ["lease.term": "\(term)", "lease.endpoint": "\(endpoint ?? "-")"])
                    }
                    say("standby: active courtsided at \(endpoint ?? "unknown") (term \(term))")
                    // Just after it would run out, if the holder does not renew it first.
                    wait = min(poll, expiresIn + .milliseconds(5))
                }
            } catch {
                if !failing {
                    logger.warning("standby: the event log did not answer; opening it again", metadata: ["error": "\(error)"])
                } else {
                    logger.debug("standby: the event log still does not answer", metadata: ["error": "\(error)"])
                }
                failing = true
                say("standby: the event log does not answer")
                if let log { try? log.close() }
                log = nil
            }
            let pause = wait
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: pause) }
        }
        if let log { try? log.close() }
    }
}
