import CourtsideLibrary
import CourtsideModel
import CourtsidePostgres
import CourtsideProtocol
import CourtsideStorage
import CourtsideTransport
import Foundation
public import Logging
import ServiceLifecycle
import UnixSignals

/// courtsided as a library: opens the log, binds the sockets and runs every service until
/// SIGTERM or SIGINT. The executable only parses flags and calls ``run(_:configurationPath:serverCertificate:logger:)``.
public enum CourtsideDaemon {
    /// Opens the event log, saying so first when a new format must rewrite it: an organiser who
    /// upgrades mid-tournament sees why this start takes longer (7 s for a million events here).
    /// systemd gets the same news, and more time than its 90 s for it.
    static func openLog(_ directory: URL, logger: Logger) throws -> SQLiteEventLog {
        guard let events = try SQLiteEventLog.eventsToUpgrade(in: directory) else {
            return try SQLiteEventLog(directory: directory)
        }
        logger.notice(
            "upgrading the event log to this version's format; this runs once, and a long log takes seconds",
            metadata: ["events": "\(events)"])
        _ = SystemdNotifier().notify("EXTEND_TIMEOUT_USEC=\(600_000_000)", "STATUS=upgrading the event log (\(events) events)")
        let started = ContinuousClock.now
        let log = try SQLiteEventLog(directory: directory)
        logger.notice(
            "event log upgraded", metadata: ["ms": "\((ContinuousClock.now - started).inMilliseconds)", "events": "\(events)"])
        return log
    }

    /// The sockets' settings from the configuration (the overload reply is the caller's: it names the epoch).
    static func transportConfiguration(
        _ configuration: DaemonConfiguration, access: AccessControl?, notifier: SystemdNotifier
    ) -> TransportConfiguration {
        var transport = TransportConfiguration(
            commandEndpoint: configuration.commandEndpoint, eventEndpoint: configuration.eventEndpoint)
        transport.eventHighWaterMark = configuration.eventHighWaterMark
        transport.commandHighWaterMark = configuration.commandHighWaterMark
        transport.lingerMilliseconds = configuration.lingerMilliseconds
        transport.maxMessageBytes = ProtocolLimits.maxTransportBytes
        // The watchdog needs a poll cycle between any two of its pings, even when all is quiet.
        transport.pollIntervalMilliseconds = max(10, min(1000, NotifierService.period(notifier).inMilliseconds / 2))
        if let security = configuration.security, let access {
            transport.security = TransportSecurity(serverKeys: security.serverKeys) { access.authenticate($0) }
        }
        return transport
    }

    /// The command endpoint as clients can reach it, for standbys to name: none when it is a
    /// wildcard (`endpoints.advertise` names it then).
    static func advertisable(_ endpoint: String) -> String? {
        DaemonConfiguration.isWildcard(endpoint) ? nil : endpoint
    }

