public import CourtsideClient
public import CourtsideModel
public import CourtsideProtocol
public import CourtsideViewModels
public import CourtsideWebStore
import Foundation
import HTTPTypes
public import Hummingbird
import HummingbirdAuth
import Synchronization

/// Keeping score from a phone: joining a court with its link or PIN, and relaying the
/// device's commands to the daemon under the court's key. The page itself keeps the outbox;
/// this side only checks who asks and passes each command on with the device's own ids, so a
/// retry is applied once by the daemon's retry memory.
public final class KeeperGateway: Sendable {
    let live: LiveTournament
    let store: GatewayStore
    let relay: CommandRelay
    let sessions: SessionStorage<KeeperSession>
    /// Reads the device from a request's session, for the routes behind it.
    let authenticator: KeeperAuthenticator
    private let throttle = Mutex(PINThrottle())
    /// Joins heard, right PIN or wrong, per address and in all: a right PIN must not let one
    /// guest fill the store with devices.
    private let joinRate: Mutex<RateLimiter>
    /// How long a joined device stays joined without a new code: a tournament weekend.
    static let sessionLifetime: Duration = .seconds(3 * 24 * 3600)
    static let cookieName = "courtside_keeper"
    /// The header of a command's answer that names the version of the daemon's ok (none for a
    /// refusal): the same as the body's `version`.
    static let versionField = HTTPField.Name("X-Courtside-Version")!
    /// What a keeper's session key in the store starts with (the cookie's value follows).
    static let sessionKeyPrefix = "keeper."
    /// Names the browser for good, across joins: its device keeps its name, so its queued
    /// commands keep their client id (the daemon's retry memory is per client id).
    static let installCookie = "courtside_install"
    let secureCookies: Bool

    /// `secureCookies` when served over HTTPS: the cookie then never travels in the clear.
    public init(
        live: LiveTournament, store: GatewayStore, relay: CommandRelay, secureCookies: Bool,
        limits: GatewayLimits = GatewayLimits()
    ) {
        joinRate = Mutex(
            RateLimiter(
                burst: limits.joinBurst, every: limits.joinInterval, globalBurst: limits.globalJoinBurst,
                globalEvery: limits.globalJoinInterval))
        self.live = live
        self.store = store
        self.relay = relay
        self.secureCookies = secureCookies
        sessions = SessionStorage(
            SQLitePersistDriver(store),
            configuration: .init(
                sessionCookieParameters: .init(name: Self.cookieName, path: "/", secure: secureCookies, sameSite: .strict),
                keyPrefix: Self.sessionKeyPrefix))
        authenticator = KeeperAuthenticator(store: store)
    }

    /// Adds the keeper's routes (``routes``) to `router`.
    public func addRoutes(to router: Router<GatewayRequestContext>) {
        router.addRoutes(routes)
    }

