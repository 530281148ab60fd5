import CourtsideLocalization
import CourtsideModel
import CourtsideViewModels
import Testing

@Suite("a court's games for its keeper")
struct CourtLineupTests {
    static func team(_ id: String, _ name: String) -> Team {
        Team(id: TeamID(id), name: name, players: [Player(id: PlayerID("\(id)-p"), name: "P")])
    }

    static func entry(_ game: String, court: String, home: Slot, away: Slot) -> BracketEntry {
        BracketEntry(
            game: GameID(game), round: nil, group: nil, court: court, start: nil, home: home, away: away, homeTeam: nil,
            awayTeam: nil, state: .pending, score: nil, winner: nil)
    }

    @Test(
        "in the schedule's order, opening on the first game not final; a game still waiting for its teams is named by its slots")
    func order() {
        let lions = Self.team("lions", "Lions")
        let tigers = Self.team("tigers", "Tigers")
        var g1 = Game(setup: GameSetup(id: "g1", home: lions, away: tigers, court: "Court 1"))
        let g3 = Game(setup: GameSetup(id: "g3", home: tigers, away: lions, court: "Court 1"))
        let elsewhere = Game(setup: GameSetup(id: "g2", home: lions, away: tigers, court: "Court 2"))
        let bracket = [
            Self.entry("g1", court: "Court 1", home: .team("lions"), away: .team("tigers")),
            Self.entry("g2", court: "Court 2", home: .team("lions"), away: .team("tigers")),
            Self.entry("final", court: "Court 1", home: .winner(of: "g1"), away: .groupRank(group: "B", rank: 1)),
        ]
        var games: [GameID: Game] = ["g1": g1, "g2": elsewhere, "g3": g3]
        var lineup = CourtLineup(court: "Court 1", bracket: bracket, games: games)
        #expect(lineup.entries.map(\.game) == ["g1", "final", "g3"])
        #expect(lineup.entries.map(\.title) == ["Lions v Tigers", "winner of g1 v 1st of group B", "Tigers v Lions"])
        #expect(lineup.entries.map(\.exists) == [true, false, true])
        #expect(
            lineup.entries.map(\.label) == ["g1: Lions v Tigers", "final: winner of g1 v 1st of group B", "g3: Tigers v Lions"])
        #expect(lineup.current == "g1")
        // The keeper page's picker in its language: each line from the catalog, the open slots too.
        let japanese = lineup.worded(Words(Language(tag: "ja")!))
        #expect(japanese.entries.map(\.label).first == "g1：Lions 対 Tigers", "\(japanese.entries.map(\.label))")
        #expect(japanese.entries.map(\.label)[1].hasPrefix("final：g1の勝者"), "\(japanese.entries.map(\.label))")
        #expect(lineup.worded(.english).entries.map(\.label) == lineup.entries.map(\.label))

        // g1 over: the final cannot be kept yet, so the page opens on g3.
        for version in 2...9 {
            g1.apply(
                GameEvent(
                    gameID: "g1", version: version, at: Timestamp(milliseconds: 0),
                    origin: CommandOrigin(clientID: "t", commandID: "\(version)"),
                    kind: .move(player: "lions-p", move: .twoPoints)))
        }
        games["g1"] = g1
        lineup = CourtLineup(court: "Court 1", bracket: bracket, games: games)
        #expect(lineup.entries.first?.state == .final)
        #expect(lineup.current == "g3")
        #expect(CourtLineup(court: "Court 9", bracket: bracket, games: games).current == nil)
    }
}

@Suite("how a decided game reads")
struct DecidedStatusTests {
    @Test("a forfeit, an early end and a game with no result say so")
    func statusText() {
        #expect(GameViewModel.statusText("FINAL", winner: "Lions", endReason: .score) == "FINAL: Lions won")
        #expect(GameViewModel.statusText("FINAL", winner: "Lions", endReason: .forfeit) == "FINAL: Lions won by forfeit")
        #expect(GameViewModel.statusText("FINAL", winner: "Lions", endReason: .abandoned) == "FINAL (abandoned): Lions won")
        #expect(GameViewModel.statusText("FINAL", winner: nil, endReason: .abandoned) == "FINAL (abandoned): no result")
        #expect(GameViewModel.statusText("FINAL", winner: nil, endReason: .noResult) == "FINAL (abandoned): no result")
        #expect(GameViewModel.statusText("LIVE", winner: nil, endReason: nil) == "LIVE")
    }
}
