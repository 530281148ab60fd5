import CourtsideClient
import CourtsideLocalization
import CourtsideModel
import CourtsideViewModels
import Foundation
import Testing

@testable import CourtsideWeb

/// The big screen, the overlay, the box score, the results (with the knockout's picture) and the
/// team pages in Japanese and Korean, each rendered through its `Pages` function: every word from
/// the catalog, none of the English of the keys these screens took from it left.
@Suite("The venue's screens in Japanese and Korean")
struct ScreensLanguageTests {
    static let (ja, ko) = (Words.of(Language(tag: "ja")!), Words.of(Language(tag: "ko")!))

    static func team(_ id: String, _ name: String, _ player: String) -> Team {
        Team(id: TeamID(id), name: name, players: [Player(id: PlayerID(player), name: player)])
    }
    // Names in Japanese, Korean, Arabic (right to left) and with an emoji; courts and rounds in Japanese.
    static let (lions, tigers) = (team("lions", "ライオンズ", "杏"), team("tigers", "호랑이", "디"))
    static let falcons = team("falcons", "الصقور 🦅", "سارة")

    /// g1 (ライオンズ v 호랑이, a basket made) in group A, whose table is final; a final of group
    /// A's first against the winner of g2, a game not created yet.
    static var view: LiveTournament.View {
        var view = LiveTournament.View()
        view.inSync = true
        view.teams = [lions, tigers, falcons]
        var game = Game(setup: GameSetup(id: "g1", home: lions, away: tigers, court: "第1コート"))
        game.apply(
            GameEvent(
                gameID: "g1", version: 1, at: Timestamp(milliseconds: 1_000),
                origin: CommandOrigin(clientID: "t", commandID: "1"),
                kind: .move(player: "杏", move: .twoPoints)))
        view.games["g1"] = game
        var rows = [lions, tigers].map { StandingRow(team: $0.id, name: $0.name) }
        (rows[0].rank, rows[1].rank) = (1, 2)
        view.standings = [GroupStandings(group: "A", name: "A", rows: rows, complete: true)]
        view.bracket = [
            BracketEntry(
                game: "g1", round: "予選", group: "A", court: "第1コート", start: "10:00", home: .team("lions"),
                away: .team("tigers"), homeTeam: "lions", awayTeam: "tigers", state: .live, score: nil, winner: nil),
            BracketEntry(
                game: "g2", round: "予選", group: nil, court: "第2コート", start: "10:30", home: .team("falcons"),
                away: .team("tigers"), homeTeam: "falcons", awayTeam: "tigers", state: .ready, score: nil, winner: nil),
            BracketEntry(
                game: "g9", round: "決勝", group: nil, court: "第1コート", start: "18:00", home: .groupRank(group: "A", rank: 1),
                away: .winner(of: "g2"), homeTeam: nil, awayTeam: nil, state: .pending, score: nil, winner: nil),
        ]
        return view
    }

    /// Every screen of `words`' language, each named.
    static func screens(_ words: Words) throws -> [(String, String)] {
        let view = Self.view
        return [
            ("big screen", Pages.allGames(view, words: words)), ("overlay", Pages.overlay(view, game: "g1", words: words)),
            ("box score", Pages.box(view, game: "g1", words: words)), ("no box yet", Pages.box(view, game: "g7", words: words)),
            ("results", Pages.results(view, words: words)), ("team", try #require(Pages.team(view, team: "lions", words: words))),
            ("teams", Pages.teams(view, words: words)),
            ("sheet", try Pages.teamSheet(view, baseURL: "http://venue", words: words)),
        ]
    }

    /// The keys these screens took from the catalog.
    static let moved = MessageKey.allCases.filter { key in
        ["all.", "column.", "overlay.", "box.", "results.", "table.", "bracket.", "team.", "teams.", "status.not"].contains {
            key.rawValue.hasPrefix($0)
        }
    }

    /// The English of `key` that a page could show: each run of its text between placeholders
    /// of four characters or more, less those `words`' own text for it has too ("Courtside").
    static func english(_ key: MessageKey, besides words: Words) -> [String] {
        let text = Words.english.plural(key, count: 2)
        let own = words.plural(key, count: 2)
        return text.split(separator: "{").flatMap { $0.split(separator: "}") }.map(String.init)
            .filter { !text.contains("{\($0)}") && $0.trimmingCharacters(in: .whitespaces).count >= 4 && !own.contains($0) }
    }

    @Test("each screen in Japanese and in Korean has its language and none of the English of the keys it moved")
    func noEnglishLeft() throws {
        for words in [Self.ja, Self.ko] {
            for (screen, page) in try Self.screens(words) {
                // The product's name is every language's: its "Court" is no English left.
                let html = page.replacingOccurrences(of: "Courtside", with: "⟨app⟩")
                #expect(html.contains(#"<html lang="\#(words.language.code)">"#), "\(screen) in \(words.language)")
                for key in Self.moved {
                    for english in Self.english(key, besides: words).map({
                        $0.replacingOccurrences(of: "Courtside", with: "⟨app⟩")
                    }) {
                        #expect(
                            !html.contains(english), "\(screen) in \(words.language) shows \(english) (\(key.rawValue))\n\(html)")
                    }
                }
                for english in [
                    "reconnecting", ">Game<", ">Court<", ">Team<", ">W<", ">L<", ">PTS<", ">AST<", "(final)", "SCHEDULED", "LIVE",
                ] {
                    #expect(!html.contains(english), "\(screen) in \(words.language) shows \(english)")
                }
            }
        }
    }

