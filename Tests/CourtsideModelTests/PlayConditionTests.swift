import CourtsideModel
import Foundation
import Testing

/// A game played only if a result calls for it (a double elimination's grand final reset):
/// no teams before that result, created once it holds, out of the bracket once it cannot.
@Suite("Games played only if a result calls for them")
struct PlayConditionTests {
    /// `gf` (Lions v Tigers), and its reset `gf2`, played only if Tigers (away) win `gf`.
    static var schedule: Schedule {
        Schedule(
            teams: [Scorebook.home.id: Scorebook.home, Scorebook.away.id: Scorebook.away], rounds: ["Final", "Reset"],
            games: [
                ScheduledGame(id: "g1", home: .team("lions"), away: .team("tigers"), round: "Final"),
                ScheduledGame(
                    id: "gf2", home: .loser(of: "g1"), away: .winner(of: "g1"), round: "Reset",
                    playedIf: .won(game: "g1", by: .away)),
            ])
    }

    /// The grand final (Scorebook's `g1`) won 15-9 by `side`.
    static func final(wonBy side: Side) throws -> [GameID: Game] {
        var book = Scorebook()
        try book.score(side.opponent, 9)
        try book.score(side, 15)
        #expect(book.game.isFinished)
        return ["g1": book.game]
    }

    @Test("before the grand final ends: in the bracket, pending, no teams, not created")
    func undecided() {
        let bracket = Self.schedule.bracket([GameID: Game]())
        let reset = bracket.first { $0.game == "gf2" }
        #expect(reset?.state == .pending && reset?.homeTeam == nil && reset?.awayTeam == nil)
        #expect(Self.schedule.lineups([GameID: Game]())["gf2"] == nil)
        #expect(Self.schedule.problem == nil)
    }

    @Test("the losers' champion (away) wins the grand final: the reset is played, the first final's loser at home")
    func played() throws {
        let games = try Self.final(wonBy: .away)
        let lineup = try #require(Self.schedule.lineups(games)["gf2"])
        #expect(lineup.home.id == "lions" && lineup.away.id == "tigers")
        #expect(Self.schedule.bracket(games).first { $0.game == "gf2" }?.state == .ready)
    }

    @Test("the winners' champion (home) wins the grand final: no reset, in neither the lineups nor the bracket")
    func notPlayed() throws {
        let games = try Self.final(wonBy: .home)
        #expect(Self.schedule.lineups(games)["gf2"] == nil)
        #expect(Self.schedule.bracket(games).map(\.game) == ["g1"])
    }

    @Test("a condition naming no other scheduled game is a problem; the field's JSON is {won, by}")
    func problemAndJSON() throws {
        var schedule = Self.schedule
        schedule.games[1].playedIf = .won(game: "nowhere", by: .away)
        #expect(schedule.problem?.contains("names no other scheduled game") == true)
        schedule.games[1].playedIf = .won(game: "gf2", by: .away)
        #expect(schedule.problem?.contains("names no other scheduled game") == true)
        let game = Self.schedule.games[1]
        let json = String(decoding: try JSONEncoder().encode(game), as: UTF8.self)
        #expect(json.contains(#""played_if":{"#) && json.contains(#""won":"g1""#) && json.contains(#""by":"away""#))
        #expect(try JSONDecoder().decode(ScheduledGame.self, from: Data(json.utf8)) == game)
    }
}
