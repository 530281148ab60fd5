public import ArgumentParser
import CourtsideClient
import CourtsideLocalization
import CourtsideModel
import CourtsideWeb
import CourtsideWebStore
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
public import Logging
import Metrics
import Prometheus
import ServiceLifecycle
import ZeroMQ

/// The courtside-web executable: serve the daemon's games to browsers (the default), or manage
/// the courts' join codes.
@main
struct CourtsideWebCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courtside-web",
        abstract: "Serves courtsided's games to browsers, and lets volunteers keep score from their phones.",
        discussion: """
            Without a subcommand it serves (see `courtside-web serve --help`). `courtside-web codes` \
            shows, renews and prints the courts' join codes.
            """,
        subcommands: [Serve.self, Codes.self, Desk.self], defaultSubcommand: Serve.self)
}

/// Follow a daemon, serve its games to browsers and its keepers' pages to phones.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serves courtsided's games to browsers: pages for TVs and phones, JSON and Server-Sent Events.",
        discussion: """
            A display of the daemon like any other: it follows docs/PROTOCOL.md's sync contract, so it \
            may run on another machine, and several may serve many phones. Every page and script is \
            served from this executable (no internet needed).

            Pages: / (every game), /games/ID (one court's TV), /keep (a court's keeper, on a \
            phone that joined with the court's code). API: /api/games, /api/games/ID, \
            /api/standings, /api/schedule, /api/events (Server-Sent Events: a full state first, then \
            each change with its sequence), /api/keep/session and /api/keep/commands (a joined \
            device's), /healthz (200 only while in sync with the daemon).

            On a secured daemon give each court's keeper key (--court-key): a device that joined \
            Court 1 then keeps score with Court 1's key alone, and the daemon's roles judge it.

            Examples:
              courtside-web
              courtside-web --listen 0.0.0.0:8443 --tls-certificate tls/web.crt --tls-key tls/web.key
              courtside-web --listen 0.0.0.0:8080 --key keys/web.key_secret --server-key keys/server.key \
                --court-key "Court 1=keys/court-1.key_secret" --court-key "Court 2=keys/court-2.key_secret"
            """)

    @Option(
        help: ArgumentHelp(
            "courtsided's command endpoint; several, comma-separated, fail over in turn on a timeout or a standby's not_active.",
            valueName: "url[,url]"))
    var commandEndpoint = ProcessInfo.processInfo.environment["COURTSIDE_COMMAND_ENDPOINT"] ?? Endpoints().command

    @Option(
        help: ArgumentHelp(
            "courtsided's event endpoint; several, comma-separated, are all subscribed to.", valueName: "url[,url]"))
    var eventEndpoint = ProcessInfo.processInfo.environment["COURTSIDE_EVENT_ENDPOINT"] ?? Endpoints().events

    @Option(help: ArgumentHelp("Where to serve HTTP.", valueName: "host:port"))
    var listen = "127.0.0.1:8080"

    @Option(help: VenueLanguage.help)
    var language = VenueLanguage.fromEnvironment

    @Option(
        name: .customLong("key"),
        help: ArgumentHelp("This gateway's secret certificate, for a secured daemon (or $COURTSIDE_KEY).", valueName: "file"))
    var keyFlag: String?

    @Option(
        name: .customLong("server-key"),
        help: ArgumentHelp(
            "The daemon's public key: certificate file or 40 Z85 characters (or $COURTSIDE_SERVER_KEY).", valueName: "file|z85"))
    var serverKeyFlag: String?

    @Option(
        help: ArgumentHelp(
            "Where the gateway keeps its join codes, devices and sessions (or $COURTSIDE_WEB_STATE_DIR).", valueName: "dir"))
    var stateDir = ProcessInfo.processInfo.environment["COURTSIDE_WEB_STATE_DIR"] ?? "web-data"

    @Option(
        name: .customLong("court-key"),
        help: ArgumentHelp(
            "A court's keeper key, as COURT=FILE (its secret certificate): commands of devices that joined the court go "
                + "under it. Repeat for each court; needs --server-key.", valueName: "court=file"))
    var courtKeys: [String] = []

    @Option(
        help: ArgumentHelp(
            "Serve HTTPS with this certificate chain (PEM): phones then keep the keeper page and its queue across a "
                + "reload while offline (browsers give service workers to HTTPS pages and loopback only).", valueName: "file"))
    var tlsCertificate: String?

    @Option(help: ArgumentHelp("The private key (PEM) of --tls-certificate.", valueName: "file"))
    var tlsKey: String?

    @Option(
        help: ArgumentHelp(
            "Turns on the organiser's desk at /desk: a file holding the bcrypt hash of its passphrase "
                + "(courtside-web desk passphrase makes one).", valueName: "file"))
    var deskPassphraseFile: String?

    @Option(
        help: ArgumentHelp(
            "The organiser's secret certificate: the desk's commands go under it on a secured daemon (needs --server-key).",
            valueName: "file"))
    var organiserKey: String?

    @Option(
        help: ArgumentHelp(
            "Connections open at once, in all; more are answered 503. Lowered to what the descriptor limit allows.",
            valueName: "n"))
    var maxConnections = GatewayLimits().maxConnections

    @Option(
        help: ArgumentHelp(
            "Connections open at once from one address (a proxy named by --trusted-proxy counts against --max-connections alone).",
            valueName: "n"))
    var maxConnectionsPerAddress = GatewayLimits().maxConnectionsPerAddress

    @Option(
        help: ArgumentHelp(
            "A reverse proxy in front of this gateway (HAProxy, nginx), by the address it connects from; repeat for each. "
                + "Its requests count against the client its X-Forwarded-For names, its connections against --max-connections alone.",
            valueName: "address"))
    var trustedProxy: [String] = []

    @Option(
        help: ArgumentHelp(
            "Seconds a connection may take to send a request's head, and stay idle between requests.", valueName: "seconds"))
    var headTimeout = Int(GatewayLimits().headTimeout.components.seconds)

    @Option(
        help: ArgumentHelp(
            "Devices joined to one court at once; a join beyond it expires the court's oldest unused device.",
            valueName: "n"))
    var devicesPerCourt = GatewayStore.Limits().devicesPerCourt

    /// The bounds of the gateway's door, from the flags.
    var limits: GatewayLimits {
        var limits = GatewayLimits()
        limits.maxConnections = maxConnections
        limits.maxConnectionsPerAddress = maxConnectionsPerAddress
        limits.headTimeout = .seconds(headTimeout)
        limits.trustedProxies = Set(trustedProxy)
        return limits
    }

    /// The flag, or else the environment: an optional option cannot have a default of its own.
    var key: String? { keyFlag ?? ProcessInfo.processInfo.environment["COURTSIDE_KEY"] }
    var serverKey: String? { serverKeyFlag ?? ProcessInfo.processInfo.environment["COURTSIDE_SERVER_KEY"] }

    @Option(
        help: ArgumentHelp("Lowest level logged: trace, debug, info, notice, warning, error or critical.", valueName: "level"))
    var logLevel: Logger.Level = .info

    func validate() throws {
        guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]),
            (0...65_535).contains(port), colon != listen.startIndex
        else { throw ValidationError("--listen takes HOST:PORT, for example 127.0.0.1:8080") }
        if let language { _ = try VenueLanguage.language(language) }
        for proxy in trustedProxy where !ClientAddress.isAddress(proxy) {
            throw ValidationError(
                "--trusted-proxy takes an address as the proxy connects from, such as 127.0.0.1; not \"\(proxy)\"")
        }
        if (key == nil) != (serverKey == nil) {
            throw ValidationError(
                "--key and --server-key go together: this gateway's secret certificate and the daemon's public key")
        }
        if (tlsCertificate == nil) != (tlsKey == nil) {
            throw ValidationError("--tls-certificate and --tls-key go together: the certificate chain and its private key")
        }
        if organiserKey != nil, serverKey == nil {
            throw ValidationError("--organiser-key needs --key and --server-key: it talks to a secured daemon")
        }
        if !courtKeys.isEmpty, serverKey == nil {
            throw ValidationError("--court-key needs --key and --server-key: the courts' keys talk to a secured daemon")
        }
        for (flag, value) in [
            ("--max-connections", maxConnections), ("--max-connections-per-address", maxConnectionsPerAddress),
            ("--head-timeout", headTimeout), ("--devices-per-court", devicesPerCourt),
        ] where value < 1 {
            throw ValidationError("\(flag) takes a whole number of at least 1, not \(value)")
        }
        for entry in courtKeys where !entry.contains("=") {
            throw ValidationError("--court-key takes COURT=FILE, for example \"Court 1=keys/court-1.key_secret\", not \(entry)")
        }
    }

    /// The server's TLS settings from PEM files: its certificate chain and its private key.
    static func tls(certificate: String, key: String) throws -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        let privateKey: NIOSSLPrivateKey
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificate)
        } catch {
            throw ValidationError("--tls-certificate \(certificate): not a PEM certificate chain (\(error))")
        }
        do {
            privateKey = try NIOSSLPrivateKey(file: key, format: .pem)
        } catch {
            throw ValidationError("--tls-key \(key): not a PEM private key (\(error))")
        }
        guard !chain.isEmpty else { throw ValidationError("--tls-certificate \(certificate) holds no certificate") }
        return .makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
    }

    /// Each court's keys toward the daemon, from `--court-key`.
    func loadCourtKeys(serverKey: String) throws(CourtsideError) -> [String: CurveClientKeys] {
        var keys: [String: CurveClientKeys] = [:]
        for entry in courtKeys {
            let equals = entry.firstIndex(of: "=")!
            let court = String(entry[..<equals]).trimmingCharacters(in: .whitespaces)
            keys[court] = try CurveClientKeys.load(
                certificate: String(entry[entry.index(after: equals)...]), serverKey: serverKey)
        }
        return keys
    }

    func run() async throws {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "courtside-web")
        var endpoints = Endpoints(command: commandEndpoint, events: eventEndpoint)
        var keys: [String: CurveClientKeys]?
        var organiser: [String: CurveClientKeys]?
        if let key, let serverKey {
            do {
                endpoints.curve = try CurveClientKeys.load(certificate: key, serverKey: serverKey)
                keys = try loadCourtKeys(serverKey: serverKey)
                // No organiser key: the gateway holds no organiser power, and the desk can do nothing.
                organiser = [:]
                if let organiserKey {
                    organiser?[DeskGateway.lane] = try CurveClientKeys.load(certificate: organiserKey, serverKey: serverKey)
                }
            } catch {
                FileHandle.standardError.write(Data("courtside-web: \(error.message)\n".utf8))
                throw ExitCode(78)
            }
        }
        let store: GatewayStore
        do {
            store = try GatewayStore(
                directory: URL(fileURLWithPath: stateDir, isDirectory: true),
                limits: GatewayStore.Limits(devicesPerCourt: devicesPerCourt))
        } catch {
            FileHandle.standardError.write(Data("courtside-web: cannot open its state in \(stateDir): \(error)\n".utf8))
            throw ExitCode(73)
        }
        var limits = self.limits
        let descriptors = DescriptorLimit.raise()
        let (allowed, short) = DescriptorLimit.connections(wanted: limits.maxConnections, descriptors: descriptors)
        if short {
            logger.warning(
                "the descriptor limit holds fewer connections than --max-connections: raise LimitNOFILE (ulimit -n)",
                metadata: [
                    "descriptors": "\(descriptors ?? 0)", "max_connections": "\(limits.maxConnections)",
                    "connections": "\(allowed)",
                ])
        }
        limits.maxConnections = allowed
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let live = LiveTournament(endpoints: endpoints, logger: logger, pingInterval: limits.eventPing)
        live.start()
        let colon = listen.lastIndex(of: ":")!
        let storeMetrics = GatewayStoreMetrics(store)
        let choice = LanguageChoice(
            venue: try language.map(VenueLanguage.language), configured: { [live] in live.configuredLanguage })
        let router = WebGateway.router(live, metrics: registry, limits: limits, language: choice, logger: logger) {
            await storeMetrics.record()
        }
        let gate = ConnectionGate(
            maximum: limits.maxConnections, perAddress: limits.maxConnectionsPerAddress, unbounded: limits.trustedProxies,
            userTimeout: limits.stalledWriteTimeout,
            logger: logger)
        let keeper = KeeperGateway(
            live: live, store: store, relay: CommandRelay(endpoint: commandEndpoint, courtKeys: keys),
            secureCookies: tlsCertificate != nil, limits: limits)
        keeper.addRoutes(to: router)
        let server: HTTPServerBuilder
        do {
            let tls = try tlsCertificate.map { try Self.tls(certificate: $0, key: tlsKey!) }
            server = GatewayServer.builder(limits: limits, gate: gate, tls: tls, keeper: keeper)
        } catch {
            FileHandle.standardError.write(Data("courtside-web: \(error)\n".utf8))
            throw ExitCode(78)
        }
        if let deskPassphraseFile {
            let hash: String
            do {
                hash = try String(contentsOfFile: deskPassphraseFile, encoding: .utf8).trimmingCharacters(
                    in: .whitespacesAndNewlines)
            } catch {
                FileHandle.standardError.write(
                    Data("courtside-web: --desk-passphrase-file \(deskPassphraseFile): \(error.localizedDescription)\n".utf8))
                throw ExitCode(78)
            }
            guard hash.hasPrefix("$2") else {
                FileHandle.standardError.write(
                    Data(
                        "courtside-web: --desk-passphrase-file \(deskPassphraseFile) holds no bcrypt hash: make one with courtside-web desk passphrase\n"
                            .utf8))
                throw ExitCode(78)
            }
            DeskGateway(
                live: live, store: store, relay: CommandRelay(endpoint: commandEndpoint, courtKeys: organiser),
                passphraseHash: hash, secureCookies: tlsCertificate != nil, limits: limits
            ).addRoutes(to: router)
        } else {
            DeskGateway.addDisabledRoute(to: router)
        }
        let app = Application(
            router: router, server: server,
            configuration: .init(
                address: .hostname(String(listen[..<colon]), port: Int(listen[listen.index(after: colon)...])!),
                serverName: "courtside-web", backlog: GatewayServer.backlog),
            logger: logger)
        // The live copy stops first on SIGTERM: that ends every /api/events stream, so the HTTP
        // server's graceful shutdown has no endless response to wait for.
        let group = ServiceGroup(
            configuration: .init(
                services: [app, LiveTournamentService(live: live)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}

/// Keeps ``LiveTournament`` for the life of the service group, and stops it at the start of a
/// graceful shutdown (services shut down in reverse order, so before the HTTP server).
struct LiveTournamentService: Service {
    let live: LiveTournament

    func run() async {
        try? await gracefulShutdown()
        live.stop()
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
