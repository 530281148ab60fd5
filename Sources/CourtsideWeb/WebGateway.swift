public import CourtsideLocalization
import CourtsideModel
import CourtsideProtocol
import CourtsideViewModels
import Foundation
public import Hummingbird
public import Logging
import NIOCore
public import Prometheus

/// The HTTP side of courtside-web: pages for screens, JSON and a Server-Sent Events stream for
/// programs, all served from what ``LiveTournament`` holds (never a request to the daemon).
public enum WebGateway {
    /// The router: the middleware every route passes (errors answered, another site's POST
    /// refused, the request's language), the language picker and the screens' routes
    /// (``screens(_:metrics:limits:refresh:)``); the keeper's and the desk's collections are added
    /// to it. `live` must be started. `/metrics` serves `registry`, which `MetricsSystem` was
    /// bootstrapped with.
    /// `refresh` runs before each scrape of `/metrics` (the store's size is read then); a write
    /// to a browser's event stream that stalls for `limits.stalledWriteTimeout` closes it.
    /// `language` chooses each request's language, the venue's default among its sources.
    public static func router(
        _ live: LiveTournament, metrics registry: PrometheusCollectorRegistry, limits: GatewayLimits = GatewayLimits(),
        language: LanguageChoice = LanguageChoice(), logger: Logger, refresh: (@Sendable () async -> Void)? = nil
    ) -> Router<GatewayRequestContext> {
        let router = Router(context: GatewayRequestContext.self)
        // First, so that it wraps every route added after it, and the answer to no route.
        router.add(middleware: InternalErrorMiddleware(logger: logger))
        router.add(middleware: CrossSiteMiddleware())
        router.add(middleware: ClientAddressMiddleware(ClientAddress(trustedProxies: limits.trustedProxies)))
        router.add(middleware: LanguageMiddleware(language))
        LanguagePicker.addRoute(to: router)
        router.addRoutes(screens(live, metrics: registry, limits: limits, refresh: refresh))
        return router
    }

