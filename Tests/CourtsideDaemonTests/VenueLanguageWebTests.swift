import Foundation
import Testing

/// The venue's language set once in the tournament's config (`language: ja`): every gateway of
/// the venue speaks it to browsers that ask for no language a catalog has, with no flag of its
/// own; a gateway's `--language` and each device's own choice still come first.
@Suite("the config's language: on the pages, over the real daemon", .serialized)
struct VenueLanguageWebTests {
    @Test("language: ja in the config: a French browser gets Japanese, a Korean one Korean; --language ko on a gateway beats it")
    func configured() async throws {
        let daemon = try DaemonProcess(extraConfig: "language: ja\n")
        let tournament = try Keeper(daemon.commandEndpoint).send(.tournament)
        #expect(tournament.tournament?.language == "ja")

        let web = try WebProcess(daemon)
        #expect(await web.waitInSync(), "\(web.log())")
        let french = try await LanguageWebTests.page(web, "/keep", ["Accept-Language": "fr-FR, de;q=0.5"])
        #expect(french.contains(#"<html lang="ja">"#) && french.contains("コートのPIN"), "\(french)")
        let korean = try await LanguageWebTests.page(web, "/keep", ["Accept-Language": "ko"])
        #expect(korean.contains(#"<html lang="ko">"#), "\(korean)")
        let chosen = try await LanguageWebTests.page(web, "/keep", ["Accept-Language": "fr", "Cookie": "lang=en"])
        #expect(chosen.contains(#"<html lang="en">"#) && chosen.contains("Court PIN"), "\(chosen)")

        // The printed sheet too, made beside the gateway with no --language of its own.
        let sheet = daemon.directory.appendingPathComponent("sheet.html")
        let (status, made) = try ChildProcess.run(
            WebProcess.executable,
            [
                "codes", "sheet", "--state-dir", web.stateDirectory, "--command-endpoint", daemon.commandEndpoint, "--output",
                sheet.path,
            ], mergeError: true)
        #expect(status == 0, "\(made)")
        let printed = (try? String(contentsOf: sheet, encoding: .utf8)) ?? ""
        #expect(printed.contains(#"<html lang="ja">"#), "\(printed.prefix(300))")

        let own = try WebProcess(daemon, arguments: ["--language", "ko"])
        #expect(await own.waitInSync(), "\(own.log())")
        let flagged = try await LanguageWebTests.page(own, "/keep", ["Accept-Language": "fr"])
        #expect(flagged.contains(#"<html lang="ko">"#), "\(flagged)")
    }

    @Test("language: fr in the config: courtsided exits 78, naming the file, the key and the languages there are")
    func refused() throws {
        let (status, message, path) = try DaemonTests.start(
            config: """
                language: fr
                teams:
                  - { id: lions, name: Lions, players: [{id: ann, name: Ann}] }
                """)
        #expect(status == 78)
        #expect(message.contains("\(path): language: no catalog has \"fr\"; Courtside speaks en, ja, ko"), "\(message)")
    }
}
