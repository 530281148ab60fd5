import Foundation
import Testing

/// Every page through axe-core in real Chromium (Tests/python/axe_check.py, through selenium),
/// against the real courtsided and courtside-web: in English, Japanese and Korean, on a TV and a
/// phone, no serious or critical violation; and the keeper page at 200% on the phone with
/// nothing to scroll sideways.
@Suite("every page passes axe-core in a real browser", .serialized)
struct AccessibilityTests {
    @Test(
        "axe-core over every page (join, keeper, desk and its pages, the Setup page, its preview and answer, court TV, big screen, overlay, box score, results and brackets, teams, a team, both printed sheets) in en, ja and ko on a TV and a phone: zero serious or critical violations (7:1 contrast on the court TV, the big screen and the overlay); the keeper page at 200% without sideways scroll"
    )
    func audit() async throws {
        let (daemon, web) = try await DeskSetupTests.waiting()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("python/axe_check.py")
        let check = try ChildProcess(
            "/usr/bin/python3",
            [
                script.path, "--web", web.base, "--passphrase", DeskTests.passphrase, "--csv", DeskSetupTests.csv.path,
                "--web-bin", WebProcess.executable, "--state-dir", web.stateDirectory,
            ], output: .capture, error: .capture)
        let output = await check.output(within: 420)
        print(output)  // the table of violations per page, for whoever reads the log
        #expect(await check.exited(within: 10) == 0, "\(output)\n\(web.log().suffix(3000))")
        #expect(output.contains(" passed, 0 failed"), "\(output)")
        // Held to the end: the daemon's directory, with the gateway's state and log, goes with it.
        withExtendedLifetime(daemon) {}
    }
}
