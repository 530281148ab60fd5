import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourtsideWeb

/// The one cross-site check every POST passes, in process (``CrossSiteMiddleware``): the routes
/// behind it never see a POST from another site, and nothing else is refused.
@Suite("the cross-site check, in front of every route")
struct CrossSiteMiddlewareTests {
    static func app() -> some ApplicationProtocol {
        let router = Router()
        router.add(middleware: CrossSiteMiddleware())
        router.post("/changes") { _, _ in "changed" }
        router.get("/page") { _, _ in "page" }
        return Application(router: router)
    }

    @Test("a POST from another site is 403 forbidden before its route; the same site, no Origin and GETs pass")
    func posts() async throws {
        try await Self.app().test(.router) { client in
            let evil = try await client.execute(uri: "/changes", method: .post, headers: [.origin: "http://evil.example"])
            #expect(evil.status == .forbidden)
            #expect(String(buffer: evil.body).contains("\"code\":\"forbidden\""), "\(String(buffer: evil.body))")
            let fetched = try await client.execute(
                uri: "/changes", method: .post, headers: [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"])
            #expect(fetched.status == .forbidden)
            let same = try await client.execute(uri: "/changes", method: .post, headers: [.origin: "http://localhost"])
            #expect(same.status == .ok && String(buffer: same.body) == "changed")
            let bare = try await client.execute(uri: "/changes", method: .post)
            #expect(bare.status == .ok)
            let page = try await client.execute(uri: "/page", method: .get, headers: [.origin: "http://evil.example"])
            #expect(page.status == .ok && String(buffer: page.body) == "page")
        }
    }
}
