import CourtsideModel
import CourtsideViewModels
import HTTPTypes
import Hummingbird

/// The keeper's pages: `/keep` (the join page, or the keeper page of the court the session
/// joined), and the script, style and service worker they load. The page binds the games'
/// ``GameViewModel`` from `/api/events` and keeps its outbox in the browser; the server side
/// only renders the court's frame and its lineup.
extension KeeperGateway {
    /// Adds `/keep`, `/keep/sw.js`, `/static/keeper.js`, `/static/keeper-link.js`,
    /// `/static/keeper-outbox.js` and `/static/keeper.css` (each file with HEAD too).
    func addPages(to router: RouteCollection<GatewayRequestContext>) {
        router.get("/keep") { request, context -> Response in
            guard case .success(let device) = try await self.device(of: request) else {
                let query = request.uri.queryParameters
                let join = JoinPage(
                    link: query["link"].map(String.init), pin: query["pin"].map(String.init),
                    seconds: query["seconds"].map(String.init), words: context.words, path: request.uri.description)
                return Self.page(Pages.render("join", join), kind: "join")
            }
            let view = self.live.current
            let lineup = CourtLineup(court: device.court, bracket: view.bracket, games: view.games)
            return Self.page(Pages.render("keeper", KeeperPage(device: device.name, lineup: lineup)), kind: "keeper")
        }
        // HEAD as GET for the files the service worker keeps (a check or a proxy asks with HEAD).
        Self.file(router, "/keep/sw.js") {
            var response = WebGateway.file(PackageResources.sw_js, type: "text/javascript; charset=utf-8")
            // The worker lives under /keep/ but serves /keep itself, one level up.
            response.headers[HTTPField.Name("Service-Worker-Allowed")!] = "/keep"
            response.headers[.cacheControl] = "no-cache"
            return response
        }
        Self.file(router, "/static/keeper.js") {
            WebGateway.file(PackageResources.keeper_js, type: "text/javascript; charset=utf-8")
        }
        Self.file(router, "/static/keeper-link.js") {
            WebGateway.file(PackageResources.keeper_link_js, type: "text/javascript; charset=utf-8")
        }
        Self.file(router, "/static/keeper-outbox.js") {
            WebGateway.file(PackageResources.keeper_outbox_js, type: "text/javascript; charset=utf-8")
        }
        Self.file(router, "/static/keeper.css") {
            WebGateway.file(PackageResources.keeper_css, type: "text/css; charset=utf-8")
        }
    }

    /// A file at `path` for GET, and its headers alone for HEAD.
    private static func file(
        _ router: RouteCollection<GatewayRequestContext>, _ path: RouterPath, _ response: @escaping @Sendable () -> Response
    ) {
        router.get(path) { _, _ in response() }
        router.head(path) { _, _ in response().createHeadResponse() }
    }

    /// A keeper page; `X-Courtside-Page` tells the service worker which one it is, since both
    /// live at `/keep`: only the keeper page is kept for a reload while offline.
    private static func page(_ html: String, kind: String) -> Response {
        var response = WebGateway.html(html)
        response.headers[.cacheControl] = "no-cache"
        response.headers[HTTPField.Name("X-Courtside-Page")!] = kind
        return response
    }

    /// The keeper page's frame: the court, the device, and the court's games to switch between.
    struct KeeperPage {
        struct Game {
            var game: String
            var label: String
            var exists: Bool
            var current: Bool
        }
        /// A move's button: the protocol's name, its label, and how the outbox lists it.
        struct Move {
            var move: String
            var button: String
            var text: String
        }
        var title: String
        var court: String
        var device: String
        var games: [Game]
        /// What the banner says while the page hears no events, though its requests are answered.
        var silentText = "Not hearing live updates: the score shown may be behind. Your taps still count."
        /// What it says while the gateway answers but the daemon does not (a 503, or the
        /// gateway out of sync with it): the phone is online.
        var serverText = "The scoring server is not answering; your taps are kept and sent when it is back."
        /// Why clock and time-outs wait while the page hears no events and has fetched no state lately.
        var silentWhyText =
            "Clock and time-outs wait for a fresh state of the game: sent on a clock shown behind, they would be wrong."
        /// Why they wait while requests fail, or the daemon does not answer.
        var offlineWhyText = "Clock and time-outs wait for the connection: sent late, they would be wrong."
        /// A clock or time-out command that got no answer: from the phone's network, or from the daemon.
        var notSentOfflineText = "Not sent: no connection to the gateway."
        var notSentServerText = "Not sent: the scoring server is not answering."
        /// The outbox's words, with the placeholders the script fills: a tap ("Ann +2"), its undo,
        /// the offline banner's count, a refusal, and what follows a halt's own message.
        var tapText = "{player} {move}"
        var undoText = "undo {what}"
        var offlineOneText = "offline: 1 move saved on this device"
        var offlineManyText = "offline: {count} moves saved on this device"
        var refusedText = "Refused: {message}"
        var haltedTailText = "Your unsent moves stay listed below."
        var joinAgainText = "Join again"
        /// The hint under the players, as the taps go: none yet, a player tapped, a move first.
        var hintTapText = "Tap a player, then a move."
        var hintMoveText = "Now the move."
        var hintPickText = "Pick a player first, then the move."
        /// An outbox line's state and its button.
        var queuedText = "queued"
        var confirmedText = "confirmed"
        var refusedStateText = "refused"
        var undoButtonText = "Undo"
        var dropButtonText = "Drop"
        /// Points first, then the rest, as a keeper reaches for them.
        var moves: [Move] = [MoveKind.onePoint, .twoPoints, .freeThrow, .assist, .rebound, .foul].map {
            Move(move: $0.rawValue, button: GameViewModel.moveButtonText($0), text: GameViewModel.moveText($0))
        }

        init(device: String, lineup: CourtLineup) {
            title = "Courtside: keep score on \(lineup.court)"
            (court, self.device) = (lineup.court, device)
            games = lineup.entries.map {
                Game(game: $0.game.rawValue, label: $0.label, exists: $0.exists, current: $0.game == lineup.current)
            }
        }
    }
}
