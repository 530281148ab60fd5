import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import CourtsideTerminal
import CourtsideViewModels
import Foundation
import Testing

/// One game state shown by every view that shows it: the terminal board and the big screen,
/// the court TV and the keeper page (both bound to the game's view model, encoded whole), the
/// schedule of `courtside schedule`, and a team's page. Each says the same words for it.
@Suite("One state, one word in every view")
struct OneStateEveryViewTests {
    /// Lions 2 - 0 Tigers with the clock never started, 3 team fouls under FIBA 3x3's tiers.
    static var game: Game {
        var table = Table()
        table.game = Game(
            setup: GameSetup(id: "g1", home: Table.home, away: Table.away, rules: RulePresets.fiba3x3, court: "Court 1"))
        table.record(.move(player: "ann", move: .twoPoints))
        for _ in 0..<3 { table.record(.move(player: "di", move: .foul)) }
        return table.game
    }

    static let entry = BracketEntry(
        game: "g1", round: "Pools", group: nil, court: "Court 1", start: "10:00", home: .team("lions"), away: .team("tigers"),
        homeTeam: "lions", awayTeam: "tigers", state: .live, score: SideValues(home: 2, away: 0), winner: nil)

    @Test("points on the board with the clock stopped: IN PLAY everywhere, never SCHEDULED or a bracket state")
    func inPlay() throws {
        let game = Self.game
        let view = GameViewModel(GameState(game), now: Timestamp(milliseconds: 0), lastPlays: 3)
        #expect(view.statusLabel == "IN PLAY" && view.statusText == "IN PLAY")
        // The court TV and the keeper page bind the view model's JSON: the words travel whole.
        let json = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(view)) as? [String: Any])
        #expect(json["statusText"] as? String == "IN PLAY" && json["statusLabel"] as? String == "IN PLAY")
        // The terminal's board and big screen.
        let status = SyncStatus(endpoint: "tcp://x", isStale: false, lastResync: nil, resyncs: 0)
        #expect(Screens.board(view, status: status).contains { $0.contains("IN PLAY") })
        #expect(view.summary.hasSuffix("IN PLAY"))
        // `courtside schedule`.
        let schedule = TournamentTables.schedule([Self.entry], games: ["g1": game], teamNames: [:])
        #expect(schedule.contains { $0.hasSuffix("IN PLAY") }, "\(schedule)")
        #expect(!schedule.contains { $0.hasSuffix("live") || $0.contains("SCHEDULED") })
        // A team's page says the game's own word where it is under way.
        let page = TeamPage(team: "lions", games: ["g1": game], bracket: [Self.entry], standings: [])
        #expect(page?.games.first?.outcomeText == "IN PLAY", "\(String(describing: page?.games.first))")
    }

    @Test("the fouls: the same words on the board, the court TV and the keeper page")
    func fouls() throws {
        let view = GameViewModel(GameState(Self.game), now: Timestamp(milliseconds: 0), lastPlays: 0)
        let board = view.away.board
        let line = try #require(board.foulsLine)
        #expect(board.foulsText == line, "the keeper page shows the line itself")
        let status = SyncStatus(endpoint: "tcp://x", isStale: false, lastResync: nil, resyncs: 0)
        #expect(Screens.board(view, status: status).contains { $0.contains(line) }, "the terminal board shows it too")
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(view)) as? [String: Any])
        let away = try #require(json["away"] as? [String: Any])
        #expect((away["board"] as? [String: Any])?["foulsText"] as? String == line)
    }
}
