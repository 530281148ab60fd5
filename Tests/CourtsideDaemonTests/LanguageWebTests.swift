import CourtsideModel
import CourtsideProtocol
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// courtside-web's languages over the real daemon: the venue's `--language`, a browser's
/// `Accept-Language`, a device's cookie and `?lang=`, on the join page, the court TV and the
/// event stream its script follows.
@Suite("courtside-web in the venue's and each device's language", .serialized)
struct LanguageWebTests {
    /// GET `path` with `headers`: the body as text.
    static func page(_ web: WebProcess, _ path: String, _ headers: [String: String] = [:]) async throws -> String {
        var request = URLRequest(url: URL(string: web.base + path)!)
        request.timeoutInterval = 5
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, _) = try await URLSession.shared.data(for: request)
        return String(decoding: data, as: UTF8.self)
    }

    @Test("--language names a language no catalog has: refused at start, naming those there are")
    func refused() throws {
        let (status, output) = try ChildProcess.run(WebProcess.executable, ["--language", "fr"], mergeError: true)
        #expect(status == 64 && output.contains("--language fr: no catalog has it; Courtside speaks en, ja, ko"), "\(output)")
    }

    @Test(
        "a venue in Korean: a French browser gets Korean, a Japanese one Japanese; a device's cookie and ?lang over both; the stream too"
    )
    func venue() async throws {
        let daemon = try DaemonProcess(schedule: WebTests.tieredGames)
        let web = try WebProcess(daemon, arguments: ["--language", "ko"])
        #expect(await web.waitInSync(), "\(web.log())")
        let keeper = try Keeper(daemon.commandEndpoint)
        #expect(try keeper.send(.move(game: "g1", player: "bo", move: .foul)).ok)
        // A browser asking only for languages no catalog has gets the venue's.
        let fouls = await poll {
            try? await Self.page(web, "/games/g1", ["Accept-Language": "fr-FR, de;q=0.5"])
        } until: {
            $0?.contains(#"data-field="fouls-home-count">1<"#) == true
        }
        let korean = try #require(fouls)
        // A move made, the clock never started: "IN PLAY".
        #expect(korean.contains(#"<html lang="ko">"#) && korean.contains(#"data-field="status">경기 중<"#), "\(korean)")
        #expect(korean.contains(#"data-field="fouls-home-tier">보너스 없음<"#) && korean.contains("<h2>최근 플레이</h2>"))
        #expect(korean.contains(#"<span class="what">파울</span>"#))

        let japanese = try await Self.page(web, "/games/g1", ["Accept-Language": "ja,en;q=0.5"])
        #expect(japanese.contains(#"<html lang="ja">"#) && japanese.contains("<h2>最近のプレー</h2>"), "\(japanese)")
        #expect(japanese.contains(#"<span class="what">ファウル</span>"#) && japanese.contains("ボーナスなし"))

        let join = try await Self.page(web, "/keep", ["Accept-Language": "ja"])
        #expect(join.contains(#"<html lang="ja">"#) && join.contains("コートのPIN"), "\(join)")
        let chosen = try await Self.page(web, "/keep", ["Accept-Language": "ja", "Cookie": "lang=en"])
        #expect(chosen.contains(#"<html lang="en">"#) && chosen.contains("Court PIN"))
        let tv = try await Self.page(web, "/games/g1?lang=en", ["Cookie": "lang=ja"])
        #expect(tv.contains(#"<html lang="en">"#) && tv.contains("<h2>last plays</h2>"))

        // The stream the TV's script follows speaks the page's language: the state, then each event.
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("python/web_events.py")
        let reader = try ChildProcess(
            "/usr/bin/python3", [script.path, web.base + "/api/events?lang=ja", "1", "60"], output: .capture)
        // Its first line is the state: from then on every event reaches it (within 60 s on a busy machine).
        let stateLine = try #require(await reader.line(within: 60), "the reader had no state")
        #expect(try keeper.send(.move(game: "g1", player: "di", move: .rebound)).ok)
        struct Line: Decodable {
            struct View: Decodable { var statusLabel: String }
            struct Game: Decodable {
                var game: String
                var view: View
            }
            struct Body: Decodable {
                var view: View?
                var games: [Game]?
            }
            var event: String
            var data: Body
        }
        let lines = (stateLine + "\n" + (await reader.output(within: 60))).split(separator: "\n").compactMap {
            try? JSONDecoder().decode(Line.self, from: Data($0.utf8))
        }
        let state = try #require(lines.first { $0.event == "state" })
        let views = Dictionary(uniqueKeysWithValues: (state.data.games ?? []).map { ($0.game, $0.view.statusLabel) })
        #expect(views == ["g1": "試合中", "g2": "試合前"], "\(state)")
        let event = try #require(lines.first { $0.event == "event" })
        #expect(event.data.view?.statusLabel == "試合中", "\(event)")
    }

    @Test(
        "?lang=ko on the overlay, the big screen, the results, a team's page and the box score: each in Korean, its English gone")
    func screens() async throws {
        let daemon = try DaemonProcess(tournament: TeamPageWebTests.cup)
        let web = try WebProcess(daemon)
        #expect(await web.waitInSync(), "\(web.log())")
        let keeper = try Keeper(daemon.commandEndpoint)
        #expect(try keeper.send(.move(game: "g1", player: "ann", move: .twoPoints)).ok)
        // The browser asks for English: ?lang wins, as a TV or a stream's source set up once.
        let english = ["Accept-Language": "en"]
        let overlay = try await Self.page(web, "/overlay/g1?lang=ko", english)
        #expect(overlay.contains(#"<html lang="ko">"#) && overlay.contains("<title>Courtside 오버레이: g1</title>"), "\(overlay)")
        #expect(overlay.contains(#"<span class="name" dir="auto" data-field="away">東京タイガース・バスケットボールクラブ</span>"#))
        #expect(!overlay.contains("Courtside overlay") && !overlay.contains("reconnecting"))

        let all = try await Self.page(web, "/?lang=ko", english)
        #expect(all.contains(#"<html lang="ko">"#) && all.contains("<h1>전체 경기</h1>") && all.contains("<h2>코트별 현황</h2>"), "\(all)")
        #expect(all.contains("Open 토너먼트") && !all.contains("Every game") && !all.contains("knockout<"))

        let results = try await Self.page(web, "/results?lang=ko", english)
        #expect(
            results.contains("<h1>경기 일정</h1>") && results.contains("<th>득실차</th>") && results.contains("<td>경기 중</td>"),
            "\(results)")
        #expect(!results.contains("Schedule") && !results.contains("<th>Team</th>"))

        // Team pages come once the gateway has read the tournament; the move above made g1 live.
        let team = await poll {
            try? await Self.page(web, "/teams/lions?lang=ko", english)
        } until: {
            $0?.contains("<h2>경기 중</h2>") == true
        }
        let lions = try #require(team)
        #expect(lions.contains("전체 팀") && lions.contains("상대 東京タイガース") && lions.contains("<th>순위</th>"), "\(lions)")
        #expect(!lions.contains("Playing now") && !lions.contains("All teams"))

        let box = try await Self.page(web, "/games/g1/box?lang=ko", english)
        #expect(box.contains("<h1>g1 박스 스코어</h1>") && box.contains("<th>선수</th>") && box.contains("<th>득점</th>"), "\(box)")
        #expect(!box.contains("box score") && !box.contains("<th>Player</th>"))
    }

    /// Teams named in Japanese, Korean and Arabic, with emoji, and players likewise.
    static let scripts = """
        tournament: 名前の大会
        courts: [第1コート, 第2コート]
        teams:
          - { id: lions, name: "🦁 東京ライオンズ・バスケットボールクラブ", players: [{id: ann, name: 佐藤花子}, {id: bo, name: "سارة 🏀"}, {id: cy, name: Cy}] }
          - { id: tigers, name: "서울 호랑이 농구단 🐯", players: [{id: di, name: 김민준}, {id: ed, name: Ed}, {id: flo, name: Flo}] }
          - { id: falcons, name: الصقور الذهبية, players: [{id: gus, name: غسان}, {id: hal, name: Hal}, {id: ida, name: Ida}] }
          - { id: wolves, name: "Wölfe 🐺", players: [{id: jo, name: Jo}, {id: kai, name: Kai}, {id: lu, name: Lu}] }
        rounds:
          - name: 予選
            games:
              - { id: g1, home: lions, away: tigers, court: 第1コート, start: "10:00" }
              - { id: g2, home: falcons, away: wolves, court: 第2コート, start: "10:00" }
        """

    @Test(
        "in Chromium: Japanese, Korean and Arabic names with emoji on the court TV, the overlay and the big screen, whole, in their box, not overlapping"
    )
    func names() async throws {
        let daemon = try DaemonProcess(tournament: Self.scripts)
        let web = try WebProcess(daemon)
        #expect(await web.waitInSync(), "\(web.log())")
        let keeper = try Keeper(daemon.commandEndpoint)
        for (player, game) in [("bo", "g1"), ("gus", "g2")] {
            #expect(try keeper.send(.move(game: GameID(game), player: PlayerID(player), move: .twoPoints)).ok)
        }
        let shots = DaemonProcess.executable.deletingLastPathComponent().appendingPathComponent("names-screenshots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("python/names_check.py")
        let check = try ChildProcess(
            "/usr/bin/python3",
            [
                script.path, "--web", web.base, "--game", "g1", "--lang", "ko", "--shots", shots.path, "--names",
                "🦁 東京ライオンズ・バスケットボールクラブ", "서울 호랑이 농구단 🐯",
            ], output: .capture, error: .capture)
        let output = await check.output(within: 120)
        print(output)
        #expect(await check.exited(within: 10) == 0, "\(output)\n\(web.log().suffix(3000))")
        #expect(output.contains(" passed, 0 failed"), "\(output)")
    }
}