    /// `/keep/join/TOKEN`, `POST /keep/join`, `POST /keep/leave`, the page and files of
    /// ``addPages(to:)``, then, behind ``KeeperAuthenticator``, `/api/keep/session`,
    /// `/api/keep/games/ID` and `POST /api/keep/commands`, which read the device from the context.
    public var routes: RouteCollection<GatewayRequestContext> {
        let router = RouteCollection(context: GatewayRequestContext.self)
        addPages(to: router)
        router.get("/keep/join/:token") { request, context -> Response in
            // The token leaves the address bar at once: the redirect carries only the cookie.
            let token = try context.parameters.require("token")
            if let refusal = self.joinRefusal(context, form: true) { return refusal }
            let install = self.install(of: request)
            guard let device = try await self.store.join(token: token, name: nil, install: install.id) else {
                return Self.redirect(to: "/keep?link=expired")
            }
            return try await self.joined(device, redirect: true, install: install)
        }
        router.post("/keep/join") { request, context -> Response in
            let form = request.headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true
            // The body first: a try is counted when it is heard whole, so that tries opened at
            // once on many connections cannot all pass the throttle before any is counted.
            let body = try await BodyReading.collect(request, upTo: JoinForm.maxBytes)
            guard let fields = JoinForm(body: Array(buffer: body), form: form) else {
                return form
                    ? Self.redirect(to: "/keep?pin=wrong")
                    : Self.error(.badRequest, "send {\"pin\": \"...\", \"name\": \"...\"} (name optional)", status: .badRequest)
            }
            if let refusal = self.joinRefusal(context, form: form) { return refusal }
            let address = context.clientAddress
            if case .wait(let wait) = self.throttle.withLock({ $0.attempt(address, now: .now) }) {
                let seconds = max(1, Int(wait.components.seconds) + 1)
                await Self.holdBack(wait)
                var response = Self.error(
                    .tooManyAttempts, "too many wrong PINs from this device: try again in \(seconds) s", status: .tooManyRequests)
                response.headers[.retryAfter] = "\(seconds)"
                return form ? Self.redirect(to: "/keep?pin=wait&seconds=\(seconds)") : response
            }
            let install = self.install(of: request)
            let joined: KeeperDevice?
            do {
                joined = try await self.store.join(pin: fields.pin, name: fields.name, install: install.id)
            } catch {
                // The store failed, not the PIN: the try is not counted against the address.
                self.throttle.withLock { $0.succeeded(address, now: .now) }
                throw error
            }
            guard let device = joined else {
                return form
                    ? Self.redirect(to: "/keep?pin=wrong")
                    : Self.error(.wrongCode, "that PIN is no court's current code: check the sheet", status: .unauthorized)
            }
            self.throttle.withLock { $0.succeeded(address, now: .now) }
            return try await self.joined(device, redirect: form, install: install)
        }
        router.post("/keep/leave") { request, _ -> Response in
            var response = WebGateway.json(["ok": true])
            if let cookie = try? await self.sessions.delete(request: request) {
                response.headers[values: .setCookie].append(cookie.description)
            }
            return response
        }
        router.add(middleware: authenticator)
        router.get("/api/keep/session") { _, context -> Response in
            let device = try context.requireDevice()
            let view = self.live.current
            return WebGateway.json(
                SessionBody(
                    court: device.court, device: device.name, keyed: self.relay.isKeyed,
                    lineup: CourtLineup(court: device.court, bracket: view.bracket, games: view.games).worded(context.words)))
        }
        router.get("/api/keep/games/:id") { _, context -> Response in
            // What a page that hears no events fetches instead, every few seconds: the game as
            // the stream's `state` carries it (its view included), as of the gateway's view now.
            _ = try context.requireDevice()
            let id = GameID(try context.parameters.require("id"))
            let view = self.live.current
            guard let game = view.games[id] else {
                return WebGateway.json(
                    Reply.failure(CourtsideError(.unknownGame, "no game has id \(id)"), commandID: nil, epoch: view.epoch),
                    status: .notFound)
            }
            let now = view.daemonNow
            return WebGateway.json(
                GameBody(
                    sequence: view.sequence, inSync: view.inSync, daemonNow: now,
                    game: CourtGame(game, now: Timestamp(milliseconds: now), inactive: view.inactivePlayers, words: context.words)
                ))
        }
        router.post("/api/keep/commands") { request, context -> Response in
            let device = try context.requireDevice()
            let body = try await BodyReading.collect(request, upTo: ProtocolLimits.maxRequestBytes)
            return await self.answer(Array(buffer: body), from: device).response
        }
        return router
    }

    /// The answer to a join over its rate (this address's, or everyone's), or nil to go on.
    private func joinRefusal(_ context: GatewayRequestContext, form: Bool) -> Response? {
        let address = context.clientAddress
        let wait: Duration
        let message: String
        switch joinRate.withLock({ $0.take(address, now: .now) }) {
        case .allowed: return nil
        case .wait(let duration):
            (wait, message) = (duration, "too many joins from this device")
        case .busy(let duration):
            (wait, message) = (duration, "too many devices are joining at once")
        }
        let seconds = wait.retryAfterSeconds
        if form { return Self.redirect(to: "/keep?pin=slow&seconds=\(seconds)") }
        var response = Self.error(.slowDown, "\(message): try again in \(seconds) s", status: .tooManyRequests)
        response.headers[.retryAfter] = "\(seconds)"
        return response
    }

