public import CourtsideClient
import CourtsideLocalization
public import CourtsideModel
import CourtsideProtocol
import CourtsideViewModels
public import CourtsideWebStore
import Dispatch
import Foundation
public import Hummingbird
import HummingbirdAuth
import HummingbirdBcrypt
import Synchronization

/// The organiser's desk: a passphrase sign-in, then every court's games with a forfeit and an
/// early end for each game still open (each asking for confirmation first), the teams and the
/// schedule as they stand with their changes, the join codes, and the audit trail of any game.
/// Commands go under the organiser's key, so the daemon's roles decide.
public final class DeskGateway: Sendable {
    let live: LiveTournament
    let relay: CommandRelay
    let store: GatewayStore
    let secureCookies: Bool
    /// The passphrase's bcrypt hash (`courtside-web desk passphrase` makes one).
    let passphraseHash: String
    let sessions: SessionStorage<DeskSession>
    private let throttle = Mutex(PINThrottle())
    /// The Setup page's reviewed draws, until confirmed or expired.
    let setupDrafts = Mutex(SetupDrafts())
    /// Passphrase checks the whole gateway starts, and the thread that makes them.
    private let checkRate: Mutex<RateLimiter>
    private let checker: PassphraseChecker
    /// The relay's one lane: the organiser's key (or plaintext).
    public static let lane = "organiser"
    static let cookieName = "courtside_desk"
    /// A desk stays signed in for a tournament day.
    static let sessionLifetime: Duration = .seconds(16 * 3600)

    /// `relay` sends under the organiser's key: build it with `courtKeys: [DeskGateway.lane: keys]`
    /// on a secured daemon, nil on a plaintext one.
    public init(
        live: LiveTournament, store: GatewayStore, relay: CommandRelay, passphraseHash: String, secureCookies: Bool,
        limits: GatewayLimits = GatewayLimits()
    ) {
        // Bounded in all (16 guessers on 16 addresses are 16 times the work) and, more tightly,
        // per address (one guesser cannot take the whole rate from the organiser).
        checkRate = Mutex(
            RateLimiter(
                burst: limits.passphraseAddressBurst, every: limits.passphraseAddressInterval,
                globalBurst: limits.passphraseBurst, globalEvery: limits.passphraseInterval))
        checker = PassphraseChecker(hash: passphraseHash, capacity: limits.passphraseQueue)
        self.live = live
        self.relay = relay
        (self.store, self.secureCookies) = (store, secureCookies)
        self.passphraseHash = passphraseHash
        sessions = SessionStorage(
            SQLitePersistDriver(store),
            configuration: .init(
                sessionCookieParameters: .init(name: Self.cookieName, path: "/desk", secure: secureCookies, sameSite: .strict),
                keyPrefix: "desk."))
    }

    /// `/desk` when no passphrase was given: it says how to turn the desk on.
    public static func addDisabledRoute(to router: Router<GatewayRequestContext>) {
        router.get("/desk") { _, _ -> Response in
            WebGateway.text(
                "The desk is off: start courtside-web with --desk-passphrase-file (see courtside-web desk passphrase --help).\n",
                status: .notFound)
        }
    }

    /// A passphrase's hash for `--desk-passphrase-file`.
    public static func hash(passphrase: String) -> String { Bcrypt.hash(passphrase, cost: 11) }

    /// Adds the desk's routes (``routes``) to `router`.
    public func addRoutes(to router: Router<GatewayRequestContext>) {
        router.addRoutes(routes)
    }

