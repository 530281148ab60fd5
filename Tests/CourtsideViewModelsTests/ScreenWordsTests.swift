import CourtsideFormats
import CourtsideLocalization
import CourtsideModel
import CourtsideViewModels
import Testing

/// The view models of the team pages and the knockout's picture word everything in the page's
/// language: Japanese and Korean with no English left, English as before.
@Suite("the team pages' and the knockout's words in Japanese and Korean")
struct ScreenWordsTests {
    static let (ja, ko) = (Words.of(Language(tag: "ja")!), Words.of(Language(tag: "ko")!))

    static func page(_ words: Words) throws -> TeamPage {
        try #require(
            TeamPage(
                team: "lions", teams: Cup.teams, games: Cup.games, bracket: Cup.bracket,
                standings: Cup.standings.map {
                    var table = $0; table.complete = true; return table
                }, words: words))
    }

    @Test("a team's page in Japanese and in Korean: headings, outcomes, the opponent, the table's columns")
    func teamPage() throws {
        let japanese = try Self.page(Self.ja)
        #expect(japanese.lang == "ja" && japanese.allTeamsText == "全チーム" && japanese.gamesHeading == "試合")
        #expect(japanese.next?.heading == "次の試合" && japanese.next?.followText == "試合を見る")
        #expect(
            japanese.games[0].outcome == "勝" && japanese.games[0].outcomeText == "勝ち" && japanese.games[0].opponent == "対 Tigers")
        #expect(japanese.games[1].outcomeText == "試合前" && japanese.pools[0].title == "Group A（確定）")
        #expect(japanese.columns.team == "チーム" && japanese.columns.difference == "得失点差")
        let korean = try Self.page(Self.ko)
        #expect(korean.lang == "ko" && korean.next?.heading == "다음 경기" && korean.games[0].outcome == "승")
        #expect(korean.games[2].opponent == "상대 ذئاب" && korean.next?.court == "Court 1")
        #expect(korean.columns.won == "승" && korean.columns.lost == "패" && korean.pools[0].title == "Group A (확정)")
        let english = try Self.page(.english)
        #expect(english.next?.heading == "Next game" && english.games[0].outcome == "W" && english.columns.won == "W")
        #expect(english.pools[0].title == "Group A (final)" && english.games[0].opponent == "v Tigers")
        for text in [japanese, korean].flatMap({ [$0.title, $0.allTeamsText, $0.poolHeading, $0.noNextText] }) {
            for word in ["All teams", "Pool", "Games", "No more", "No games"] { #expect(!text.contains(word), "\(text)") }
        }
    }

    @Test("the list of teams and its sheet in Korean")
    func teamList() {
        let list = TeamList(teams: Cup.teams, games: [:], standings: [], words: Self.ko)
        #expect(list.heading == "팀 목록" && list.sheetText == "QR 코드 시트 인쇄" && list.lang == "ko")
        let sheet = TeamSheet(list, baseURL: "http://venue", words: Self.ko)
        #expect(sheet.lang == "ko" && sheet.title == "팀 페이지 · Courtside" && !sheet.lead.contains("Scan"))
    }

    @Test("the knockout in Japanese: its title, summary, slots and tooltips; a wide name cut to fit its box")
    func bracket() throws {
        let bracket = [
            Cup.entry("sf", .winner(of: "g1"), .loser(of: "g2"), start: "11:00", group: nil, round: "準決勝"),
            Cup.entry(
                "f", .winner(of: "sf"), .bestOfRank(rank: 3, place: 2, groups: ["A", "B"]), start: "12:00", group: nil,
                round: "決勝"),
        ]
        let picture = try #require(BracketPicture.pictures(bracket, teamNames: [:], words: Self.ja).first)
        #expect(picture.title == "決勝トーナメント" && picture.summary == "決勝トーナメント: 3チーム、決勝 12:00", "\(picture.summary)")
        let lines = picture.boxes.flatMap { [$0.home.text, $0.away.text] }
        #expect(lines.contains("g1の勝者") && lines.contains("g2の敗者") && lines.contains("3位の2番手"), "\(lines)")
        #expect(picture.boxes.allSatisfy { $0.tooltip.contains(" 対 ") }, "\(picture.boxes.map(\.tooltip))")
        let english = try #require(BracketPicture.pictures(bracket, teamNames: [:]).first)
        #expect(
            english.summary == "Knockout: 3 teams, final at 12:00" && english.boxes.contains { $0.away.text == "2nd best third" })
        // Twelve kana are 24 columns wide: cut to 19 and an ellipsis; twelve Latin letters fit.
        let long = String(repeating: "タ", count: 12)
        #expect(BracketPicture.words(.team("t"), teamNames: ["t": long]) == long)
        let named = try #require(
            BracketPicture.pictures(
                [Cup.entry("f", .team("t"), .winner(of: "g1"), start: nil, group: nil)], teamNames: ["t": long]
            ).first)
        let cut = try #require(named.boxes.first?.home.text)
        #expect(cut.hasSuffix("…") && cut.count == 10, "\(cut)")
    }
}
