import Foundation
import Testing

/// The keeper page in Japanese and in Korean in real Chromium (Tests/python/keeper_lang_check.py,
/// through selenium) against the real courtsided and courtside-web: the language asked for as a
/// device asks (Accept-Language, or the `lang` cookie), taps confirmed, a refusal and a revoked
/// device read back in that language, and each control's spoken name.
@Suite("The keeper page in Japanese and Korean in a real browser", .serialized)
struct KeeperLanguageTests {
    /// One game on Court 1, the keeper's whole day here.
    static let courtGames = """
        games:
          - { id: g1, home: lions, away: tigers, court: Court 1 }
        """

    @Test("a keeper plays, is refused and is revoked in the language", arguments: ["ja", "ko"])
    func keeper(_ language: String) async throws {
        let daemon = try DaemonProcess(schedule: Self.courtGames)
        let web = try WebProcess(daemon)
        #expect(await web.waitInSync(), "\(web.log())")
        let pin = try web.pin()
        // The screenshots for the README land next to the build.
        let shots = try WebProcess.screenshots("keeper-screenshots")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("python/keeper_lang_check.py")
        let check = try ChildProcess(
            "/usr/bin/python3",
            [
                script.path, "--web", web.base, "--command", daemon.commandEndpoint, "--pin", pin, "--lang", language,
                "--web-bin", WebProcess.executable, "--state-dir", web.stateDirectory, "--shots", shots.path,
            ], output: .capture, error: .capture)
        let output = await check.output(within: 120)
        print(output)
        #expect(await check.exited(within: 10) == 0, "\(output)\n\(web.log().suffix(3000))")
        #expect(output.contains(" passed, 0 failed"), "\(output)")
    }
}
