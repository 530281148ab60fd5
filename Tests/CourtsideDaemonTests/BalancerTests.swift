import Foundation
import Testing

/// The topology past one gateway, on loopback: HAProxy from `config/haproxy.cfg` in front of two
/// courtside-web, each its own subscriber of the daemon; the screens spread over both, the
/// keepers' routes on the home gateway, and each guest's wrong PINs counted against the guest
/// (`--trusted-proxy`), not against the proxy's address that every request comes from.
@Suite("courtside-web behind HAProxy", .serialized)
struct BalancerTests {
    static let haproxy = "/usr/sbin/haproxy"

    /// The sample config with this run's ports in place of 8080, 8081 and 8082.
    static func config(front: UInt16, home: UInt16, screens: UInt16) throws -> String {
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/haproxy.cfg")
        return try String(contentsOf: sample, encoding: .utf8)
            .replacingOccurrences(of: "bind :8080", with: "bind 127.0.0.1:\(front)")
            .replacingOccurrences(of: "127.0.0.1:8081", with: "127.0.0.1:\(home)")
            .replacingOccurrences(of: "127.0.0.1:8082", with: "127.0.0.1:\(screens)")
    }

    /// curl through the proxy from a loopback address of its own (`--interface`), as a guest on
    /// another phone would: the status and the gateway that answered.
    static func curl(_ url: String, from address: String = "127.0.0.1", _ arguments: [String] = []) throws -> (
        status: Int, gateway: String
    ) {
        let (_, output) = try ChildProcess.run(
            "/usr/bin/curl",
            ["-s", "-o", "/dev/null", "-D", "-", "--max-time", "10", "--interface", address] + arguments + [url])
        let lines = output.split(separator: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        let gateway = lines.first { $0.lowercased().hasPrefix("x-courtside-gateway:") }.map {
            String($0.split(separator: ":", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces)
        }
        return (status, gateway ?? "")
    }

    @Test(
        "screens spread over both gateways and go on when one dies; a phone joins and scores through the proxy; a guest's wrong PINs hold back that guest alone"
    )
    func balanced() async throws {
        guard FileManager.default.isExecutableFile(atPath: Self.haproxy) else {
            Issue.record("haproxy is not installed: scripts/setup.sh installs it")
            return
        }
        let daemon = try DaemonProcess()
        let (front, homePort, screensPort) = (try freePort(), try freePort(), try freePort())
        let home = try WebProcess(daemon, arguments: ["--trusted-proxy", "127.0.0.1"], port: Int(homePort))
        let screens = try WebProcess(
            daemon,
            arguments: [
                "--trusted-proxy", "127.0.0.1", "--state-dir", daemon.directory.appendingPathComponent("screens-web").path,
            ], port: Int(screensPort))
        let (homeInSync, screensInSync) = (await home.waitInSync(), await screens.waitInSync())
        #expect(homeInSync && screensInSync, "\(home.log())")
        let configPath = daemon.directory.appendingPathComponent("haproxy.cfg")
        try Self.config(front: front, home: homePort, screens: screensPort).write(
            to: configPath, atomically: true, encoding: .utf8)
        let proxy = try ChildProcess(Self.haproxy, ["-f", configPath.path, "-db"], output: .capture, error: .capture)
        let base = "http://127.0.0.1:\(front)"
        let up = await poll(seconds: 30, { try? Self.curl(base + "/healthz") }, until: { $0?.status == 200 })
        if up?.status != 200 { Issue.record("haproxy: \(proxy.isRunning ? "running" : await proxy.output(within: 1))") }

        // The screens' pages from both gateways, each its own subscriber of the daemon.
        var gateways: Set<String> = []
        for _ in 0..<8 { gateways.insert(try Self.curl(base + "/").gateway) }
        #expect(gateways == ["home", "screens1"], "\(gateways)")

        // A phone joins with the home gateway's PIN and scores, every request through the proxy.
        let pin = try home.pin()
        let phone = Phone(base)
        #expect(try await phone.join(pin: pin) != nil)
        let moved = try await phone.move("g1", "ann")
        #expect(moved.json["ok"] as? Bool == true, "\(moved)")

        // A guest guessing PINs from its own address is held back; another guest's right PIN is not.
        var statuses: [Int] = []
        for _ in 0..<6 {
            statuses.append(
                try Self.curl(
                    base + "/keep/join", from: "127.0.0.2",
                    ["-H", "Content-Type: application/json", "--data", #"{"pin": "AAAAAA"}"#]
                ).status)
        }
        // Five wrong PINs are free (people mistype); the sixth waits and is refused.
        #expect(statuses == [401, 401, 401, 401, 401, 429], "\(statuses)")
        let other = try Self.curl(
            base + "/keep/join", from: "127.0.0.3", ["-H", "Content-Type: application/json", "--data", "{\"pin\": \"\(pin)\"}"])
        #expect(other.status == 200, "the other guest's right PIN: \(other.status)")

        // One gateway dies: the screens are answered by the other, with no error on the way.
        screens.process.signal(SIGKILL)
        var after: [(Int, String)] = []
        for _ in 0..<6 { after.append(try Self.curl(base + "/")) }
        #expect(after.allSatisfy { $0.0 == 200 && $0.1 == "home" }, "\(after)")
        proxy.signal(SIGTERM)
        _ = await proxy.exited(within: 5)
    }
}
