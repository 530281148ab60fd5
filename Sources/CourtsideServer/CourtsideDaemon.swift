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
/// SIGTERM or SIGINT. The executable only parses flags and calls ``run(_:configurationPath:serverCertificate:metrics:logger:)``.
///
/// Among several daemons on one PostgreSQL database it goes through the roles of a
/// ``DaemonRole``: standby until it takes the lease, active while it holds it, stepped down when
/// it loses it, and standby again, in the same process, until a stop is asked for.
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
        // Trapped from the start and for the whole run, so that a SIGHUP to a standby is a reload
        // later, never a kill.
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        let daemon = Daemon(
            configuration: configuration, configurationPath: configurationPath, serverCertificate: serverCertificate,
            metrics: metrics, notifier: SystemdNotifier(), access: configuration.security.map(AccessControl.init),
            hangups: hangups, logger: logger)
        // One group for the whole run, with the signals: each role's services run in a group of
        // their own within it, which a stop reaches too.
        let roles = RunService { [daemon] in
            try await withGracefulShutdownHandler {
                guard let postgresql = configuration.postgresql else {
                    // Alone on its SQLite log: active from start to stop.
                    _ = try await daemon.serve(try openLog(daemon.dataDirectory, logger: logger), lease: nil)
                    return
                }
                var role = DaemonRole.standby(steppedDownAt: nil)
                while !Task.isShuttingDownGracefully, !Task.isCancelled {
                    switch role {
                    case .standby(let steppedDownAt):
                        guard let (lease, term) = try await daemon.standby(postgresql, steppedDownAt: steppedDownAt) else {
                            return
                        }
                        role = .active(lease, term: term)
                    case .active(let lease, let term):
                        guard let steppedDown = try await daemon.serve(lease.log, lease: (keeper: lease, term: term)) else {
                            return
                        }
                        role = .steppedDown(steppedDown)
                    case .steppedDown(let steppedDown):
                        daemon.notifier.notify("STATUS=\(steppedDown); standby again")
                        role = .standby(steppedDownAt: steppedDown.at)
                    }
                }
            } onGracefulShutdown: {
                daemon.notifier.notify("STOPPING=1", "STATUS=stopping")
            }
        }
        try await ServiceGroup.run(alone: roles, named: "courtsided", signals: [.sigterm, .sigint], logger: logger)
        logger.info("courtsided stopped")
    }
}
