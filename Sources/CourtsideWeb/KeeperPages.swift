import CourtsideViewModels
import HTTPTypes
import Hummingbird

/// The keeper's pages: `/keep` (the join page, or the keeper page of the court the session
/// joined), and the script, style and service worker they load. The page binds the games'
/// ``GameViewModel`` from `/api/events` and keeps its outbox in the browser; the server side
/// only renders the court's frame and its lineup.
extension KeeperGateway {
    /// Adds `/keep`, `/keep/sw.js`, `/static/keeper.js`, `/static/keeper-link.js`,
    /// `/static/keeper-outbox.js`, `/static/keeper-store.js`, `/static/keeper-draw.js`,
    /// `/static/keeper-post.js`, `/static/keeper-socket.js` and `/static/keeper.css` (each file with HEAD too).
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
            let page = KeeperPage(device: device.name, lineup: lineup, words: context.words, path: request.uri.path)
            return Self.page(Pages.render("keeper", page), kind: "keeper")
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
        Self.file(router, "/static/keeper-store.js") {
            WebGateway.file(PackageResources.keeper_store_js, type: "text/javascript; charset=utf-8")
        }
        Self.file(router, "/static/keeper-draw.js") {
            WebGateway.file(PackageResources.keeper_draw_js, type: "text/javascript; charset=utf-8")
        }
        Self.file(router, "/static/keeper-post.js") {
            WebGateway.file(PackageResources.keeper_post_js, type: "text/javascript; charset=utf-8")
        }
        Self.file(router, "/static/keeper-socket.js") {
            WebGateway.file(PackageResources.keeper_socket_js, type: "text/javascript; charset=utf-8")
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
}