    /// Holds a refused try's answer back for up to a second: a guest who sends as fast as the
    /// answers come (176,000 refused sign-ins in 20 s from 16 addresses took the keepers' CPU)
    /// then sends at most one a second on each connection, and connections are capped.
    static func holdBack(_ wait: Duration) async {
        try? await Task.sleep(for: min(wait, .seconds(1)))
    }

    /// The browser's install id (its own cookie), and whether it is new and must be set.
    private func install(of request: Request) -> (id: String, new: Bool) {
        if let id = request.cookies[Self.installCookie]?.value, id.count == 32,
            id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        {
            return (String(id), false)
        }
        return (JoinCode.randomToken(bytes: 24), true)
    }

    /// A session for a device that just joined, and the browser's install id if it is new.
    private func joined(_ device: KeeperDevice, redirect: Bool, install: (id: String, new: Bool)) async throws -> Response {
        let cookie = try await sessions.save(session: KeeperSession(device: device.id), expiresIn: Self.sessionLifetime)
        var response =
            redirect
            ? Self.redirect(to: "/keep") : WebGateway.json(JoinBody(ok: true, court: device.court, device: device.name))
        response.headers[values: .setCookie].append(cookie.description)
        if install.new {
            // Lax, not Strict: a QR code opened from the camera is a navigation from no site.
            let cookie = Cookie(
                name: Self.installCookie, value: install.id, maxAge: 400 * 24 * 3600, path: "/", secure: secureCookies,
                httpOnly: true, sameSite: .lax)
            response.headers[values: .setCookie].append(cookie.description)
        }
        return response
    }

    /// The device a request's session stands for, or the answer that refuses it: for `/keep`,
    /// whose page is the join page for a request with no joined device.
    func device(of request: Request) async throws -> Result<KeeperDevice, RefusalResponse> {
        GatewayIdentity.device(in: try await authenticator.identity(of: request)).mapError { RefusalResponse($0.response) }
    }

    /// The protocol request a device's body stands for, under the device's client id: its
    /// `client_id`, if any, is replaced; the rest is read as the daemon reads a request.
    static func command(_ body: [UInt8], device: KeeperDevice, keyed: Bool) throws(CourtsideError) -> CourtsideProtocol.Request {
        // Keyed, the daemon names the court's key itself (`court-1/<device>`); plaintext, we do.
        let clientID = keyed ? device.name : "\(JoinCode.slug(device.court))/\(device.name)"
        let request = try KeeperCommandBody.request(body, clientID: clientID)
        switch request.operation {
        case .move, .retract, .clock, .timeout: return request
        default:
            throw CourtsideError(.forbidden, "a keeper's device sends move, retract, clock and timeout only")
        }
    }

    static func error(_ code: CourtsideError.Code, _ message: String, status: HTTPResponse.Status) -> Response {
        WebGateway.json(Reply.failure(CourtsideError(code, message), commandID: nil, epoch: ""), status: status)
    }

    static func redirect(to location: String) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        headers[.cacheControl] = "no-store"
        return Response(status: .seeOther, headers: headers)
    }

    struct JoinBody: Encodable {
        var ok: Bool
        var court: String
        var device: String
    }

    /// One game for a page that hears no events: ``CourtGame`` (as in the stream's `state`), the
    /// sequence and daemon time it stands at, and whether the gateway follows the daemon now.
    struct GameBody: Encodable {
        var sequence: Int64
        var inSync: Bool
        var daemonNow: Int64
        var game: CourtGame
        enum CodingKeys: String, CodingKey {
            case sequence, game
            case inSync = "in_sync"
            case daemonNow = "daemon_now"
        }
    }

    struct SessionBody: Encodable {
        var court: String
        var device: String
        /// Whether commands go under the court's key (a secured daemon).
        var keyed: Bool
        var lineup: CourtLineup
    }
}

extension CourtsideProtocol.Request.Operation {
    /// The game a keeper's command is for.
    var game: GameID? {
        switch self {
        case .move(let game, _, _), .retract(let game, _, _), .clock(let game, _), .timeout(let game, _): game
        default: nil
        }
    }
}
