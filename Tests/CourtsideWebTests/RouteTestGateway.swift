import CourtsideClient
import CourtsideLocalization
import CourtsideWebStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Prometheus

@testable import CourtsideWeb

/// The gateway's own router with the keeper's and the desk's routes, in process, and the store
/// they keep devices and sessions in. No daemon: the relay points at a closed port and gives up
/// after one short try, so a route that asks the daemon answers as when it is unreachable. A test
/// calls ``removeDirectory()`` when done (the store's directory is fresh for each gateway).
struct RouteTestGateway {
    static let passphrase = "correct horse battery"
    /// A hash made once for every suite (bcrypt at the desk's cost takes a moment).
    static let hash = DeskGateway.hash(passphrase: passphrase)
    static let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    let directory: URL
    let store: GatewayStore
    let keeper: KeeperGateway
    let app: Application<RouterResponder<GatewayRequestContext>>

    /// `venue`: the language a request that names none it has gets.
    init(venue: Language = .english) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("courtside-routes-\(UUID())")
        let logger = Logger(label: "test")
        let live = LiveTournament(endpoints: Endpoints(), logger: logger)
        let router = WebGateway.router(
            live, metrics: PrometheusCollectorRegistry(), language: LanguageChoice(venue: venue), logger: logger)
        store = try GatewayStore(directory: directory)
        let relay = CommandRelay(endpoint: "tcp://127.0.0.1:9", courtKeys: nil, timeoutMilliseconds: 50, attempts: 1)
        keeper = KeeperGateway(live: live, store: store, relay: relay, secureCookies: false)
        keeper.addRoutes(to: router)
        DeskGateway(live: live, store: store, relay: relay, passphraseHash: Self.hash, secureCookies: false).addRoutes(to: router)
        app = Application(router: router)
    }

    /// Removes the store's directory, which the gateway no longer uses.
    func removeDirectory() { try? FileManager.default.removeItem(at: directory) }

    /// Each cookie a response sets, as `name=value` for a next request's `Cookie` header.
    static func cookies(_ response: TestResponse) -> [String: String] {
        var cookies: [String: String] = [:]
        for line in response.headers[values: .setCookie] {
            let pair = String(line.prefix { $0 != ";" })
            cookies[String(pair.prefix { $0 != "=" })] = pair
        }
        return cookies
    }

    /// The whole `Set-Cookie` line a response sets for `name`.
    static func setCookie(_ response: TestResponse, _ name: String) -> String? {
        response.headers[values: .setCookie].first { $0.hasPrefix("\(name)=") }
    }

    /// A JSON answer's object.
    static func object(_ response: TestResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8)) as? [String: Any]) ?? [:]
    }

    /// The refusal's status, stable code and message, from a JSON error answer.
    static func refusal(_ response: TestResponse) -> (status: Int, code: String?, message: String) {
        let error = object(response)["error"] as? [String: Any]
        return (response.status.code, error?["code"] as? String, error?["message"] as? String ?? "")
    }

    /// A form's body, its values percent-encoded.
    static func body(_ fields: [String: String]) -> ByteBuffer {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let pairs = fields.sorted { $0.key < $1.key }.map {
            "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }
        return ByteBuffer(string: pairs.joined(separator: "&"))
    }

    /// The value of a page's hidden field `name`.
    static func hidden(_ page: String, _ name: String) -> String? {
        guard let start = page.range(of: #"name="\#(name)" value=""#) else { return nil }
        return String(page[start.upperBound...].prefix { $0 != "\"" })
    }
}

extension TestClientProtocol {
    /// A form posted with `cookie`, if any.
    func post(_ path: String, _ fields: [String: String], cookie: String? = nil) async throws -> TestResponse {
        var headers = RouteTestGateway.form
        if let cookie { headers[.cookie] = cookie }
        return try await execute(uri: path, method: .post, headers: headers, body: RouteTestGateway.body(fields))
    }

    /// A GET (or HEAD) with `cookie`, if any.
    func get(_ path: String, cookie: String? = nil, method: HTTPRequest.Method = .get) async throws -> TestResponse {
        try await execute(uri: path, method: method, headers: cookie.map { [.cookie: $0] } ?? [:])
    }
}