    /// Every desk route, behind ``DeskAuthenticator`` (the handlers read the desk's session from
    /// the context): `/desk`, `POST /desk/login`, `POST /desk/logout`, `POST /desk/review`,
    /// `POST /desk/confirm`, `/desk/audit`, `/static/desk.css`, and the pages of the join codes
    /// (``addCodeRoutes(to:)``), the teams (``addTeamRoutes(to:)``), the schedule
    /// (``addScheduleRoutes(to:)``) and the setup of the draw (``addSetupRoutes(to:)``).
    public var routes: RouteCollection<GatewayRequestContext> {
        let router = RouteCollection(context: GatewayRequestContext.self)
        router.add(middleware: DeskAuthenticator(sessions: sessions))
        addCodeRoutes(to: router)
        addTeamRoutes(to: router)
        addScheduleRoutes(to: router)
        addSetupRoutes(to: router)
        router.get("/desk") { request, context -> Response in
            guard case .desk(let session) = context.identity else {
                return WebGateway.html(
                    Pages.render("desk-login", LoginPage(query: request.uri.queryParameters, words: context.words)))
            }
            return WebGateway.html(
                Pages.render(
                    "desk",
                    self.deskPage(session, message: request.uri.queryParameters["done"].map(String.init), words: context.words)))
        }
        router.post("/desk/login") { request, context -> Response in
            let body = try await BodyReading.collect(request, upTo: 4096)
            guard let fields = FormFields.parse(Array(buffer: body)),
                let passphrase = fields["passphrase"], !passphrase.isEmpty, passphrase.count <= 200
            else { return KeeperGateway.redirect(to: "/desk?login=wrong") }
            let address = context.clientAddress
            if case .wait(let wait) = self.throttle.withLock({ $0.attempt(address, now: .now) }) {
                await KeeperGateway.holdBack(wait)
                return KeeperGateway.redirect(to: "/desk?login=wait&seconds=\(max(1, Int(wait.components.seconds) + 1))")
            }
            let busy = { (wait: Duration) async in
                // Not checked, so not counted: the address may try again once the gateway can check.
                self.throttle.withLock { $0.succeeded(address, now: .now) }
                await KeeperGateway.holdBack(wait)
                return KeeperGateway.redirect(to: "/desk?login=busy&seconds=\(wait.retryAfterSeconds)")
            }
            switch self.checkRate.withLock({ $0.take(address, now: .now) }) {
            case .allowed: break
            case .wait(let wait):
                // This address's own rate: it waits, as after wrong passphrases.
                self.throttle.withLock { $0.succeeded(address, now: .now) }
                await KeeperGateway.holdBack(wait)
                return KeeperGateway.redirect(to: "/desk?login=wait&seconds=\(wait.retryAfterSeconds)")
            case .busy(let wait): return await busy(wait)
            }
            switch await self.checker.check(passphrase) {
            case .right: break
            case .wrong: return KeeperGateway.redirect(to: "/desk?login=wrong")
            case .busy: return await busy(.seconds(1))
            }
            self.throttle.withLock { $0.succeeded(address, now: .now) }
            let name = JoinCode.slug(fields["name"].flatMap { $0.isEmpty ? nil : $0 } ?? "desk")
            let desk = "\(name)-\(JoinCode.randomToken(bytes: 3).lowercased())"
            let cookie = try await self.sessions.save(session: DeskSession(desk: desk), expiresIn: Self.sessionLifetime)
            var response = KeeperGateway.redirect(to: "/desk")
            response.headers[values: .setCookie].append(cookie.description)
            return response
        }
        router.post("/desk/logout") { request, _ -> Response in
            var response = KeeperGateway.redirect(to: "/desk")
            if let cookie = try? await self.sessions.delete(request: request) {
                response.headers[values: .setCookie].append(cookie.description)
            }
            return response
        }
        router.post("/desk/review") { request, context -> Response in
            _ = try context.requireDesk()
            let action: DeskAction
            switch try await Self.action(request, words: context.words) {
            case .success(let found): action = found
            case .failure(let error):
                let message = DeskRefusal.form(error, words: context.words, logger: context.logger)
                return KeeperGateway.redirect(to: "/desk?done=\(Self.query(message))")
            }
            let words = context.words
            guard let game = self.live.current.games[action.game] else {
                return KeeperGateway.redirect(
                    to: "/desk?done=\(Self.query(words(.deskNoGame, ["game": action.game.rawValue])))")
            }
            // The id is made now, once: a confirmation sent twice is one command to the daemon.
            let page = ConfirmPage(
                summary: action.summary(home: game.setup.home.name, away: game.setup.away.name, words: words),
                fields: action.fields.map { ConfirmPage.Field(name: $0.name, value: $0.value) }
                    + [ConfirmPage.Field(name: "command_id", value: JoinCode.randomToken(bytes: 12))],
                note: words(.deskConfirmNoteDecide), words: words)
            return WebGateway.html(Pages.render("desk-confirm", page))
        }
        router.post("/desk/confirm") { request, context -> Response in
            let session = try context.requireDesk()
            let action: DeskAction
            switch try await Self.action(request, words: context.words) {
            case .success(let found): action = found
            case .failure(let error):
                let message = DeskRefusal.form(error, words: context.words, logger: context.logger)
                return KeeperGateway.redirect(to: "/desk?done=\(Self.query(message))")
            }
            let words = context.words
            guard let commandID = action.commandID else {
                return KeeperGateway.redirect(to: "/desk?done=\(Self.query(words(.deskOwnPage)))")
            }
            let origin = CommandOrigin(clientID: self.clientID(session), commandID: commandID)
            // Which game it was, as the desk sent it: the daemon's message is for the log.
            let summary =
                self.live.current.games[action.game].map {
                    action.summary(home: $0.setup.home.name, away: $0.setup.away.name, words: words)
                } ?? action.game.rawValue
            let message: String
            do throws(CourtsideError) {
                let reply = try await self.relay.send(action.operation, origin: origin, court: Self.lane)
                if let sequence = reply.sequence { await self.live.catchUp(to: sequence) }
                message =
                    reply.error.map {
                        DeskRefusal.refused(
                            CourtsideError($0.code, $0.message), summary: summary, words: words, logger: context.logger)
                    } ?? action.done(words)
            } catch {
                message = DeskRefusal.notSent(error, words: words, logger: context.logger)
            }
            return KeeperGateway.redirect(to: "/desk?done=\(Self.query(message))")
        }
        router.get("/desk/audit") { request, context -> Response in
            let session = try context.requireDesk()
            let query = request.uri.queryParameters
            let view = self.live.current
            let game = query["game"].map(String.init).flatMap { $0.isEmpty ? nil : GameID($0) } ?? view.games.keys.sorted().first
            // The tournament's own stream first: the organiser's changes to teams and schedule.
            var page = AuditPage(
                games: ([GameID.tournament] + view.games.keys.sorted()).map {
                    AuditPage.Option(value: $0.rawValue, selected: $0 == game)
                },
                origin: query["origin"].map(String.init) ?? "", kind: query["kind"].map(String.init) ?? "", words: context.words)
            if let game {
                switch await self.read(.log(game: game), session) {
                case .success(let reply):
                    page.rows = AuditTrail(reply.events ?? [], words: context.words).filtered(
                        origin: page.origin, kind: page.kind
                    ).reversed()
                case .failure(let error):
                    page.message = DeskRefusal.unreadable(error, words: context.words, logger: context.logger)
                }
            }
            return WebGateway.html(Pages.render("desk-audit", page))
        }
        router.get("/static/desk.css") { _, _ -> Response in
            WebGateway.file(PackageResources.desk_css, type: "text/css; charset=utf-8")
        }
        return router
    }

