import CourtsideLibrary
import CourtsideModel
import CourtsideTransport
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// A service the daemon cannot run without: ending before a shutdown was asked for is a failure,
/// which ends the daemon with a non-zero status so that systemd restarts it.
struct EssentialService: Service {
    let name: String
    let service: any Service
    let logger: Logger

    /// Why the daemon stopped without being asked to.
    struct Ended: Error, CustomStringConvertible {
        var name: String
        var description: String { "the \(name) ended on its own" }
    }

    func run() async throws {
        do {
            try await service.run()
        } catch {
            logger.critical("the \(name) failed; stopping courtsided", metadata: ["error": "\(error)"])
            throw error
        }
        guard Task.isShuttingDownGracefully || Task.isCancelled else {
            logger.critical("the \(name) ended on its own; stopping courtsided")
            throw Ended(name: name)
        }
    }
}

/// Keeps the sockets open until the very end of a graceful shutdown, then flushes and closes them.
struct TransportService: Service {
    let transport: ZMQTransport

    func run() async {
        try? await gracefulShutdown()
        await transport.stop()
    }
}

/// Ends regulation time in idle games: commands check the clock themselves, this catches the
/// games where nobody sends anything when time runs out.
struct ClockService: Service {
    let library: GameLibrary
    let period: Duration

    func run() async {
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            await library.expireDueClocks()
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: period) }
        }
    }
}

/// Stops the daemon with an error once the event log has failed, so that systemd restarts it
/// and the restart rebuilds every game from the log (which holds every acknowledged move).
struct StorageWatchService: Service {
    let library: GameLibrary

    func run() async throws {
        for await failure in library.failures.cancelOnGracefulShutdown() { throw failure }
        // The library closed without failing (another service ended, and its closing is that
        // service's news): this one waits to be told.
        try? await gracefulShutdown()
    }
}

/// Tells systemd how the daemon is doing: READY=1 once serving, WATCHDOG=1 at half the watchdog
/// period while ``WatchdogCheck`` finds it alive, STATUS= with the number of games and the
/// sequence. (STOPPING=1 is the daemon's, once a stop is asked for: a step-down stops these
/// services too, and the daemon then goes on as a standby.)
struct NotifierService: Service {
    let notifier: SystemdNotifier
    let library: GameLibrary
    /// Its last reload's outcome goes in the status.
    let tournament: LoadedTournament
    let transport: ZMQTransport
    /// "active (term N)" among several daemons on one database; nil alone.
    let role: String?
    let logger: Logger

    /// How often to ping and update the status; the transport must poll more often than this.
    static func period(_ notifier: SystemdNotifier) -> Duration {
        notifier.watchdogInterval.map { min($0, .seconds(5)) } ?? .seconds(5)
    }

    func run() async {
        // The log is replayed and both sockets are bound before the services start.
        notifier.notify("READY=1", status())
        logger.info("ready", metadata: ["systemd.notify": "\(notifier.isEnabled)"])
        let period = Self.period(notifier)
        var check = WatchdogCheck()
        var withheld = false
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            if notifier.watchdogInterval != nil {
                if let problem = check.problem(
                    ioCycles: transport.completedCycles, oldestPendingCommit: library.oldestPendingCommit)
                {
                    // systemd restarts the daemon once the pings stay away for the whole period.
                    if !withheld { logger.critical("watchdog ping withheld: \(problem)") }
                    withheld = true
                } else {
                    if withheld { logger.notice("watchdog pings resumed") }
                    withheld = false
                    notifier.notify("WATCHDOG=1")
                }
            }
            notifier.notify(status())
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: period) }
        }
    }

    private func status() -> String {
        let counts = library.statusCounts()
        let live = (counts.value[.running] ?? 0) + (counts.value[.paused] ?? 0)
        let reload = tournament.lastReload.map { "; \($0)" } ?? ""
        return
            "STATUS=\(role.map { "\($0): " } ?? "")\(counts.value.values.reduce(0, +)) games (\(live) live), sequence \(counts.sequence)\(reload)"
    }
}

/// Reloads the tournament on SIGHUP: new teams and games are added; nothing is removed, and a
/// team or game that exists is never touched (each change the file makes to one is logged as a
/// warning, not applied). The allowlist is replaced whole, and the event
/// connections of the keys it no longer lists are cut.
struct ReloadService: Service {
    let configurationPath: String?
    let tournament: LoadedTournament
    let library: GameLibrary
    /// Where the open event connections of removed keys are cut.
    let transport: ZMQTransport
    /// The running allowlist, and the section it was started with.
    let access: AccessControl?
    let security: SecurityConfiguration?
    /// courtsided's `--server-certificate`, which replaces the file's `security.server_certificate`.
    let serverCertificate: String?
    /// The file as it was at the start, to tell which of its later changes wait for a restart
    /// (the running settings may come from flags instead).
    let started: DaemonConfiguration?
    /// Trapped before READY=1, so that an early SIGHUP is a reload, never the default action.
    let hangups: UnixSignalsSequence
    let logger: Logger

    func run() async {
        for await _ in hangups.cancelOnGracefulShutdown() {
            guard let configurationPath else {
                logger.warning("SIGHUP ignored: started without a config file")
                continue
            }
            do {
                // The whole file is checked before any of it is applied: a broken one changes nothing.
                let reloaded = try DaemonConfiguration.load(path: configurationPath, serverCertificate: serverCertificate)
                if let started {
                    let waiting = reloaded.settingsNeedingRestart(comparedWith: started)
                    if !waiting.isEmpty {
                        logger.warning(
                            "changed in the config, applied only after a restart: \(waiting.joined(separator: ", "))")
                    }
                }
                reloadAccess(reloaded.security)
                let (teams, unapplied, schedule) = tournament.merge(reloaded.tournament)
                for change in unapplied { logger.warning("\(change)", metadata: change.metadata) }
                let games = await library.useSchedule(schedule)
                // The organiser's changes that the file now contradicts stay in the log, unapplied.
                let contradicted = library.conflictingChanges.count
                let notApplied = unapplied.count + contradicted
                tournament.noteReload(
                    notApplied == 0
                        ? "reloaded: \(teams.count) new teams, \(games.count) new games"
                        : "reloaded: \(notApplied) changes not applied (the log decides; see the daemon's log)")
                logger.info(
                    "tournament reloaded",
                    metadata: [
                        "reload.new_teams": "\(teams.map(\.rawValue))", "reload.new_games": "\(games.map(\.rawValue))",
                        "reload.not_applied": "\(unapplied.count)", "reload.log_changes_not_applied": "\(contradicted)",
                    ])
            } catch {
                logger.error("reload failed; keeping the running tournament", metadata: ["error": "\(error)"])
            }
        }
    }

    private func reloadAccess(_ reloaded: SecurityConfiguration?) {
        guard let access, let security else {
            if reloaded != nil { logger.warning("the config now has a security section: restart courtsided to turn CURVE on") }
            return
        }
        guard let reloaded else {
            logger.warning("the security section is gone from the config; keeping it until a restart")
            return
        }
        if reloaded.serverKeys != security.serverKeys {
            logger.warning("security.server_certificate changed: the new certificate is used after a restart")
        }
        let removed = access.replace(with: reloaded)
        // Requests are checked against the new list as they come; a subscription never asks.
        transport.disconnectSubscribers(removed)
        logger.notice(
            "access list reloaded",
            metadata: [
                "security.clients": "\(reloaded.clients.map { "\($0.name) (\($0.role.rawValue))" })",
                "security.anonymous": "\(reloaded.anonymousDisplays ? "display" : "none")",
            ])
    }
}
