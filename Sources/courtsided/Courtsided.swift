public import ArgumentParser
import CourtsideServer
import Foundation
public import Logging

/// The courtsided executable: parse flags, read the config, run the daemon.
@main
struct Courtsided: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courtsided",
        abstract: "Courtside's live-scoring daemon: hosts a tournament's games and publishes every score change over ZeroMQ.",
        discussion: """
            Reads the tournament (teams, players, games, rules), the endpoints and the data directory \
            from a YAML config file; a flag overrides the file's setting. Scorekeepers and displays \
            send requests to the command endpoint (ZeroMQ ROUTER); every committed event and a \
            heartbeat go out on the event endpoint (ZeroMQ PUB). docs/PROTOCOL.md is the contract.

            Signals: SIGTERM or SIGINT stop it gracefully; SIGHUP reloads the tournament part of the \
            config (new teams and games are added; no game is ever dropped).

            Examples:
              courtsided --config config/tournament.yaml
              courtsided --config /etc/courtside/tournament.yaml --data-dir /var/lib/courtside
              courtsided --config config/tournament.yaml --command-endpoint tcp://0.0.0.0:5555 \\
                         --event-endpoint tcp://0.0.0.0:5556
            """
    )

    @Option(name: .long, help: ArgumentHelp("The YAML config file to read.", valueName: "path"))
    var config: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Directory of the event log (overrides data_dir; default \(DaemonConfiguration.defaultDataDirectory), relative to the working directory).",
            valueName: "dir"))
    var dataDir: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "ZeroMQ endpoint for requests (overrides endpoints.command; default \(DaemonConfiguration.defaultCommandEndpoint)).",
            valueName: "url"))
    var commandEndpoint: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "ZeroMQ endpoint for events (overrides endpoints.events; default \(DaemonConfiguration.defaultEventEndpoint)).",
            valueName: "url"))
    var eventEndpoint: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Heartbeat period in milliseconds, 10 to 1000 (overrides transport.heartbeat_ms; default 500).", valueName: "ms"))
    var heartbeatMs: Int?

    @Option(
        name: .long,
        help: ArgumentHelp("Lowest level logged: trace, debug, info, notice, warning, error or critical.", valueName: "level"))
    var logLevel: Logger.Level = .info

    func run() async throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "courtsided")
        var settings: DaemonConfiguration
        do {
            settings = try DaemonConfiguration.load(path: config)
        } catch {
            FileHandle.standardError.write(Data("courtsided: config error: \(error)\n".utf8))
            throw ExitCode(78)  // EX_CONFIG: systemd will not restart-loop on a broken file.
        }
        if let dataDir { settings.dataDirectory = dataDir }
        if let commandEndpoint { settings.commandEndpoint = commandEndpoint }
        if let eventEndpoint { settings.eventEndpoint = eventEndpoint }
        if let heartbeatMs {
            guard (10...1000).contains(heartbeatMs) else {
                throw ValidationError("--heartbeat-ms must be between 10 and 1000")
            }
            settings.heartbeatMilliseconds = heartbeatMs
        }
        do {
            try await CourtsideDaemon.run(settings, configurationPath: config, logger: logger)
        } catch {
            logger.critical("courtsided failed: \(error)")
            throw ExitCode.failure
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
