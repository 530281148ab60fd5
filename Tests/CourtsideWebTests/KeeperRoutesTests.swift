import CourtsideWebStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourtsideWeb

/// The keeper's routes through the gateway's own router, in process: joining by PIN and by
/// link, what a joined device is then answered (its session, its page, its games and commands
/// let through to the relay), leaving, and a device whose code was renewed or that was revoked.
@Suite("The keeper's routes: joining, then the device read from its session", .serialized)
struct KeeperRoutesTests {
    typealias Gateway = RouteTestGateway

    /// Joins `court` by PIN as JSON; the device's name and its session cookie.
    static func join(
        _ client: some TestClientProtocol, pin: String, name: String = "Ann"
    ) async throws -> (device: String, cookie: String) {
        let joined = try await client.execute(
            uri: "/keep/join", method: .post, headers: [.contentType: "application/json"],
            body: ByteBuffer(string: #"{"pin": "\#(pin)", "name": "\#(name)"}"#))
        #expect(joined.status == .ok, "\(String(buffer: joined.body))")
        let device = try #require(Gateway.object(joined)["device"] as? String)
        return (device, try #require(Gateway.cookies(joined)[KeeperGateway.cookieName]))
    }

    @Test("join by PIN: the court and the device's name, a Strict session cookie and an install cookie")
    func joinByPIN() async throws {
        let gateway = try Gateway()
        defer { gateway.removeDirectory() }
        let code = try await gateway.store.code(for: "Court 1")
        try await gateway.app.test(.router) { client in
            let joined = try await client.execute(
                uri: "/keep/join", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"pin": "\#(code.printedPIN.lowercased())", "name": "Ann"}"#))
            #expect(joined.status == .ok)
            let body = Gateway.object(joined)
            #expect(body["ok"] as? Bool == true && body["court"] as? String == "Court 1")
            #expect((body["device"] as? String)?.hasPrefix("ann") == true, "\(body)")
            let session = try #require(Gateway.setCookie(joined, KeeperGateway.cookieName))
            #expect(session.contains("SameSite=Strict") && session.contains("Path=/"), "\(session)")
            #expect(Gateway.setCookie(joined, KeeperGateway.installCookie)?.contains("HttpOnly") == true)
            #expect(try await gateway.store.devices().map(\.device.court) == ["Court 1"])
        }
    }

    @Test("join by the form's PIN and by the court's link: each sent to /keep with a session, which then gets the keeper page")
    func joinByFormAndLink() async throws {
        let gateway = try Gateway()
        defer { gateway.removeDirectory() }
        let code = try await gateway.store.code(for: "Court 1")
        try await gateway.app.test(.router) { client in
            let byForm = try await client.post("/keep/join", ["pin": code.pin, "name": "Bo"])
            let byLink = try await client.get("/keep/join/\(code.token)")
            for joined in [byForm, byLink] {
                #expect(joined.status == .seeOther && joined.headers[.location] == "/keep")
                let cookie = try #require(Gateway.cookies(joined)[KeeperGateway.cookieName])
                let page = try await client.get("/keep", cookie: cookie)
                #expect(page.status == .ok && page.headers[HTTPField.Name("X-Courtside-Page")!] == "keeper")
                #expect(String(buffer: page.body).contains(#"data-court="Court 1""#))
            }
            // Without a session, /keep is the join page.
            let join = try await client.get("/keep")
            #expect(join.status == .ok && join.headers[HTTPField.Name("X-Courtside-Page")!] == "join")
            #expect(String(buffer: join.body).contains(#"action="/keep/join""#))
        }
    }

    @Test("a joined device: its session names its court; its game and command routes let it through to the game and the relay")
    func joinedDevice() async throws {
        let gateway = try Gateway()
        defer { gateway.removeDirectory() }
        let code = try await gateway.store.code(for: "Court 1")
        try await gateway.app.test(.router) { client in
            let (device, cookie) = try await Self.join(client, pin: code.pin)
            let session = try await client.get("/api/keep/session", cookie: cookie)
            #expect(session.status == .ok)
            let body = Gateway.object(session)
            #expect(body["court"] as? String == "Court 1" && body["device"] as? String == device)
            #expect(body["keyed"] as? Bool == false && body["lineup"] != nil, "\(body)")
            // Past the session: the view has no game g1 yet.
            let game = try await client.get("/api/keep/games/g1", cookie: cookie)
            #expect(game.status == .notFound && Gateway.refusal(game).code == "unknown_game")
            // Past the session: a command is read, then held back while the gateway is not in sync.
            let headers: HTTPFields = [.contentType: "application/json", .cookie: cookie]
            let move = try await client.execute(
                uri: "/api/keep/commands", method: .post, headers: headers,
                body: ByteBuffer(
                    string: #"{"command_id": "c1", "op": "move", "game": "g1", "player": "ann", "move": "two_points"}"#))
            #expect(
                Gateway.refusal(move).status == 503 && Gateway.refusal(move).code == "unreachable", "\(String(buffer: move.body))"
            )
            #expect(move.headers[.retryAfter] == "1")
            let read = try await client.execute(
                uri: "/api/keep/commands", method: .post, headers: headers,
                body: ByteBuffer(string: #"{"command_id": "c2", "op": "list_games"}"#))
            #expect(Gateway.refusal(read).status == 403 && Gateway.refusal(read).code == "forbidden")
        }
    }

    @Test("leaving ends the session: its cookie is expired, and the old cookie is then a session that ended")
    func leave() async throws {
        let gateway = try Gateway()
        defer { gateway.removeDirectory() }
        let code = try await gateway.store.code(for: "Court 1")
        try await gateway.app.test(.router) { client in
            let (_, cookie) = try await Self.join(client, pin: code.pin)
            let left = try await client.execute(uri: "/keep/leave", method: .post, headers: [.cookie: cookie])
            #expect(left.status == .ok && Gateway.object(left)["ok"] as? Bool == true)
            #expect(Gateway.setCookie(left, KeeperGateway.cookieName)?.contains("Expires=") == true)
            let after = Gateway.refusal(try await client.get("/api/keep/session", cookie: cookie))
            #expect(after.status == 401 && after.code == "not_joined" && after.message.contains("session has ended"))
            let page = try await client.get("/keep", cookie: cookie)
            #expect(page.headers[HTTPField.Name("X-Courtside-Page")!] == "join")
        }
    }

    @Test("a court's new code, or the device revoked alone: its session is refused as revoked or device_revoked, each saying why")
    func revoked() async throws {
        let gateway = try Gateway()
        defer { gateway.removeDirectory() }
        let first = try await gateway.store.code(for: "Court 1")
        let other = try await gateway.store.code(for: "Court 2")
        try await gateway.app.test(.router) { client in
            let (_, renewed) = try await Self.join(client, pin: first.pin)
            let (device, alone) = try await Self.join(client, pin: other.pin, name: "Cy")
            _ = try await gateway.store.renewCode(for: "Court 1")
            let byCode = Gateway.refusal(try await client.get("/api/keep/session", cookie: renewed))
            #expect(byCode.status == 401 && byCode.code == "revoked" && byCode.message.contains("Court 1 has a new code"))
            let id = try #require(try await gateway.store.devices().first { $0.device.name == device }?.device.id)
            _ = try await gateway.store.revoke(device: id)
            let byDesk = Gateway.refusal(try await client.get("/api/keep/games/g1", cookie: alone))
            #expect(
                byDesk.status == 401 && byDesk.code == "device_revoked"
                    && byDesk.message.contains("the organiser revoked this device"))
            // Its /keep is the join page again.
            let page = try await client.get("/keep", cookie: alone)
            #expect(page.headers[HTTPField.Name("X-Courtside-Page")!] == "join")
        }
    }

    @Test("a session naming a device this gateway never had is refused as not_joined, saying so")
    func unknownDevice() async throws {
        let gateway = try Gateway()
        defer { gateway.removeDirectory() }
        let cookie = try await gateway.keeper.sessions.save(session: KeeperSession(device: "ghost"), expiresIn: .seconds(60))
        try await gateway.app.test(.router) { client in
            let refusal = Gateway.refusal(try await client.get("/api/keep/session", cookie: "\(cookie.name)=\(cookie.value)"))
            #expect(
                refusal.status == 401 && refusal.code == "not_joined" && refusal.message.contains("not one this gateway gave"))
        }
    }

    @Test("the service worker and the keeper's files: GET and HEAD alike")
    func files() async throws {
        let gateway = try Gateway()
        defer { gateway.removeDirectory() }
        try await gateway.app.test(.router) { client in
            for path in [
                "/keep/sw.js", "/static/keeper.js", "/static/keeper-link.js", "/static/keeper-outbox.js",
                "/static/keeper-store.js", "/static/keeper-draw.js", "/static/keeper-post.js", "/static/keeper-socket.js",
                "/static/keeper.css",
            ] {
                let got = try await client.get(path)
                let head = try await client.get(path, method: .head)
                #expect(got.status == .ok && head.status == .ok && got.body.readableBytes > 0, "\(path)")
                #expect(head.headers[.contentType] == got.headers[.contentType] && head.body.readableBytes == 0, "\(path)")
            }
            #expect(try await client.get("/keep/sw.js").headers[HTTPField.Name("Service-Worker-Allowed")!] == "/keep")
        }
    }
}
