import CourtsidePostgres
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// What every role of one courtsided run shares, and its standby role; ``serve(_:lease:)``
/// (`Daemon+Serving.swift`) is its active one.
struct Daemon: Sendable {
    let configuration: DaemonConfiguration
    let configurationPath: String?
    /// courtsided's `--server-certificate`, which replaces the file's `security.server_certificate`.
    let serverCertificate: String?
    let metrics: MetricsEndpoint?
    let notifier: SystemdNotifier
    let access: AccessControl?
    /// SIGHUP, trapped for the whole run.
    let hangups: UnixSignalsSequence
    let logger: Logger

    var dataDirectory: URL { URL(fileURLWithPath: configuration.dataDirectory, isDirectory: true) }

    /// Waits as a standby until this daemon takes the lease of `postgresql`'s log: then its
    /// keeper, already renewing, and the term; nil when a stop came first. `steppedDownAt` is
    /// when it lost the lease, if it held it before.
    func standby(_ postgresql: PostgresLogConfiguration, steppedDownAt: ContinuousClock.Instant?) async throws -> (
        LeaseService, Int64
    )? {
        // The same holder after a restart in the same place (machine and endpoint): systemd's
        // restart of a crashed daemon takes its own lease back at once, in a new term that
        // fences the run before it should that still be alive.
        let endpoint = configuration.advertisedEndpoint ?? CourtsideDaemon.advertisable(configuration.commandEndpoint)
        let claim = LeaseClaim(
            holder: "\(ProcessInfo.processInfo.hostName) \(endpoint ?? configuration.commandEndpoint)",
            endpoint: endpoint, duration: postgresql.lease)
        let standby = StandbyService(
            configuration: postgresql, claim: claim,
            transportConfiguration: CourtsideDaemon.transportConfiguration(configuration, access: access, notifier: notifier),
            notifier: notifier, steppedDownAt: steppedDownAt, logger: logger)
        try await ServiceGroup.run(alone: standby, named: "standby", logger: logger)
        guard let (lease, term) = standby.outcome.withLock({ $0 }) else {
            logger.info("courtsided stopped (it was a standby)")
            return nil
        }
        guard !Task.isShuttingDownGracefully else {
            // Taken just as a stop came: handed straight back.
            await lease.handBack()
            return nil
        }
        return (lease, term)
    }
}
