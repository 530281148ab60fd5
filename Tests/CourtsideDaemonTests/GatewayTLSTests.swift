import CourtsideClient
import CourtsideProtocol
import CourtsideWebStore
import Foundation
import Testing

@Suite("courtside-web over HTTPS", .serialized)
struct GatewayTLSTests {
    @Test(
        "--tls-certificate and --tls-key serve HTTPS, the keeper's cookie is then Secure, HttpOnly and SameSite=Strict, and the keeper's socket works as wss://"
    )
    func https() async throws {
        let (daemon, web, cert, url, pin) = try await Self.httpsGateway()
        func curl(_ arguments: [String]) throws -> String { try Self.curl(cert, arguments) }
        let joined = try curl([
            "-i", "-H", "Content-Type: application/json", "--data", "{\"pin\": \"\(pin)\"}", "\(url)/keep/join",
        ])
        let cookie = joined.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") }.map(String.init) ?? ""
        #expect(cookie.contains("courtside_keeper=") && cookie.contains("Secure"), "\(joined)")
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "\(cookie)")
        // The keeper's socket through TLS, as a page served over https opens it (wss://): a move
        // on it is applied; a forged session is not upgraded.
        let session = String(cookie.drop { $0 != ":" }.dropFirst().prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces)
        func overSocket(_ cookie: String, _ message: String) throws -> [String: Any] {
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("python/tls_socket_check.py")
            let (_, output) = try ChildProcess.run(
                "/usr/bin/python3",
                [script.path, "--url", url, "--cafile", cert, "--cookie", cookie, "--message", message], seconds: 20)
            let line = output.split(separator: "\n").last.map(String.init) ?? ""
            return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? ["output": output]
        }
        let move = #"{"command_id":"over-tls","op":"move","game":"g1","player":"ann","move":"two_points"}"#
        let upgraded = try overSocket(session, move)
        let answer = upgraded["answer"] as? [String: Any]
        #expect(upgraded["status"] as? Int == 101 && answer?["status"] as? Int == 200, "\(upgraded)")
        #expect((answer?["reply"] as? [String: Any])?["ok"] as? Bool == true, "\(upgraded)")
        #expect(try overSocket("courtside_keeper=forged", move)["status"] as? Int == 400)
        #expect(try Keeper(daemon.commandEndpoint).send(.snapshot(game: "g1")).snapshot?.first?.score.home == 2)
        // Plain HTTP on the HTTPS port gets nothing it could use.
        #expect(try curl(["\(web.base)/healthz"]) != "in sync\n")

        // A key that is not one: exit 78 with the flag named.
        let (status, output) = try ChildProcess.run(
            DaemonProcess.executable.deletingLastPathComponent().appendingPathComponent("courtside-web").path,
            ["--tls-certificate", cert, "--tls-key", cert, "--listen", "127.0.0.1:0", "--state-dir", daemon.directory.path],
            mergeError: true, seconds: 20)
        #expect(status == 78 && output.contains("--tls-key"), "\(output)")
    }

    @Test(
        "in Chromium over HTTPS (the certificate trusted by its key): a secure context, joined by PIN, the service worker in control, the keeper's socket opened as wss:// and a tap confirmed on it with no POST"
    )
    func keeperPageOverHTTPS() async throws {
        let (daemon, web, cert, url, pin) = try await Self.httpsGateway()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("python/tls_keeper_check.py")
        let (status, output) = try ChildProcess.run(
            "/usr/bin/python3", [script.path, "--web", url, "--pin", pin, "--cert", cert], mergeError: true, seconds: 120)
        #expect(status == 0 && output.hasSuffix("7 passed, 0 failed\n"), "\(output)\n\(web.log())")
        #expect(try Keeper(daemon.commandEndpoint).send(.snapshot(game: "g1")).snapshot?.first?.score.home == 2)
    }

    /// A daemon, and courtside-web serving HTTPS for it with a new self-signed certificate for
    /// 127.0.0.1, in sync: the certificate's path, the https:// address and Court 1's PIN.
    static func httpsGateway() async throws -> (DaemonProcess, WebProcess, String, String, String) {
        let daemon = try DaemonProcess()
        let cert = daemon.directory.appendingPathComponent("web.crt").path
        let key = daemon.directory.appendingPathComponent("web.key").path
        let (made, madeOutput) = try ChildProcess.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj",
                "/CN=courtside-web", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert,
            ], mergeError: true)
        #expect(made == 0, "\(madeOutput)")
        let pin = try await GatewayStore(directory: WebProcess.stateDirectory(daemon)).code(for: "Court 1").pin
        let web = try WebProcess(daemon, arguments: ["--tls-certificate", cert, "--tls-key", key])
        let url = web.base.replacingOccurrences(of: "http://", with: "https://")
        var health = ""
        _ = keepTrying(seconds: 30, until: { health == "in sync\n" }) {
            health = (try? curl(cert, ["\(url)/healthz"])) ?? ""
            usleep(100_000)
        }
        #expect(health == "in sync\n", "\(web.log())")
        return (daemon, web, cert, url, pin)
    }

    /// curl with `cert` as its only authority, 5 s at most; its output, errors included.
    static func curl(_ cert: String, _ arguments: [String]) throws -> String {
        try ChildProcess.run("/usr/bin/curl", ["-s", "--max-time", "5", "--cacert", cert] + arguments, mergeError: true).1
    }
}
