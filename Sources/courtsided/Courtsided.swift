public import ArgumentParser
import CourtsideServer
import Foundation
public import Logging
import Metrics
import Prometheus

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
            config (new teams and games are added; no game is ever dropped) and the list of keys.

            Security: with a `security` section in the config, both endpoints are CURVE-encrypted \
            and only the listed keys may connect, each as organiser, keeper or display. Without \
            one, courtsided serves plaintext and refuses to listen beyond loopback (exit 78) \
            unless --insecure is given. Make keys with `courtside keys new NAME`.

            Examples:
              courtsided --config config/tournament.yaml
              courtsided --config /etc/courtside/tournament.yaml --data-dir /var/lib/courtside
              courtsided --config venue.yaml --command-endpoint tcp://0.0.0.0:5555 \\
                         --event-endpoint tcp://0.0.0.0:5556     # venue.yaml has a security section
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
        help: ArgumentHelp(
            "The daemon's secret certificate (overrides security.server_certificate; under systemd %d/server.key_secret, from LoadCredential=).",
            valueName: "path"))
    var serverCertificate: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Serve Prometheus metrics at http://HOST:PORT/metrics (off by default).", valueName: "host:port"))
    var metricsListen: String?

    @Flag(
        name: .long,
        help: "Serve plaintext beyond loopback without a security section: anyone on the network may then change the scores.")
    var insecure = false

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
            settings = try DaemonConfiguration.load(path: config, serverCertificate: serverCertificate)
        } catch {
            FileHandle.standardError.write(Data("courtsided: config error: \(error)\n".utf8))
            throw ExitCode(78)  // EX_CONFIG: systemd will not restart-loop on a broken file.
        }
        for (flag, endpoint) in [("--command-endpoint", commandEndpoint), ("--event-endpoint", eventEndpoint)] {
            if let endpoint, let problem = DaemonConfiguration.endpointProblem(endpoint) {
                FileHandle.standardError.write(Data("courtsided: \(flag): \(problem)\n".utf8))
                throw ExitCode(78)
            }
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
        if serverCertificate != nil, settings.security == nil {
            logger.warning("--server-certificate is ignored: the config has no security section")
        }
        let exposed = settings.exposedEndpoints
        if settings.security == nil, !exposed.isEmpty {
            guard insecure else {
                FileHandle.standardError.write(
                    Data(
                        """
                        courtsided: refusing to serve plaintext on \(exposed.joined(separator: " and ")): anyone on that \
                        network could change the scores.
                        Add a security section to \(config) (docs/PROTOCOL.md, "Security"): make a server key and one \
                        per client with `courtside keys new NAME --dir keys`, and list the clients with their roles. \
                        Or listen on 127.0.0.1 only, or pass --insecure to accept the risk.

                        """.utf8))
                throw ExitCode(78)
            }
            logger.warning(
                "serving plaintext beyond loopback (--insecure): anyone who reaches these endpoints may change the scores",
                metadata: ["endpoints": "\(exposed)"])
        }
        var metrics: MetricsEndpoint?
        if let metricsListen {
            guard let colon = metricsListen.lastIndex(of: ":"), colon != metricsListen.startIndex,
                let port = Int(metricsListen[metricsListen.index(after: colon)...]), (0...65_535).contains(port)
            else {
                FileHandle.standardError.write(
                    Data("courtsided: --metrics-listen takes HOST:PORT, for example 127.0.0.1:9090\n".utf8))
                throw ExitCode(78)
            }
            let registry = PrometheusCollectorRegistry()
            MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
            metrics = MetricsEndpoint(host: String(metricsListen[..<colon]), port: port, registry: registry)
        }
        do {
            try await CourtsideDaemon.run(
                settings, configurationPath: config, serverCertificate: serverCertificate, metrics: metrics, logger: logger)
        } catch {
            logger.critical("courtsided failed: \(error)")
            throw ExitCode.failure
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
