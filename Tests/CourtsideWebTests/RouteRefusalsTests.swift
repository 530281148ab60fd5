import CourtsideClient
import CourtsideLocalization
import CourtsideWebStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Prometheus
import Testing

@testable import CourtsideWeb

/// Every keeper and desk route through the gateway's own router, in process: what each answers
/// a request it must refuse (no session, another site's form, a body that is not one), and that
/// it answers so without a daemon (the relay points at a closed port).
@Suite("The keeper's and the desk's routes refuse what they must", .serialized)
struct RouteRefusalsTests {
    /// The desk's routes that need its session, by method and path.
    static let deskRoutes: [(HTTPRequest.Method, String)] = [
        (.get, "/desk/codes"), (.get, "/desk/codes/sheet"), (.post, "/desk/codes/review"), (.post, "/desk/codes/confirm"),
        (.post, "/desk/review"), (.post, "/desk/confirm"), (.get, "/desk/audit"), (.get, "/desk/setup"),
        (.post, "/desk/setup/review"), (.post, "/desk/setup/confirm"), (.get, "/desk/teams"), (.post, "/desk/teams/review"),
        (.post, "/desk/teams/confirm"), (.get, "/desk/schedule"), (.post, "/desk/schedule/review"),
        (.post, "/desk/schedule/confirm"),
    ]

    /// The keeper's routes that need a device's session.
    static let keeperRoutes: [(HTTPRequest.Method, String)] = [
        (.get, "/api/keep/session"), (.get, "/api/keep/games/g1"), (.post, "/api/keep/commands"),
    ]

    static let form = RouteTestGateway.form

    /// The refusal's status and stable code, from a JSON error answer.
    static func refusal(_ response: TestResponse) -> (Int, String?) {
        let refusal = RouteTestGateway.refusal(response)
        return (refusal.status, refusal.code)
    }

    func execute(
        _ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, _ headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        try await client.execute(uri: path, method: method, headers: Self.form + headers, body: ByteBuffer(string: "a=b"))
    }

    @Test("without a session, or with a forged one: the desk's routes say not_signed_in, the keeper's not_joined, all 401")
    func noSession() async throws {
        let gateway = try RouteTestGateway()
        defer { gateway.removeDirectory() }
        try await gateway.app.test(.router) { client in
            for cookie in [nil, "courtside_desk=forged; courtside_keeper=forged"] as [String?] {
                let headers: HTTPFields = cookie.map { [.cookie: $0] } ?? [:]
                for (method, path) in Self.deskRoutes {
                    let (status, code) = Self.refusal(try await execute(client, method, path, headers))
                    #expect(status == 401 && code == "not_signed_in", "\(method) \(path) with \(cookie ?? "no cookie")")
                }
                for (method, path) in Self.keeperRoutes {
                    let (status, code) = Self.refusal(try await execute(client, method, path, headers))
                    #expect(status == 401 && code == "not_joined", "\(method) \(path) with \(cookie ?? "no cookie")")
                }
                // The pages a device or a desk starts from answer, as a sign-in.
                let desk = try await execute(client, .get, "/desk", headers)
                #expect(desk.status == .ok && String(buffer: desk.body).contains("passphrase"))
            }
        }
    }

    @Test("a wrong PIN, a wrong passphrase, a join link that is no longer: each sent back to its page with why")
    func wrongCredentials() async throws {
        let gateway = try RouteTestGateway()
        defer { gateway.removeDirectory() }
        try await gateway.app.test(.router) { client in
            for (method, path, location) in [
                (HTTPRequest.Method.post, "/keep/join", "/keep?pin=wrong"), (.post, "/desk/login", "/desk?login=wrong"),
                (.get, "/keep/join/nope", "/keep?link=expired"),
            ] {
                let response = try await execute(client, method, path)
                #expect(response.status == .seeOther && response.headers[.location] == location, "\(method) \(path)")
            }
        }
    }

    @Test("another site's form: every POST refused with forbidden (403) before its route runs; a GET is not a change")
    func crossSite() async throws {
        let gateway = try RouteTestGateway()
        defer { gateway.removeDirectory() }
        try await gateway.app.test(.router) { client in
            let posts =
                (Self.deskRoutes + Self.keeperRoutes).filter { $0.0 == .post }
                + [(.post, "/desk/login"), (.post, "/desk/logout"), (.post, "/keep/join"), (.post, "/keep/leave")]
            #expect(posts.count == 15)
            for (method, path) in posts {
                let (status, code) = Self.refusal(try await execute(client, method, path, [.origin: "http://evil.example"]))
                #expect(status == 403 && code == "forbidden", "\(method) \(path)")
            }
            let page = try await execute(client, .get, "/desk", [.origin: "http://evil.example"])
            #expect(page.status == .ok)
        }
    }
}