    /// The routes of the screens and of programs: `/metrics`, `/healthz`, the read API and its
    /// event stream, the pages of games, results and teams, and their files; none needs a session.
    static func screens(
        _ live: LiveTournament, metrics registry: PrometheusCollectorRegistry, limits: GatewayLimits,
        refresh: (@Sendable () async -> Void)?
    ) -> RouteCollection<GatewayRequestContext> {
        let router = RouteCollection(context: GatewayRequestContext.self)
        router.get("/metrics") { _, _ -> Response in
            await refresh?()
            MissingMessages.record(into: registry)
            var buffer: [UInt8] = []
            registry.emit(into: &buffer)
            return text(String(decoding: buffer, as: UTF8.self), status: .ok, type: "text/plain; version=0.0.4; charset=utf-8")
        }
        router.get("/healthz") { _, _ -> Response in
            // 200 only while the view can be vouched for, so a load balancer drops a stale gateway.
            live.current.inSync
                ? text("in sync\n", status: .ok) : text("not in sync with courtsided\n", status: .serviceUnavailable)
        }
        router.get("/api/games") { _, _ -> Response in
            let view = live.current
            return json(APIBody(key: "games", value: view.summaries, view: view))
        }
        router.get("/api/games/:id") { _, context -> Response in
            let id = GameID(try context.parameters.require("id"))
            let view = live.current
            guard let game = view.games[id] else {
                // The protocol's error reply, as a daemon would answer.
                let error = CourtsideError(.unknownGame, "no game has id \(id)")
                return json(Reply.failure(error, commandID: nil, epoch: view.epoch), status: .notFound)
            }
            return json(APIBody(key: "game", value: game, view: view))
        }
        router.get("/api/standings") { _, _ -> Response in
            // The table as of its own sequence: it changes with results only, not with every event.
            let view = live.current
            return json(APIBody(key: "standings", value: view.standings, view: view, sequence: view.standingsSequence))
        }
        router.get("/api/schedule") { _, _ -> Response in
            // Every game's state and score as of the view's sequence; the slots as of the bracket's.
            let view = live.current
            return json(APIBody(key: "bracket", value: view.schedule, view: view, bracketSequence: view.bracketSequence))
        }
        router.get("/api/events") { request, context -> Response in
            // `?ping=SECONDS`: a page that must know when it hears nothing (the keeper's) gets
            // `sync` events that often (EventStreamPings).
            // `?lang=`: the views in the page's language, which the page names (a program that
            // names none reads English, whatever its headers say).
            let words =
                request.uri.queryParameters[Substring(LanguageChoice.parameter)].flatMap({ Language(tag: $0) }).map {
                    Words.of($0)
                }
                ?? .english
            let syncEvery = EventStreamPings.interval(request.uri.queryParameters["ping"])
            let channel = context.channel
            let stall = TimeAmount(limits.stalledWriteTimeout)
            // A small send buffer: a browser that stops reading fills it within a few events, and
            // its stream counts as behind from then on (EventStreamRoster; let go when the write
            // stalls), rather than after megabytes that the kernel would otherwise buffer for it.
            channel.setOption(ChannelOptions.socketOption(.so_sndbuf), value: SocketOptionValue(limits.eventSendBuffer))
                .whenFailure { _ in }
            // A browser that stopped reading is let go: its socket's buffer is full, and the
            // write would wait for ever.
            try await StalledWriteCloser.watch(channel, stall: stall)
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream"
            headers[.cacheControl] = "no-store"
            return Response(
                status: .ok, headers: headers,
                body: ResponseBody { writer in
                    // Browsers reconnect after this long when the stream ends.
                    try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
                    // From here the channel's event loop writes the stream (EventStreamHub),
                    // behind the head and the line above, until the stream ends.
                    await live.stream(to: channel, words: words, syncEvery: syncEvery)
                    try await writer.finish(nil)
                })
        }
        router.get("/") { _, context -> Response in html(Pages.allGames(live.current, words: context.words)) }
        // A game's pages: 404 for an id no game can have, the page for any other, each in
        // the request's language.
        let gamePages: [(String, @Sendable (LiveTournament.View, GameID, Words, String) -> String)] = [
            ("/games/:id", { Pages.court($0, game: $1, words: $2, path: $3) }),
            ("/overlay/:id", { view, id, words, _ in Pages.overlay(view, game: id, words: words) }),
            ("/games/:id/box", { view, id, words, _ in Pages.box(view, game: id, words: words) }),
        ]
        for (path, page) in gamePages {
            router.get(RouterPath(path)) { request, context -> Response in
                let id = try context.parameters.require("id")
                if let refusal = impossibleGame(id) { return refusal }
                return html(page(live.current, GameID(id), context.words, request.uri.description))
            }
        }
        router.get("/results") { _, context -> Response in html(Pages.results(live.current, words: context.words)) }
        router.get("/teams") { _, context -> Response in html(Pages.teams(live.current, words: context.words)) }
        router.get("/teams/sheet") { request, context -> Response in
            // The QR codes hold the address this sheet was asked at, or the one `?base=` gives.
            let typed = request.uri.queryParameters["base"].map(String.init)
            guard let base = DeskCodesPage.baseURL(typed: typed, host: request.head.authority, secure: false) else {
                return text("base must be an http or https address, such as http://192.168.1.20:8080\n", status: .badRequest)
            }
            return html(try Pages.teamSheet(live.current, baseURL: base, words: context.words))
        }
        router.get("/teams/:id") { _, context -> Response in
            // The path holds the id percent-encoded (``TeamPage/path(of:)``); one that does not decode names no team.
            let id = try context.parameters.require("id")
            guard let team = id.removingPercentEncoding,
                let page = Pages.team(live.current, team: TeamID(team), words: context.words)
            else {
                return text("no team has id \(id)\n", status: .notFound)
            }
            return html(page)
        }
        router.get("/static/app.js") { _, _ -> Response in
            file(Pages.script, type: "text/javascript; charset=utf-8")
        }
        // The binding both the screens and the keeper page load; HEAD too, as for the files the
        // keeper's service worker keeps.
        router.get("/static/bind.js") { _, _ -> Response in
            file(PackageResources.bind_js, type: "text/javascript; charset=utf-8")
        }
        router.head("/static/bind.js") { _, _ -> Response in
            file(PackageResources.bind_js, type: "text/javascript; charset=utf-8").createHeadResponse()
        }
        router.get("/static/clock.js") { _, _ -> Response in
            file(Pages.clockScript, type: "text/javascript; charset=utf-8")
        }
        router.get("/static/style.css") { _, _ -> Response in
            file(Pages.style, type: "text/css; charset=utf-8")
        }
        router.get("/static/language.css") { _, _ -> Response in
            file(Pages.languageStyle, type: "text/css; charset=utf-8")
        }
        return router
    }