    @Test(
        "the screens in Japanese: the big screen, the overlay's title, the box score, the results' tables and knockout, a team's page"
    )
    func japanese() throws {
        let pages = Dictionary(uniqueKeysWithValues: try Self.screens(Self.ja))
        let all = try #require(pages["big screen"])
        #expect(all.contains("<h1>全試合</h1>") && all.contains("<th>スコア</th>") && all.contains("<h2>各コートの状況</h2>"), "\(all)")
        #expect(all.contains(#"<td class="status">試合中</td>"#) && all.contains(#"-title" dir="auto">決勝トーナメント</figcaption>"#))
        #expect(
            all.contains(#"<td class="name" dir="auto">ライオンズ</td>"#)
                && all.contains(#"<div id="banner" role="status">再接続中…</div>"#))
        #expect(try #require(pages["overlay"]).contains("<title>Courtside オーバーレイ: g1</title>"))
        #expect(try #require(pages["overlay"]).contains(#"<span class="name" dir="auto" data-field="away">호랑이</span>"#))
        let box = try #require(pages["box score"])
        #expect(box.contains("<h1>g1 ボックススコア</h1>") && box.contains("<th>選手</th>") && box.contains("<th>得点</th>"), "\(box)")
        #expect(box.contains(#"<td class="name" dir="auto">杏</td>"#))
        #expect(try #require(pages["no box yet"]).contains("この試合はまだありません。"))
        let results = try #require(pages["results"])
        #expect(
            results.contains("<h1>試合日程</h1>") && results.contains("<th>得失点差</th>") && results.contains(">A（確定）</h2>"),
            "\(results)")
        // A game not created waits for its teams; the knockout's slot in the picture's words.
        #expect(results.contains("<td>チーム決定待ち</td>") && results.contains("<td>準備中</td>") && results.contains("g2の勝者"))
        #expect(results.contains("決勝トーナメント: 3チーム、決勝 18:00"))
        let team = try #require(pages["team"])
        #expect(
            team.contains("<h2>試合中</h2>") && team.contains("全チーム") && team.contains("対 호랑이") && team.contains("<th>順位</th>"),
            "\(team)")
        #expect(try #require(pages["teams"]).contains("<h1>チーム一覧</h1>"))
        // A phone's pages carry the picker, which brings it back to the same page.
        #expect(team.contains(#"<input type="hidden" name="back" value="/teams/lions">"#) && team.contains(">言語</span>"))
        #expect(results.contains(#"name="back" value="/results""#) && pages["teams"]?.contains(#"value="/teams""#) == true)
        #expect(try #require(pages["sheet"]).contains("このチームの試合・結果・次の試合"))
    }

    @Test("the screens in Korean, and in English as before")
    func korean() throws {
        let pages = Dictionary(uniqueKeysWithValues: try Self.screens(Self.ko))
        #expect(try #require(pages["big screen"]).contains("<h1>전체 경기</h1>"))
        #expect(try #require(pages["overlay"]).contains("<title>Courtside 오버레이: g1</title>"))
        #expect(try #require(pages["box score"]).contains("<th>어시스트</th>"))
        #expect(try #require(pages["results"]).contains("<th>득실차</th>") && pages["results"]?.contains("A (확정)") == true)
        #expect(try #require(pages["team"]).contains("상대 호랑이"))
        #expect(try #require(pages["teams"]).contains("QR 코드 시트 인쇄"))

        let english = Dictionary(uniqueKeysWithValues: try Self.screens(.english))
        #expect(
            try #require(english["big screen"]).contains("<h1>Every game</h1>")
                && english["big screen"]?.contains(#"<html lang="en">"#) == true)
        #expect(try #require(english["overlay"]).contains("<title>Courtside overlay: g1</title>"))
        #expect(
            try #require(english["box score"]).contains("<h1>g1 box score</h1>")
                && english["box score"]?.contains("<th>PTS</th>") == true)
        #expect(
            try #require(english["results"]).contains("<h1>Schedule</h1>")
                && english["results"]?.contains(">A (final)</h2>") == true)
        #expect(try #require(english["team"]).contains("<h2>Playing now</h2>"))
    }

    @Test("the teams list in the language's collation: Korean names first in Korean, Japanese ones first in Japanese")
    func collation() {
        let order = { (words: Words) in
            Pages.teams(Self.view, words: words).components(separatedBy: "data-team=\"").dropFirst().map {
                $0.prefix { $0 != "\"" }
            }
        }
        #expect(order(Self.ko) == ["tigers", "falcons", "lions"], "\(order(Self.ko))")
        #expect(order(Self.ja) == ["lions", "falcons", "tigers"], "\(order(Self.ja))")
    }
}
