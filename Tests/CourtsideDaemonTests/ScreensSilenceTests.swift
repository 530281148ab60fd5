import Foundation
import Testing

/// The court TV whose event stream is held up, in real Chromium (Tests/python/screens_silence_check.py,
/// through selenium) against the real courtsided and courtside-web, the browser reaching the
/// gateway through a TCP proxy of the script that holds the open streams while CDP blocks new ones.
@Suite("The screens when they cannot hear, in a real browser", .serialized)
struct ScreensSilenceTests {
    @Test("a move while the TV's stream is held: stale with the banner in its language (en, ja), then the new score")
    func heldStream() async throws {
        let daemon = try DaemonProcess()
        let web = try WebProcess(daemon)
        #expect(await web.waitInSync(), "\(web.log())")
        let shots = try WebProcess.screenshots("web-screenshots")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("python/screens_silence_check.py")
        let check = try ChildProcess(
            "/usr/bin/python3",
            [script.path, "--web", web.base, "--command", daemon.commandEndpoint, "--shots", shots.path],
            output: .capture, error: .capture)
        let output = await check.output(within: 90)
        print(output)
        #expect(await check.exited(within: 10) == 0, "\(output)\n\(web.log().suffix(3000))")
        #expect(output.contains(" passed, 0 failed"), "\(output)")
    }
}