    /// A 404 for an id no game can have (`%zz`, a NUL, 65 characters, the reserved `_tournament`),
    /// as `/api/games/ID` answers; nil for an id a game may have, now or once the schedule names it.
    static func impossibleGame(_ id: String) -> Response? {
        guard let problem = GameSetup.problem(withID: id) else { return nil }
        return text("no game can have this id: \(problem)\n", status: .notFound)
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        guard let body = try? WireCoding.encode(value) else {
            return text("the answer could not be encoded\n", status: .internalServerError)
        }
        return json(body: body, status: status)
    }

    /// ``json(_:status:)`` for a value that writes its own JSON (a keeper's reply, each command):
    /// by ``JSONWriter``, not Foundation's encoder, which a generic `Encodable` gets.
    static func json(_ value: some Encodable & JSONWritable, status: HTTPResponse.Status = .ok) -> Response {
        json(body: WireCoding.encode(value), status: status)
    }

    private static func json(body: [UInt8], status: HTTPResponse.Status) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func text(_ text: String, status: HTTPResponse.Status, type: String = "text/plain; charset=utf-8") -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// A file embedded in the executable, as it was written.
    static func file(_ bytes: [UInt8], type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func html(_ page: String) -> Response {
        text(page, status: .ok, type: "text/html; charset=utf-8")
    }
}

extension LiveTournament.View {
    /// Every game as the protocol's `list_games` shows it, sorted by id.
    var summaries: [GameSummary] { games.keys.sorted().compactMap { games[$0].map(GameSummary.init) } }

    /// The bracket joined with the games as they are at ``sequence`` (``BracketEntry/following(_:)``).
    var schedule: [BracketEntry] { bracket.map { $0.following(games[$0.game]) } }

    /// The daemon's time now, estimated from the last heartbeat.
    var daemonNow: Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) + clockOffset }
}

/// An API body: the protocol's field names for `value` under `key`, with the sequence it
/// reflects and whether the gateway can vouch for it.
struct APIBody<Value: Encodable>: Encodable {
    var key: String
    var value: Value
    var sequence: Int64
    var inSync: Bool
    /// For the schedule: the sequence its slots (the teams the results decided) reflect.
    var bracketSequence: Int64?

    /// `sequence` defaults to the view's: every event up to it is in `value`.
    init(key: String, value: Value, view: LiveTournament.View, sequence: Int64? = nil, bracketSequence: Int64? = nil) {
        (self.key, self.value, self.sequence, self.inSync) = (key, value, sequence ?? view.sequence, view.inSync)
        self.bracketSequence = bracketSequence
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(sequence, forKey: Key("sequence"))
        try container.encode(inSync, forKey: Key("in_sync"))
        try container.encodeIfPresent(bracketSequence, forKey: Key("bracket_sequence"))
        try container.encode(value, forKey: Key(key))
    }
}

/// One Server-Sent Event of `/api/events`: `event:` names the kind, `data:` is one line of JSON.
/// Encoded once and shared by every browser's stream (a ByteBuffer is copied on write only).
struct EventStreamMessage: Sendable {
    let buffer: ByteBuffer