    /// The desk's client id toward the daemon; plaintext, the gateway names the organiser itself.
    func clientID(_ session: DeskSession) -> String {
        relay.isKeyed ? session.desk : "\(Self.lane)/\(session.desk)"
    }

    /// The desk of `session` as the games stand, every word in `words`' language.
    func deskPage(_ session: DeskSession, message: String?, words: Words = .english) -> DeskPage {
        Self.deskPage(live.current, desk: session.desk, message: message, words: words)
    }

    /// The desk `desk` sees of `view`, every word in `words`' language.
    static func deskPage(_ view: LiveTournament.View, desk: String, message: String?, words: Words = .english) -> DeskPage {
        let now = Timestamp(milliseconds: view.daemonNow)
        let lineups = view.lineups
        // The suggestions name their games in the page's language.
        let titles = Dictionary(
            lineups.flatMap(\.entries).map { ($0.game, $0.title(words)) }, uniquingKeysWith: { first, _ in first })
        let estimates = DayEstimates(
            bracket: view.bracket, games: view.games, timing: view.timing, now: view.daemonDate, calendar: .current,
            titles: titles, words: words)
        return DeskPage(
            desk: desk, message: message, suggestions: estimates.suggestions,
            hasSuggestions: !estimates.suggestions.isEmpty,
            courts: lineups.map { lineup in
                let state = CourtNow(
                    lineup: lineup, games: view.games, now: view.daemonDate, calendar: .current, estimates: estimates,
                    words: words)
                return DeskPage.Court(
                    name: lineup.court, delay: state.delayText, next: state.nextLine,
                    games: lineup.entries.map { entry in
                        let model = view.games[entry.game].map {
                            GameViewModel(GameState($0), now: now, lastPlays: 0, words: words)
                        }
                        return DeskPage.Game(
                            game: entry.game.rawValue, title: entry.title(words), start: entry.start, score: model?.score ?? "",
                            status: model?.statusText
                                ?? GameViewModel.scheduleText(nil, teamsKnown: entry.state != .pending, words: words),
                            open: entry.exists && model?.isFinished == false,
                            home: model?.home.name ?? "", away: model?.away.name ?? "")
                    })
            }, words: words)
    }

    private static func action(_ request: Request, words: Words) async throws -> Result<DeskAction, CourtsideError> {
        let body = try await BodyReading.collect(request, upTo: 8192)
        guard let fields = FormFields.parse(Array(buffer: body)) else {
            return .failure(CourtsideError(.badRequest, words(.deskFormUnreadable)))
        }
        return DeskAction.parse(fields, words: words)
    }

