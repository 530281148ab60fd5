import Foundation
import Testing

/// The keeper page in real Chromium (Tests/python/keeper_check.py, through selenium) against
/// the real courtsided and courtside-web, the browser reaching the gateway through a TCP proxy
/// the script stops and restarts to cut the network.
@Suite("The keeper page in a real browser", .serialized)
struct KeeperPageTests {
    /// Five games on Court 1, so that each part of the check has a game of its own, and one on Court 2.
    static let courtGames = """
        games:
          - { id: g1, home: lions, away: tigers, court: Court 1 }
          - { id: g3, home: bears, away: wolves, court: Court 1 }
          - { id: g4, home: lions, away: bears, court: Court 1 }
          - { id: g5, home: tigers, away: wolves, court: Court 1 }
          - { id: g6, home: lions, away: wolves, court: Court 1 }
          - { id: g2, home: bears, away: wolves, court: Court 2 }
        """

    /// Seconds the network stays cut; the issue asks for a 60-second Wi-Fi drop.
    static let offlineSeconds = ProcessInfo.processInfo.environment["COURTSIDE_KEEPER_OFFLINE_SECONDS"] ?? "60"

    @Test("the page's connection (keeper-link.js), its transitions under Node's test runner (Tests/node)")
    func connectionTransitions() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("node")
        let (status, output) = try ChildProcess.run("/usr/bin/node", ["--test", tests.path], mergeError: true, seconds: 60)
        #expect(status == 0 && output.contains("# fail 0"), "\(output)")
    }

    @Test(
        "join by PIN on a phone; a game to 15-13 on the socket; the socket cut and refused; a lost reply; a silent socket; the event stream down while POSTs pass; the daemon stopped; 60 s offline and a reload; two keepers; a revoked device"
    )
    func keeperPage() async throws {
        let daemon = try DaemonProcess(schedule: Self.courtGames)
        let web = try WebProcess(daemon)
        #expect(await web.waitInSync(), "\(web.log())")
        let pin = try web.pin()
        // Screenshots land next to the build, for a person to look at after the run.
        let shots = try WebProcess.screenshots("keeper-screenshots")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("python/keeper_check.py")
        let check = try ChildProcess(
            "/usr/bin/python3",
            [
                script.path, "--web", web.base, "--command", daemon.commandEndpoint, "--pin", pin, "--web-bin",
                WebProcess.executable, "--state-dir", web.stateDirectory, "--offline-seconds", Self.offlineSeconds, "--shots",
                shots.path, "--daemon-pid", String(daemon.processIdentifier),
            ], output: .capture, error: .capture)
        let output = await check.output(within: 240)
        print(output)  // the figures for whoever reads the log
        #expect(await check.exited(within: 10) == 0, "\(output)\n\(web.log().suffix(3000))")
        #expect(output.contains(" passed, 0 failed"), "\(output)")
    }
}
