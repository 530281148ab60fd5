import Foundation
import Testing

/// Each team's own page, the list of teams and their QR sheet, served by the real courtside-web
/// in front of the real courtsided over real sockets; and the page on a phone in real Chromium
/// (Tests/python/team_check.py, through selenium).
@Suite("Team pages", .serialized)
struct TeamPageWebTests {
    /// Two divisions of two teams, names in Japanese, Arabic and Korean (one with markup in it),
    /// two pool games for Lions, and an Open final whose slots wait for group A's table.
    static let cup = """
        tournament: Team Pages Cup
        courts: [Court 1, Court 2]
        teams:
          - { id: lions, name: Lions, players: [{id: ann, name: Ann}, {id: bo, name: Bo}, {id: cy, name: Cy}] }
          - { id: tigers, name: 東京タイガース・バスケットボールクラブ, players: [{id: di, name: Di}, {id: ed, name: Ed}, {id: flo, name: Flo}] }
          - { id: bears, name: الدببة الذهبية, players: [{id: gus, name: Gus}, {id: hal, name: Hal}, {id: ida, name: Ida}] }
          - { id: wolves, name: "늑대들 <W&W>", players: [{id: jo, name: Jo}, {id: kai, name: Kai}, {id: lu, name: Lu}] }
        divisions:
          - { id: open, name: Open, teams: [lions, tigers] }
          - { id: women, name: Women, teams: [bears, wolves] }
        groups:
          - { id: A, name: Group A, teams: [lions, tigers] }
          - { id: B, name: Group B, teams: [bears, wolves] }
        rounds:
          - name: Group stage
            games:
              - { id: g1, home: lions, away: tigers, court: Court 1, group: A, start: "10:00" }
              - { id: g2, home: bears, away: wolves, court: Court 2, group: B, start: "10:00" }
              - { id: g3, home: tigers, away: lions, court: Court 2, group: A, start: "10:30" }
          - name: Final
            games:
              - { id: final, home: { group: A, rank: 1 }, away: { group: A, rank: 2 }, court: Court 1, start: "11:00" }
        """

    @Test(
        "/teams/ID answers the team's games and follows a score the CLI records; an unknown id is 404; the sheet has a QR code a team"
    )
    func pages() async throws {
        let daemon = try DaemonProcess(tournament: Self.cup)
        let web = try WebProcess(daemon)
        #expect(await web.waitInSync(), "\(web.log())")
        let page = { (path: String) async throws -> (Int, String) in
            let (status, body) = try await web.get(path)
            return (status, String(decoding: body, as: UTF8.self))
        }

        let (status, lions) = try await page("/teams/lions")
        #expect(status == 200, "\(lions)")
        #expect(lions.contains(">Lions</h1>") && lions.contains(">Open</p>"), "the name and, with two divisions, the division")
        #expect(lions.contains("data-game=\"g1\"") && lions.contains("data-game=\"g3\""), "both pool games")
        #expect(!lions.contains("data-game=\"final\""), "the final's slots are not filled yet")
        #expect(lions.contains("東京タイガース・バスケットボールクラブ") && lions.contains("tr class=\"me\""))
        // Due at 10:00: expected then, or (the test runs later in the day) now, and late by as much.
        let clock = Calendar.current.dateComponents([.hour, .minute], from: Date())
        let late = (clock.hour ?? 0) * 60 + (clock.minute ?? 0) > 10 * 60
        #expect(lions.contains("<h2>Next game</h2>"))
        #expect(
            late
                ? lions.contains("min late: scheduled 10:00") : lions.contains("data-field=\"expected-start\">10:00<"),
            "\(lions)")
        #expect(!lions.contains("<span class=\"score\">"), "no game has started")

        // A basket recorded with the command line: the page has the new score.
        let cli = try courtsideCLI(daemon, ["score", "g1", "ann", "2"])
        #expect(cli.status == 0, "\(cli.output)")
        let scored = try await poll {
            try await page("/teams/lions").1
        } until: {
            $0.contains("<span class=\"score\">2 - 0</span>")
        }
        #expect(scored.contains("<span class=\"score\">2 - 0</span>") && scored.contains("<h2>Playing now</h2>"), "\(scored)")
        // The opponent sees it from its side.
        #expect(try await page("/teams/tigers").1.contains("<span class=\"score\">0 - 2</span>"))

        // Names are escaped; an id no team has is 404, as an impossible game id is.
        let wolves = try await page("/teams/wolves")
        #expect(wolves.0 == 200 && wolves.1.contains("늑대들 &lt;W&amp;W&gt;") && !wolves.1.contains("<W&W>"))
        for unknown in ["/teams/owls", "/teams/%zz", "/teams/lions%2Fx"] {
            let (code, body) = try await page(unknown)
            #expect(code == 404 && body.hasPrefix("no team has id"), "\(unknown): \(code) \(body)")
        }

        // Every team by division, each linking its page.
        let list = try await page("/teams")
        #expect(list.0 == 200)
        for team in ["lions", "tigers", "bears", "wolves"] { #expect(list.1.contains("href=\"/teams/\(team)\"")) }
        #expect(list.1.contains(">Open</h2>") && list.1.contains(">Women</h2>"))
        // The results link each team's name to its page.
        #expect(try await page("/results").1.contains("href=\"/teams/lions\""))

        // The sheet: one QR code a team, each holding its page's address.
        let sheet = try await page("/teams/sheet")
        #expect(sheet.0 == 200)
        #expect(sheet.1.components(separatedBy: "<svg").count - 1 == 4, "\(sheet.1.prefix(2000))")
        #expect(sheet.1.contains(">\(web.base)/teams/lions</p>"))
        let typed = try await page("/teams/sheet?base=http://192.168.1.20:8080")
        #expect(typed.1.contains(">http://192.168.1.20:8080/teams/bears</p>"))
        #expect(try await page("/teams/sheet?base=ftp://x").0 == 400)
    }

    @Test("a team's page on a phone in Chromium: the next game, no sideways scroll, 44 px links, 4.5:1 text, live")
    func phone() async throws {
        let daemon = try DaemonProcess(tournament: Self.cup)
        let web = try WebProcess(daemon)
        #expect(await web.waitInSync(), "\(web.log())")
        // Screenshots land next to the build, for a person to look at after the run.
        let shots = DaemonProcess.executable.deletingLastPathComponent().appendingPathComponent("team-screenshots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("python/team_check.py")
        let check = try ChildProcess(
            "/usr/bin/python3",
            [
                script.path, "--web", web.base, "--command", daemon.commandEndpoint, "--team", "lions", "--game", "g1",
                "--player", "ann", "--shots", shots.path,
            ], output: .capture, error: .capture)
        let output = await check.output(within: 120)
        print(output)
        #expect(await check.exited(within: 10) == 0, "\(output)\n\(web.log().suffix(3000))")
        #expect(output.contains(" passed, 0 failed"), "\(output)")
    }
}