    static func signInFirst() -> Response {
        KeeperGateway.error(.notSignedIn, "sign in at /desk with the organiser's passphrase first", status: .unauthorized)
    }

    static func query(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }

    struct LoginPage {
        var lang: String
        var title: String
        var message: String?
        var t: [String: String]
        var picker: LanguagePicker.Picker

        init(query: Parameters, words: Words = .english) {
            (lang, title, t) = (words.language.code, words(.deskTitle), DeskWords.table(words))
            picker = LanguagePicker.picker(words, back: "/desk")
            let seconds = query["seconds"].flatMap { Int($0) }.map { ["seconds": words.number($0)] }
            switch query["login"].map(String.init) {
            case "wrong": message = words(.deskLoginWrong)
            case "wait": message = seconds.map { words(.deskLoginWait, $0) } ?? words(.deskLoginWaitMoment)
            case "busy": message = seconds.map { words(.deskLoginBusy, $0) } ?? words(.deskLoginBusyMoment)
            default: message = nil
            }
        }
    }

    struct DeskPage {
        struct Game {
            var game: String
            var title: String
            var start: String?
            var score: String
            var status: String
            /// Whether the organiser may still decide it: it exists and is not final.
            var open: Bool
            var home: String
            var away: String
        }
        struct Court {
            var name: String
            /// "12 min behind", from the games' real start times.
            var delay: String?
            /// "next on Court 2: Bears v Wolves, about 10:50".
            var next: String?
            var games: [Game]
        }
        var lang: String
        var title: String
        var desk: String
        var signOut: String
        var message: String?
        /// Waiting games that could move to a court standing free (``DayEstimates``): each a
        /// move to review, applied only when confirmed.
        var suggestions: [DayEstimates.Suggestion]
        /// Stored, not computed: the templates read a value's stored properties.
        var hasSuggestions: Bool
        var courts: [Court]
        var t: [String: String]
        var picker: LanguagePicker.Picker

        init(
            desk: String, message: String?, suggestions: [DayEstimates.Suggestion], hasSuggestions: Bool, courts: [Court],
            words: Words
        ) {
            (self.desk, self.message, self.suggestions, self.hasSuggestions, self.courts) =
                (desk, message, suggestions, hasSuggestions, courts)
            (lang, title, t) = (words.language.code, words(.deskTitle), DeskWords.table(words))
            signOut = words(.deskSignOut, ["desk": desk])
            picker = LanguagePicker.picker(words, back: "/desk")
        }
    }

    struct ConfirmPage {
        struct Field {
            var name: String
            var value: String
        }
        var lang: String
        var title: String
        var summary: String
        var fields: [Field]
        /// Where the confirmation is posted, and the page to go back to.
        var action: String
        var back: String
        /// What confirming does, in words.
        var note: String
        var t: [String: String]
        /// The picker goes back to the page the change came from: the confirmation is a POST's answer.
        var picker: LanguagePicker.Picker

        init(
            summary: String, fields: [Field], action: String = "/desk/confirm", back: String = "/desk", note: String? = nil,
            words: Words = .english
        ) {
            (self.summary, self.fields, self.action, self.back) = (summary, fields, action, back)
            self.note = note ?? words(.deskConfirmNoteDecide)
            (lang, title, t) = (words.language.code, words(.deskConfirmTitle), DeskWords.table(words))
            picker = LanguagePicker.picker(words, back: back)
        }
    }

    struct AuditPage {
        struct Option {
            var value: String
            var selected: Bool
        }
        var lang: String
        var title: String
        var games: [Option]
        var origin: String
        var kind: String
        var message: String?
        var rows: [AuditTrail.Row] = []
        var t: [String: String]
        var picker: LanguagePicker.Picker
        /// A take-back's reason field is named around the move's version: "reason to take back v3".
        var retractBefore: String
        var retractAfter: String

        init(
            games: [Option], origin: String, kind: String, message: String? = nil, rows: [AuditTrail.Row] = [],
            words: Words = .english
        ) {
            (self.games, self.origin, self.kind, self.message, self.rows) = (games, origin, kind, message, rows)
            (lang, title, t) = (words.language.code, words(.deskAuditTitle), DeskWords.table(words))
            picker = LanguagePicker.picker(words, back: "/desk/audit")
            (retractBefore, retractAfter) = words.around(.deskAuditRetractLabel, placeholder: "version")
        }
    }
}
