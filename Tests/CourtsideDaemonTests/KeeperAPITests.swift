import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import CourtsideWebStore
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One phone, as courtside-web sees it: requests with its own cookie jar of one cookie, and
/// redirects not followed, so the test sees what the gateway answered.
final class Phone: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    let base: String
    /// The cookies the gateway set, by name.
    var jar: [String: String] = [:]
    /// The `Cookie` header this phone sends; set it to send a forged one.
    var cookie: String? {
        get { jar.isEmpty ? nil : jar.keys.sorted().map { "\($0)=\(jar[$0]!)" }.joined(separator: "; ") }
        set {
            jar = [:]
            for pair in newValue?.split(separator: ";") ?? [] {
                let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if parts.count == 2 { jar[String(parts[0])] = String(parts[1]) }
            }
        }
    }
    private var session: URLSession!

    init(_ base: String) {
        self.base = base
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    /// A request; the status, the JSON body (if any), and the response's headers.
    @discardableResult
    func send(
        _ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:],
        contentType: String = "application/json"
    ) async throws -> (status: Int, json: [String: Any], headers: [AnyHashable: Any]) {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        request.timeoutInterval = 10
        request.httpBody = body
        if body != nil { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        if let cookie { request.setValue(cookie, forHTTPHeaderField: "Cookie") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        let fields = http.allHeaderFields.reduce(into: [String: String]()) { $0["\($1.key)"] = "\($1.value)" }
        for cookie in HTTPCookie.cookies(withResponseHeaderFields: fields, for: URL(string: base)!) {
            jar[cookie.name] = cookie.value
        }
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (http.statusCode, json, http.allHeaderFields)
    }

    /// A request whose answer is a page: its status and text.
    func html(_ method: String, _ path: String, body: Data?) async throws -> (Int, String) {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        request.timeoutInterval = 10
        request.httpBody = body
        if body != nil { request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type") }
        if let cookie { request.setValue(cookie, forHTTPHeaderField: "Cookie") }
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    func post(_ path: String, _ object: [String: Any], headers: [String: String] = [:]) async throws -> (
        status: Int, json: [String: Any], headers: [AnyHashable: Any]
    ) {
        try await send("POST", path, body: try JSONSerialization.data(withJSONObject: object), headers: headers)
    }

    /// Joins with a PIN; returns the device's name.
    func join(pin: String, name: String? = nil) async throws -> String? {
        var body: [String: Any] = ["pin": pin]
        if let name { body["name"] = name }
        return try await post("/keep/join", body).json["device"] as? String
    }

    /// A move with a command id of the device's own.
    func move(_ game: String, _ player: String, _ move: String = "two_points", id: String = UUID().uuidString) async throws -> (
        status: Int, json: [String: Any], headers: [AnyHashable: Any]
    ) {
        try await post("/api/keep/commands", ["command_id": id, "op": "move", "game": game, "player": player, "move": move])
    }
}

extension [String: Any] {
    /// The error code of a reply or error body.
    var code: String? { (self["error"] as? [String: Any])?["code"] as? String }
    /// The message of an error body.
    var message: String { (self["error"] as? [String: Any])?["message"] as? String ?? "" }
}

@Suite("courtside-web keeps score for joined phones", .serialized, .timeLimit(.minutes(3)))
struct KeeperAPITests {
    @Test(
        "join by PIN or link; moves relayed once under the device's ids with its origin in the log; another court's game, hostile input, wrong PINs, revocation"
    )
    func plaintext() async throws {
        let daemon = try DaemonProcess()
        let store = try GatewayStore(directory: WebProcess.stateDirectory(daemon))
        let court1 = try await store.code(for: "Court 1")
        var web = try WebProcess(daemon)
        #expect(await web.waitInSync(), "\(web.log())")
        let phone = Phone(web.base)

        // Not joined: nothing but a clear 401.
        let early = try await phone.move("g1", "ann")
        #expect(early.status == 401 && early.json.code == "not_joined", "\(early)")
        #expect(early.json.message.contains("has not joined"), "\(early)")
        // A session the store does not know (expired with its device, or forged): told it ended.
        phone.cookie = "courtside_keeper=forged"
        let ended = try await phone.move("g1", "ann")
        #expect(ended.json.code == "not_joined" && ended.json.message.contains("session has ended"), "\(ended)")
        phone.cookie = nil

        let device = try #require(try await phone.join(pin: court1.printedPIN.lowercased(), name: "Ann's phone"))
        #expect(device.hasPrefix("ann-s-phone-"))
        #expect(phone.jar["courtside_keeper"] != nil && phone.jar["courtside_install"] != nil, "\(phone.jar)")
        let session = try await phone.send("GET", "/api/keep/session")
        #expect(session.json["court"] as? String == "Court 1")
        #expect(((session.json["lineup"] as? [String: Any])?["current"] as? String) == "g1", "\(session.json)")

        // A move, then its retry with the same id (its reply lost): applied once.
        let id = UUID().uuidString
        let first = try await phone.move("g1", "ann", id: id)
        #expect(first.status == 200 && first.json["ok"] as? Bool == true, "\(first)")
        let retry = try await phone.move("g1", "ann", id: id)
        #expect(retry.json["version"] as? Int == first.json["version"] as? Int)
        // The ok's version is in the answer's head too (the page confirms on it); a refusal has none.
        let version = { (headers: [AnyHashable: Any]) in
            headers.first { "\($0.key)".lowercased() == "x-courtside-version" }?.value as? String
        }
        #expect(version(first.headers) == (first.json["version"] as? Int).map(String.init), "\(first.headers)")
        #expect(version(retry.headers) == version(first.headers))
        let keeper = try Keeper(daemon.commandEndpoint)
        #expect(try keeper.send(.snapshot(game: "g1")).snapshot?.first?.score.home == 2)
        let trail = try #require(try keeper.send(.log(game: "g1")).events)
        #expect(
            trail.last?.origin == CommandOrigin(clientID: "court-1/\(device)", commandID: id), "\(String(describing: trail.last))"
        )

        // The daemon's own refusals come back as they are, and change nothing.
        let refused = try await phone.move("g1", "nobody")
        #expect(refused.json.code == "unknown_player" && version(refused.headers) == nil, "\(refused)")
        #expect(try await phone.move("nope", "ann").json.code == "unknown_game")
        // Another court's game: on a plaintext daemon the gateway keeps the device to its court.
        let elsewhere = try await phone.move("g2", "gus")
        #expect(elsewhere.status == 403 && elsewhere.json.code == "forbidden", "\(elsewhere)")
        // Only what a keeper sends.
        let read = try await phone.post("/api/keep/commands", ["command_id": "r1", "op": "list_games"])
        #expect(read.status == 403 && read.json.code == "forbidden")
        let malformed = try await phone.send("POST", "/api/keep/commands", body: Data("{\"op\": ".utf8))
        #expect(malformed.status == 400 && malformed.json.code == "bad_request")
        let shapeless = try await phone.post("/api/keep/commands", ["op": "move", "game": "g1"])
        #expect(shapeless.status == 400 && shapeless.json.code == "bad_request", "\(shapeless)")
        let huge = try await phone.post(
            "/api/keep/commands", ["command_id": "h", "op": "move", "game": String(repeating: "g", count: 20_000)])
        #expect(huge.status == 413 && huge.json.code == "message_too_large", "\(huge)")
        // The page's own origin is welcome; another site's is not.
        let sameSite = try await phone.post(
            "/api/keep/commands",
            ["command_id": UUID().uuidString, "op": "move", "game": "g1", "player": "ann", "move": "two_points"],
            headers: ["Origin": web.base])
        #expect(sameSite.status == 200 && sameSite.json["ok"] as? Bool == true, "\(sameSite)")
        let forged = try await phone.post(
            "/api/keep/commands",
            ["command_id": UUID().uuidString, "op": "move", "game": "g1", "player": "ann", "move": "rebound"],
            headers: ["Origin": "http://evil.example"])
        #expect(forged.status == 403 && forged.json.code == "forbidden")
        #expect(try keeper.send(.snapshot(game: "g1")).snapshot?.first?.counts["ann"]?.rebound == 0)
        #expect(try keeper.send(.snapshot(game: "g1")).snapshot?.first?.score.home == 4)

        // A link joins too, and the token never stays in the address bar.
        let linked = Phone(web.base)
        let redirect = try await linked.send("GET", "/keep/join/\(court1.token)")
        #expect(redirect.status == 303 && redirect.headers["Location"] as? String == "/keep")
        #expect(try await linked.move("g1", "bo").json["ok"] as? Bool == true)
        #expect(try await Phone(web.base).send("GET", "/keep/join/dead").headers["Location"] as? String == "/keep?link=expired")

        // A restart of the gateway logs nobody out.
        let port = web.port
        web = try WebProcess(daemon, port: port)
        #expect(await web.waitInSync(), "\(web.log())")
        #expect(try await phone.move("g1", "ann").json["ok"] as? Bool == true)

        // A new code for the court: the phone is revoked at its next request.
        _ = try await store.renewCode(for: "Court 1")
        let queued = UUID().uuidString
        let revoked = try await phone.move("g1", "ann", id: queued)
        #expect(revoked.status == 401 && revoked.json.code == "revoked", "\(revoked)")
        #expect(try keeper.send(.snapshot(game: "g1")).snapshot?.first?.score.home == 8)

        // It joins again with the new code and keeps its name, so the moves it still has queued
        // keep their client id: one that was applied before (its reply lost) is not applied twice.
        let renewed = try await store.code(for: "Court 1")
        #expect(try await phone.join(pin: renewed.pin, name: "another name") == device)
        #expect(try await phone.move("g1", "ann", id: id).json["version"] as? Int == first.json["version"] as? Int)
        #expect(try await phone.move("g1", "ann", id: queued).json["ok"] as? Bool == true)
        #expect(try keeper.send(.snapshot(game: "g1")).snapshot?.first?.score.home == 10)

        // A form that is not one (bad percent-encoding) is refused, and the gateway lives on.
        let broken = try await Phone(web.base).send(
            "POST", "/keep/join", body: Data("pin=%zz&name=%E0%A4%A".utf8), contentType: "application/x-www-form-urlencoded")
        #expect(broken.status == 303 && broken.headers["Location"] as? String == "/keep?pin=wrong")
        let formJoin = Phone(web.base)
        let joinedByForm = try await formJoin.send(
            "POST", "/keep/join", body: Data("pin=\(renewed.printedPIN.lowercased())&name=Court+tablet".utf8),
            contentType: "application/x-www-form-urlencoded")
        #expect(joinedByForm.status == 303 && joinedByForm.headers["Location"] as? String == "/keep")
        let tablet = try await formJoin.send("GET", "/api/keep/session").json["device"] as? String
        #expect(tablet?.hasPrefix("court-tablet-") == true, "\(String(describing: tablet))")
        #expect(web.process.isRunning)

        // Wrong PINs (every phone here shares one address): heard at first, then slowed down.
        // Ten at once, as a guesser would send them: each is counted when heard, however slow the machine.
        let base = web.base
        let guesses = try await withThrowingTaskGroup(of: (Int, String?, Bool).self) { group in
            for _ in 0..<10 {
                group.addTask {
                    let answer = try await Phone(base).post("/keep/join", ["pin": "AAAAAA"])
                    return (answer.status, answer.json.code, answer.headers["Retry-After"] != nil)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Five are heard; the rest wait (on a machine so slow that a guess comes after the first
        // wait has passed, that one is heard too, and the next wait is longer).
        let heard = guesses.filter { $0.0 == 401 && $0.1 == "wrong_code" }.count
        let slowed = guesses.filter { $0.0 == 429 && $0.1 == "too_many_attempts" && $0.2 }.count
        #expect(heard >= 5 && slowed >= 1 && heard + slowed == 10, "\(guesses)")

    }

    @Test(
        "on a secured daemon each court's key decides: another court's game is forbidden by the daemon, and the log names the key"
    )
    func secured() async throws {
        let (daemon, keys) = try securedDaemon()
        let store = try GatewayStore(directory: WebProcess.stateDirectory(daemon))
        let court1 = try await store.code(for: "Court 1")
        let court2 = try await store.code(for: "Court 2")
        let directory = keys.directory.appendingPathComponent("keys")
        let web = try WebProcess(
            daemon,
            arguments: [
                "--key", directory.appendingPathComponent("big-screen.key_secret").path, "--server-key",
                directory.appendingPathComponent("server.key").path, "--court-key",
                "Court 1=\(directory.appendingPathComponent("court-1.key_secret").path)",
            ])
        #expect(await web.waitInSync(), "\(web.log())")
        let phone = Phone(web.base)
        let device = try #require(try await phone.join(pin: court1.pin))
        let id = UUID().uuidString
        #expect(try await phone.move("g1", "ann", id: id).json["ok"] as? Bool == true)
        let organiser = keys.client(daemon, keys.organiser)
        let trail = try #require(try organiser.command(.log(game: "g1")).events)
        #expect(trail.last?.origin == CommandOrigin(clientID: "court-1/\(device)", commandID: id))

        // The gateway relays it under Court 1's key; the daemon refuses.
        let elsewhere = try await phone.move("g2", "gus")
        #expect(elsewhere.status == 200 && elsewhere.json.code == "forbidden", "\(elsewhere)")
        #expect(try organiser.command(.snapshot(game: "g2")).snapshot?.first?.score.home == 0)

        // A court the gateway holds no key for: it has no power there.
        let other = Phone(web.base)
        _ = try await other.join(pin: court2.pin)
        let keyless = try await other.move("g2", "gus")
        #expect(keyless.status == 403 && keyless.json.code == "forbidden", "\(keyless)")
    }
}

/// What a keeper page that hears no events relies on: `sync` events every `?ping=` seconds on
/// the stream, the game's state at `/api/keep/games/ID`, and HEAD for the files its service
/// worker keeps.
// No time limit of its own: each step has its deadline (curl's --max-time, the reads' 50 tries).
@Suite("courtside-web for a keeper page that hears nothing", .serialized)
struct KeeperSilenceTests {
    @Test(
        "?ping=1 sends a sync each second; /api/keep/games/ID answers a joined device with the game's view; HEAD /keep/sw.js is 200"
    )
    func silence() async throws {
        let daemon = try DaemonProcess()
        let pin = try await GatewayStore(directory: WebProcess.stateDirectory(daemon)).code(for: "Court 1").pin
        let web = try WebProcess(daemon)
        #expect(await web.waitInSync(), "\(web.log())")

        // Three seconds of a quiet stream: its state, then a sync each second; without ?ping none.
        let (_, pinged) = try ChildProcess.run(
            "/usr/bin/curl", ["-sN", "--max-time", "3.5", "\(web.base)/api/events?ping=1"], mergeError: true, seconds: 10)
        let syncs = pinged.components(separatedBy: "event: sync\ndata: {\"in_sync\":true}").count - 1
        #expect(pinged.hasPrefix("retry: 1000\n\nevent: state") && (2...4).contains(syncs), "\(pinged.prefix(200)) \(syncs)")
        let (_, quiet) = try ChildProcess.run(
            "/usr/bin/curl", ["-sN", "--max-time", "2.5", "\(web.base)/api/events"], mergeError: true, seconds: 10)
        #expect(!quiet.contains("event: sync"), "\(quiet.suffix(200))")

        // The game's state, for a joined device only.
        let phone = Phone(web.base)
        let early = try await phone.send("GET", "/api/keep/games/g1")
        #expect(early.status == 401 && early.json.code == "not_joined", "\(early)")
        _ = try #require(try await phone.join(pin: pin))
        let moved = try await phone.move("g1", "ann")
        #expect(moved.json["ok"] as? Bool == true, "\(moved)")
        let version = try #require(moved.json["version"] as? Int)
        var game: [String: Any] = [:]
        // The gateway's view follows the daemon's event a moment after the reply.
        for _ in 0..<50 {
            game = try await phone.send("GET", "/api/keep/games/g1").json
            if ((game["game"] as? [String: Any])?["state"] as? [String: Any])?["version"] as? Int == version { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        let body = try #require(game["game"] as? [String: Any], "\(game)")
        #expect(game["in_sync"] as? Bool == true && game["daemon_now"] as? Int != nil && game["sequence"] as? Int != nil)
        #expect((body["view"] as? [String: Any])?["score"] as? String == "2 - 0", "\(body)")
        let unknown = try await phone.send("GET", "/api/keep/games/nope")
        #expect(unknown.status == 404 && unknown.json.code == "unknown_game", "\(unknown)")

        // A player the organiser marks inactive is offered no move: the view says so.
        let keeper = try Keeper(daemon.commandEndpoint)
        #expect(
            try keeper.send(.changeTournament(.playerActive(team: "lions", player: "bo", active: false), reason: "hurt")).error
                == nil)
        var bo: [String: Any] = [:]
        for _ in 0..<50 {
            let view =
                (try await phone.send("GET", "/api/keep/games/g1").json["game"] as? [String: Any])?["view"] as? [String: Any]
            let players = (view?["home"] as? [String: Any])?["players"] as? [[String: Any]] ?? []
            bo = players.first { $0["id"] as? String == "bo" } ?? [:]
            if bo["isActive"] as? Bool == false { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(bo["isActive"] as? Bool == false && bo["inactiveText"] as? String == "inactive: no more moves", "\(bo)")

        // HEAD as GET for the service worker and the files it keeps.
        for path in [
            "/keep/sw.js", "/static/keeper.js", "/static/keeper-link.js", "/static/keeper-outbox.js",
            "/static/keeper-store.js", "/static/keeper-draw.js", "/static/keeper-post.js", "/static/keeper-socket.js",
            "/static/bind.js",
            "/static/keeper.css",
        ] {
            let head = try await phone.send("HEAD", path)
            #expect(head.status == 200, "HEAD \(path): \(head.status)")
            #expect(try await phone.send("GET", path).status == 200, "GET \(path)")
        }
        #expect((try await phone.send("HEAD", "/keep/sw.js")).headers["Service-Worker-Allowed"] as? String == "/keep")
    }
}

@Suite("the organiser's sheet of join codes", .serialized)
struct JoinSheetTests {
    @Test(
        "courtside-web codes sheet prints, for each of the daemon's courts, a QR code that a reader decodes to its join link, and its PIN"
    )
    func sheet() async throws {
        let daemon = try DaemonProcess()
        let state = WebProcess.stateDirectory(daemon).path
        let sheet = daemon.directory.appendingPathComponent("join-codes.html").path
        let web = DaemonProcess.executable.deletingLastPathComponent().appendingPathComponent("courtside-web").path
        let (status, output) = try ChildProcess.run(
            web,
            [
                "codes", "sheet", "--state-dir", state, "--base-url", "http://192.168.1.20:8080", "--output", sheet,
                "--command-endpoint", daemon.commandEndpoint,
            ], mergeError: true)
        #expect(status == 0, "\(output)")
        let codes = try await GatewayStore(directory: WebProcess.stateDirectory(daemon)).codes()
        #expect(codes.map(\.court) == ["Court 1", "Court 2"], "the daemon's courts")
        let html = try String(contentsOfFile: sheet, encoding: .utf8)
        for code in codes { #expect(html.contains(code.printedPIN)) }

        // Printed as a browser prints it, then read back as a phone's camera reads it.
        let png = daemon.directory.appendingPathComponent("sheet.png").path
        let (shot, shotOutput) = try ChildProcess.run(
            "/usr/bin/chromium",
            ["--headless", "--no-sandbox", "--disable-gpu", "--screenshot=\(png)", "--window-size=900,1200", "file://\(sheet)"],
            mergeError: true)
        #expect(shot == 0, "\(shotOutput)")
        let (_, decoded) = try ChildProcess.run("/usr/bin/zbarimg", ["-q", "--raw", png])
        let links = Set(decoded.split(separator: "\n").map(String.init))
        #expect(links == Set(codes.map { "http://192.168.1.20:8080/keep/join/\($0.token)" }), "\(decoded)")

        // A court named, and a base address that is none.
        let (named, namedOutput) = try ChildProcess.run(
            web, ["codes", "sheet", "--state-dir", state, "--court", "Centre court", "--output", sheet], mergeError: true)
        #expect(named == 0 && namedOutput.contains("Centre court"), "\(namedOutput)")
        let (bad, badOutput) = try ChildProcess.run(
            web, ["codes", "sheet", "--state-dir", state, "--base-url", "nope"], mergeError: true)
        #expect(bad != 0 && badOutput.contains("--base-url takes"), "\(badOutput)")
    }
}
