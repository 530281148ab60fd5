import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import Foundation
import Testing

/// The desk's Setup page in courtside-web against the real daemon, waiting for its draw: a
/// form reviewed, then published as one `publish_draw`.
@Suite("the desk's Setup page", .serialized, .timeLimit(.minutes(4)))
struct DeskSetupTests {
    static let csv = PlannedEventTests.repository.appendingPathComponent("config/teams.csv")

    /// The daemon waiting for its draw, and courtside-web with the desk on, in sync.
    static func waiting() async throws -> (DaemonProcess, WebProcess) {
        let daemon = try DaemonProcess(tournament: "tournament: Courtside Summer 3x3\n")
        let web = try WebProcess(
            daemon, arguments: ["--desk-passphrase-file", try DeskTests.passphraseFile(in: daemon.directory)])
        #expect(await web.waitInSync(), "\(web.log())")
        return (daemon, web)
    }

    /// The form as the page starts (config/event.yaml's values), config/teams.csv pasted.
    static func form(csv: String, _ changes: [String: String] = [:]) -> [(String, String)] {
        var fields: [String: String] = [
            "tournament": "Courtside Summer 3x3", "start": "09:00", "end": "17:00",
            "courts": "Court 1\nCourt 2\nCourt 3\nCourt 4",
            "game_minutes": "10", "changeover_minutes": "4", "rest_minutes": "20", "rules": "fiba3x3",
            "tie_breakers": "head_to_head, average_points_scored, seed", "seed": "", "csv": csv,
            "division-0-id": "open", "division-0-name": "Open", "division-0-format": "pools_knockout", "division-0-pools": "4",
            "division-0-qualifiers": "2", "division-0-best_of_next": "0", "division-0-third_place": "true",
            "division-0-legs": "1", "division-1-id": "women", "division-1-name": "Women",
            "division-1-format": "pools_knockout", "division-1-pools": "2", "division-1-qualifiers": "2",
            "division-1-best_of_next": "0", "division-1-legs": "1", "division-2-format": "round_robin",
        ]
        fields.merge(changes) { _, new in new }
        return fields.sorted { $0.key < $1.key }
    }

    @Test(
        "review, then confirm: one publish_draw, 47 games; confirmed twice, published once; an unknown token, another site and no session refused; a redraw after a game started is refused in words"
    )
    func publish() async throws {
        let (daemon, web) = try await Self.waiting()
        let desk = Phone(web.base)
        let csv = try String(contentsOf: Self.csv, encoding: .utf8)
        #expect(try await DeskTests.getHTML(desk, "/desk/setup").0 == 401, "signed in first")
        _ = try await DeskTests.post(desk, "/desk/login", [("passphrase", DeskTests.passphrase)])

        let (status, page) = try await DeskTests.getHTML(desk, "/desk/setup")
        #expect(status == 200 && page.contains(#"id="setup-form""#) && page.contains(#"value="Courtside Summer 3x3""#))
        #expect(try await DeskTests.getHTML(desk, "/desk").1.contains(#"<a href="/desk/setup">Setup</a>"#))

        // Another site's review and confirmation are refused.
        for path in ["/desk/setup/review", "/desk/setup/confirm"] {
            let forged = try await DeskTests.post(desk, path, [("token", "x")], headers: ["Origin": "http://evil.example"])
            #expect(forged.status == 403 && forged.json.code == "forbidden", "\(path)")
        }

        // A bad form: shown again with its inputs and the problem; nothing sent.
        let (_, short) = try await DeskTests.postHTML(desk, "/desk/setup/review", Self.form(csv: csv, ["end": "10:30"]))
        #expect(
            short.contains(#"role="alert""#) && short.contains("47 games do not fit on 4 courts by 10:30: they need ")
                && !short.contains("does_not_fit") && short.contains("Harbour Hawks"), "\(short.prefix(800))")

        let (_, preview) = try await DeskTests.postHTML(desk, "/desk/setup/review", Self.form(csv: csv))
        #expect(
            preview.contains("Publish the draw of Open and Women: 24 teams, 47 games on 4 courts, 09:00 to "),
            "\(preview.prefix(800))")
        #expect(preview.components(separatedBy: "<svg").count - 1 == 2, "a knockout per division")
        #expect(preview.contains(#"id="setup-grid""#))
        let token = try #require(DeskTests.hiddenFields(preview).first { $0.0 == "token" }?.1)
        let client = CommandClient(endpoint: daemon.commandEndpoint, clientID: "checker", timeoutMilliseconds: 8000)
        #expect(try client.command(.schedule).bracket?.isEmpty == true, "nothing sent before the confirmation")