    /// Runs the daemon; returns after a graceful shutdown. `serverCertificate` is the path that
    /// replaced the config's `security.server_certificate`, if one did; reloads use it too.
    public static func run(
        _ configuration: DaemonConfiguration, configurationPath: String?, serverCertificate: String? = nil,
        metrics: MetricsEndpoint? = nil, logger: Logger
    ) async throws {
        // Before the start's replay and the threads below allocate: few arenas keep less freed memory.
        FreedMemory.limitArenas(to: 2)
        let clock = SystemTimeSource()
        let dataDirectory = URL(fileURLWithPath: configuration.dataDirectory, isDirectory: true)
        let notifier = SystemdNotifier()
        let access = configuration.security.map(AccessControl.init)
        // Trapped from the start, so that a SIGHUP to a standby is a reload later, never a kill.
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        let opened: any EventLog
        let storage: String
        // A new epoch per run tells displays that the daemon restarted and they should resync.
        // Its leading number orders epochs: the lease's term among daemons sharing PostgreSQL,
        // the start time otherwise (docs/PROTOCOL.md, "Epochs").
        let epoch: String
        let leased: PostgresEventLog?
        // The lease's term, among daemons sharing PostgreSQL.
        var term: Int64?
        if let postgresql = configuration.postgresql {
            // The same holder after a restart in the same place (machine and endpoint): systemd's
            // restart of a crashed daemon takes its own lease back at once, in a new term that
            // fences the run before it should that still be alive.
            let endpoint = configuration.advertisedEndpoint ?? advertisable(configuration.commandEndpoint)
            let claim = LeaseClaim(
                holder: "\(ProcessInfo.processInfo.hostName) \(endpoint ?? configuration.commandEndpoint)",
                endpoint: endpoint, duration: postgresql.lease)
            let standbyTransport = transportConfiguration(configuration, access: access, notifier: notifier)
            let standby = StandbyService(
                configuration: postgresql, claim: claim, transportConfiguration: standbyTransport, notifier: notifier,
                logger: logger)
            try await ServiceGroup(
                configuration: ServiceGroupConfiguration(
                    services: [
                        .init(
                            service: standby, successTerminationBehavior: .gracefullyShutdownGroup,
                            failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: "standby")
                    ], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            ).run()
            guard let (log, taken) = standby.outcome.withLock({ $0 }) else {
                logger.info("courtsided stopped (it was a standby)")
                return
            }
            (opened, leased, term) = (log, log, taken)
            epoch = "\(taken)-\(UUID().uuidString.prefix(8).lowercased())"
            storage = LogLocation.postgresql(postgresql).description
        } else {
            let sqlite = try openLog(dataDirectory, logger: logger)
            (opened, storage, leased) = (sqlite, sqlite.path, nil)
            epoch = "\(clock.now().rawValue)-\(UUID().uuidString.prefix(8).lowercased())"
        }
        let drill = FaultDrill.current
        let stalling = drill == .storageStall ? StallingEventLog(opened) : nil
        let log: any EventLog = stalling ?? opened
        let library = try GameLibrary(log: log, clock: clock, logger: logger)
        let tournament = LoadedTournament(configuration.tournament)
        // Creates the scheduled games whose teams are known, and from now on fills the bracket.
        let created = await library.useSchedule(configuration.tournament.schedule)

        // Subscribe before the snapshot, so the publisher misses nothing in between.
        let updates = library.commits()
        let start = library.snapshot()
        var transportConfiguration = transportConfiguration(configuration, access: access, notifier: notifier)
        transportConfiguration.overloadedReply = { frames in
            let error = CourtsideError(.overloaded, "courtsided has too many requests waiting; retry shortly")
            return WireCoding.encode(
                Reply.failure(error, commandID: frames.last.flatMap(CommandService.commandID(in:)), epoch: epoch))
        }
        transportConfiguration.failFirstPoll = drill == .transportPoll
        let transport: ZMQTransport
        do {
            transport = try await ZMQTransport.start(transportConfiguration, logger: logger)
        } catch {
            await library.close()
            throw error
        }
        logger.info(
            "courtsided serving",
            metadata: [
                "tournament": "\(configuration.tournament.name)", "storage": "\(storage)",
                "endpoint.command": "\(transport.boundCommandEndpoint)", "endpoint.events": "\(transport.boundEventEndpoint)",
                "epoch": "\(epoch)", "games": "\(start.value.count)", "games.created": "\(created.count)",
                "sequence": "\(start.sequence)",
                "security":
                    "\(configuration.security.map { "curve, \($0.clients.count) keys, anonymous \($0.anonymousDisplays ? "display" : "none")" } ?? "none")",
            ])

        // With a lease, nothing is answered or published once it runs out, even before the
        // lease watch stops the daemon: a standby may have taken over.
        var isActive: (@Sendable () -> Bool)?
        if let leased { isActive = { leased.holdsLease } }
        let started = configurationPath.flatMap { try? DaemonConfiguration.load(path: $0, serverCertificate: serverCertificate) }
        let services: [(String, any Service)] = [
            ("transport", TransportService(transport: transport)),
            (
                "event publisher",
                EventPublisher(
                    transport: transport, library: library, updates: updates, start: start, epoch: epoch,
                    heartbeatPeriod: .milliseconds(configuration.heartbeatMilliseconds), clock: clock, drill: drill,
                    isActive: isActive)
            ),
            (
                "command service",
                CommandService(
                    transport: transport, library: library, tournament: tournament, access: access, epoch: epoch,
                    isActive: isActive, tournamentReadsPace: configuration.tournamentReadsMegabytesPerSecond * 1e6,
                    logger: logger)
            ),
            ("game clock", ClockService(library: library, period: .milliseconds(100))),
            ("storage watch", StorageWatchService(library: library)),
            (
                "config reload",
                ReloadService(
                    configurationPath: configurationPath, tournament: tournament, library: library, transport: transport,
                    access: access,
                    security: configuration.security, serverCertificate: serverCertificate, started: started,
                    hangups: hangups, logger: logger)
            ),
            (
                "systemd notifier",
                NotifierService(
                    notifier: notifier, library: library, tournament: tournament, transport: transport,
                    role: term.map { "active (term \($0))" }, logger: logger)
            ),
        ]
        let leaseWatch: [(String, any Service)] = leased.map { [("lease watch", LeaseWatchService(log: $0))] } ?? []
        let allServices =
            services + leaseWatch
            + (metrics.map { [("metrics endpoint", MetricsService(endpoint: $0, library: library, logger: logger))] } ?? [])
        var groupConfiguration = ServiceGroupConfiguration(
            services: allServices.map { name, service in
                // Any service that ends or fails takes the others down gracefully (commits drain),
                // and the group then throws, so that only SIGTERM or SIGINT ends with status 0.
                // Named, or the group names each service by printing it whole: its configuration
                // and tournament included, a fifth of a start at 1,000 games.
                .init(
                    service: EssentialService(name: name, service: service, logger: logger),
                    successTerminationBehavior: .gracefullyShutdownGroup,
                    failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: name)
            },
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger)
        // Well under systemd's TimeoutStopSec and the 2 s the operators were promised.
        groupConfiguration.maximumGracefulShutdownDuration = .milliseconds(1500)
        groupConfiguration.maximumCancellationDuration = .milliseconds(300)
        if let drill {
            logger.warning("failure drill on: \(drill.rawValue)", metadata: ["COURTSIDE_FAULT": "\(drill.rawValue)"])
        }
        stalling?.arm()
        try await ServiceGroup(configuration: groupConfiguration).run()
        logger.info("courtsided stopped")
    }
}