    /// A comment, which EventSource ignores: sent to every stream now and then, so that a
    /// write to a browser that vanished fails and its stream is released.
    static let ping = EventStreamMessage(buffer: ByteBuffer(string: ": ping\n\n"))

    /// A message of these bytes as they are (a comment, or a test's own).
    init(buffer: ByteBuffer) { self.buffer = buffer }

    /// Several messages as one write, in order.
    init(joining messages: [EventStreamMessage]) {
        var buffer = ByteBuffer()
        for message in messages { buffer.writeImmutableBuffer(message.buffer) }
        self.buffer = buffer
    }

    /// The update with its views and courts' lines in `words`' language.
    init?(_ update: LiveTournament.Update, words: Words = .english) {
        let (name, body): (String, [UInt8]?)
        switch update {
        case .state(let view):
            name = "state"
            body = try? WireCoding.encode(
                StateBody(
                    sequence: view.sequence, inSync: view.inSync, daemonNow: view.daemonNow,
                    games: view.games.keys.sorted().compactMap { id in
                        view.games[id].map {
                            CourtGame(
                                $0, now: Timestamp(milliseconds: view.daemonNow), inactive: view.inactivePlayers, words: words)
                        }
                    },
                    standings: view.standings, bracket: view.bracket, standingsSequence: view.standingsSequence,
                    bracketSequence: view.bracketSequence, courts: view.courtsNow().map { $0.worded(words) }))
        case .event(let message, let game, let now, let inactive):
            // The protocol's own event message, which a program reads as docs/PROTOCOL.md says,
            // with the game's view for the pages.
            name = "event"
            body = try? WireCoding.encode(
                RelayedEvent(message: message, view: GameViewModel(game, now: now, inactive: inactive, words: words)))
        case .tables(let view):
            name = "tables"
            body = try? WireCoding.encode(
                TablesBody(
                    standings: view.standings, bracket: view.bracket, standingsSequence: view.standingsSequence,
                    bracketSequence: view.bracketSequence))
        case .courts(let courts):
            name = "courts"
            body = try? WireCoding.encode(CourtsBody(courts: courts.map { $0.worded(words) }))
        case .sync(let inSync):
            name = "sync"
            body = try? WireCoding.encode(SyncBody(inSync: inSync))
        }
        guard let body else { return nil }
        // JSON from our encoder has no raw line breaks, so one data line carries it.
        var buffer = ByteBuffer()
        buffer.writeString("event: \(name)\ndata: ")
        buffer.writeBytes(body)
        buffer.writeString("\n\n")
        self.buffer = buffer
    }

    struct StateBody: Encodable {
        var sequence: Int64
        var inSync: Bool
        var daemonNow: Int64
        /// Each game's summary with its teams, rules, last plays and view (``CourtGame``).
        var games: [CourtGame]
        var standings: [GroupStandings]
        var bracket: [BracketEntry]
        var standingsSequence: Int64
        var bracketSequence: Int64
        /// Each court's ``CourtNow``: its delay and the line of its next game.
        var courts: [CourtNow]
        enum CodingKeys: String, CodingKey {
            case sequence, games, standings, bracket, courts
            case inSync = "in_sync"
            case daemonNow = "daemon_now"
            case standingsSequence = "standings_sequence"
            case bracketSequence = "bracket_sequence"
        }
    }

    struct TablesBody: Encodable {
        var standings: [GroupStandings]
        var bracket: [BracketEntry]
        var standingsSequence: Int64
        var bracketSequence: Int64
        enum CodingKeys: String, CodingKey {
            case standings, bracket
            case standingsSequence = "standings_sequence"
            case bracketSequence = "bracket_sequence"
        }
    }

    /// Each court's ``CourtNow``, as the pages bind it (`delayText`, `nextLine`).
    struct CourtsBody: Encodable {
        var courts: [CourtNow]
    }

    struct SyncBody: Encodable {
        var inSync: Bool
        enum CodingKeys: String, CodingKey { case inSync = "in_sync" }
    }
}