        for _ in 0..<2 {
            let (_, done) = try await DeskTests.postHTML(desk, "/desk/setup/confirm", [("token", token), ("reason", "the draw")])
            #expect(done.contains("Published: 47 games. The schedule and every screen follow now."), "\(done.prefix(800))")
        }
        #expect(try client.command(.schedule).bracket?.count == 47)
        let log = try PublishDrawTests.changes(client)
        #expect(log.count == 1, "published once: \(log.count)")
        if case .tournamentChanged(.drawPublished(let draw), let reason) = log.first?.kind {
            #expect(reason == "the draw" && draw.event?.contains("# open,\"Harbour Hawks\"") == true)
            #expect(log.first?.origin.clientID.hasPrefix("organiser/desk-") == true, "\(String(describing: log.first?.origin))")
        } else {
            Issue.record("the change is not a draw: \(String(describing: log.first))")
        }

        // An unknown (or expired) token: refused in words, nothing sent.
        let (gone, form) = try await DeskTests.postHTML(desk, "/desk/setup/confirm", [("token", "not-a-draft")])
        #expect(gone == 410 && form.contains("That preview is no longer kept"), "\(gone)")

        // A game starts; a redraw of its division is refused with the daemon's words.
        try client.command(.clock(game: "open-A-1", command: .startClock))
        let (_, again) = try await DeskTests.postHTML(
            desk, "/desk/setup/review", Self.form(csv: csv, ["division-0-pools": "2", "division-0-qualifiers": "4"]))
        let second = try #require(DeskTests.hiddenFields(again).first { $0.0 == "token" }?.1)
        let (_, refused) = try await DeskTests.postHTML(desk, "/desk/setup/confirm", [("token", second)])
        #expect(
            refused.contains("Not published: A division of this draw has a game under way")
                && refused.contains(#"role="alert""#), "\(refused.prefix(800))")
        #expect(try PublishDrawTests.changes(client).count == 1)
    }

    @Test(
        "in Chromium at 1366x768: sign in, paste config/teams.csv, review (a knockout per division, the grid), publish; nothing to scroll sideways, targets 44 px"
    )
    func browser() async throws {
        let (daemon, web) = try await Self.waiting()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("python/setup_check.py")
        var environment = ProcessInfo.processInfo.environment
        if environment["COURTSIDE_SCREENSHOTS"] == nil {
            // Beside the build, for a person to look at after the run.
            environment["COURTSIDE_SCREENSHOTS"] =
                DaemonProcess.executable.deletingLastPathComponent().appendingPathComponent("desk-screenshots").path
        }
        let check = try ChildProcess(
            "/usr/bin/python3",
            [script.path, "--web", web.base, "--passphrase", DeskTests.passphrase, "--csv", Self.csv.path],
            environment: environment, output: .capture, error: .capture)
        let output = await check.output(within: 180)
        #expect(await check.exited(within: 10) == 0, "\(output)")
        #expect(output.contains(" passed, 0 failed"), "\(output)")
        let client = CommandClient(endpoint: daemon.commandEndpoint, clientID: "checker", timeoutMilliseconds: 8000)
        #expect(try client.command(.schedule).bracket?.count == 47)
        #expect(try PublishDrawTests.changes(client).count == 1)
    }
}
