import CourtsideLibrary
import CourtsideModel
import CourtsidePostgres
import CourtsideProtocol
import CourtsideStorage
import CourtsideTransport
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

extension Daemon {
    /// The active role: replays `opened` into the game library, binds the sockets and serves
    /// until a stop is asked for (nil), or the lease that `lease` keeps is lost: then what it
    /// holds is closed (its connections already cut, nothing waits on the database) and the
    /// step-down is returned. Throws when a service fails otherwise (the log, say): the daemon
    /// then stops, and systemd restarts it.
    func serve(_ opened: any EventLog, lease: (keeper: LeaseService, term: Int64)?) async throws
        -> LeaseService.SteppedDown?
    {
        do {
            try await serving(opened, lease: lease)
            return nil
        } catch {
            if let steppedDown = await lease?.keeper.steppedDown { return steppedDown }
            throw error
        }
    }

    private func serving(_ opened: any EventLog, lease: (keeper: LeaseService, term: Int64)?) async throws {
        let clock = SystemTimeSource()
        let storage: String
        // A new epoch per run tells displays that the daemon restarted and they should resync.
        // Its leading number orders epochs: the lease's term among daemons sharing PostgreSQL,
        // the start time otherwise (docs/PROTOCOL.md, "Epochs").
        let epoch: String
        if let lease, let postgresql = configuration.postgresql {
            epoch = "\(lease.term)-\(UUID().uuidString.prefix(8).lowercased())"
            storage = LogLocation.postgresql(postgresql).description
        } else {
            epoch = "\(clock.now().rawValue)-\(UUID().uuidString.prefix(8).lowercased())"
            storage = (opened as? SQLiteEventLog)?.path ?? "\(type(of: opened))"
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
        var transportConfiguration = CourtsideDaemon.transportConfiguration(
            configuration, access: access, notifier: notifier)
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
        // A commit's replies go to the I/O thread together, waking it at most once.
        library.answerCommits { answer in transport.deferringReplies(answer) }
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
        // lease's keeper stops the services: a standby may have taken over.
        var isActive: (@Sendable () -> Bool)?
        if let leased = lease?.keeper.log { isActive = { leased.holdsLease } }
        let started = configurationPath.flatMap { try? DaemonConfiguration.load(path: $0, serverCertificate: serverCertificate) }
        // Each active run reads SIGHUP afresh: the run before it ended its reading.
        let hangups = await UnixSignalsSequence(trapping: .sighup)
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
                    role: lease.map { "active (term \($0.term))" }, logger: logger)
            ),
        ]
        let allServices =
            services
            + (metrics.map { [("metrics endpoint", MetricsService(endpoint: $0, library: library, logger: logger))] } ?? [])
        // Any service that ends or fails takes the others down gracefully (commits drain),
        // and the group then throws, so that only SIGTERM or SIGINT ends with status 0.
        // Named, or the group names each service by printing it whole: its configuration
        // and tournament included, a fifth of a start at 1,000 games.
        let essential = allServices.map { name, service in
            ServiceGroupConfiguration.ServiceConfiguration(
                service: EssentialService(name: name, service: service, logger: logger),
                successTerminationBehavior: .gracefullyShutdownGroup,
                failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: name)
        }
        // The lease's keeper first, so stopped last: it renews the lease while commits drain.
        // Its step-down is no failure of courtsided's (it goes on as a standby).
        let keeper = lease.map {
            ServiceGroupConfiguration.ServiceConfiguration(
                service: $0.keeper, successTerminationBehavior: .gracefullyShutdownGroup,
                failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: "lease")
        }
        // The signals are the run's group's, around this one.
        var groupConfiguration = ServiceGroupConfiguration(services: (keeper.map { [$0] } ?? []) + essential, logger: logger)
        // Well under systemd's TimeoutStopSec and the 2 s the operators were promised. Nothing
        // outlasts the cancellation that follows: a service waiting on the database is freed
        // as the lease's keeper, cancelled, cuts the log's connections.
        groupConfiguration.maximumGracefulShutdownDuration = .milliseconds(1500)
        groupConfiguration.maximumCancellationDuration = .milliseconds(300)
        if let drill {
            logger.warning("failure drill on: \(drill.rawValue)", metadata: ["COURTSIDE_FAULT": "\(drill.rawValue)"])
        }
        stalling?.arm()
        try await ServiceGroup(configuration: groupConfiguration).run()
    }
}
