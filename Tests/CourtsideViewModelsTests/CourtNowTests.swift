import CourtsideClient
import CourtsideModel
import CourtsideViewModels
import Foundation
import Testing

@Suite("what a court is doing now, next, and how late")
struct CourtNowTests {
    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    /// 2026-11-26 at this hour and minute, UTC.
    static func at(_ hour: Int, _ minute: Int) -> Date {
        utc.date(from: DateComponents(year: 2026, month: 11, day: 26, hour: hour, minute: minute))!
    }

    static let lions = Team(id: "lions", name: "Lions", players: [Player(id: "ann", name: "Ann")])
    static let tigers = Team(id: "tigers", name: "Tigers", players: [Player(id: "di", name: "Di")])

    static func entry(_ game: String, _ start: String?) -> BracketEntry {
        BracketEntry(
            game: GameID(game), round: nil, group: nil, court: "Court 2", start: start, home: .team("lions"),
            away: .team("tigers"),
            homeTeam: "lions", awayTeam: "tigers", state: .ready, score: nil, winner: nil)
    }

    static func started(_ id: String, at date: Date) -> Game {
        var game = Game(setup: GameSetup(id: GameID(id), home: lions, away: tigers, court: "Court 2"))
        game.apply(
            GameEvent(
                gameID: GameID(id), version: 2, at: Timestamp(date), origin: CommandOrigin(clientID: "k", commandID: "1"),
                kind: .clockStarted))
        return game
    }

    @Test("a game started 20 minutes late puts the next one 20 minutes after its time")
    func late() {
        let bracket = [Self.entry("g1", "10:30"), Self.entry("g2", "11:00")]
        let games: [GameID: Game] = [
            "g1": Self.started("g1", at: Self.at(10, 50)),
            "g2": Game(setup: GameSetup(id: "g2", home: Self.lions, away: Self.tigers, court: "Court 2")),
        ]
        let now = CourtNow(
            lineup: CourtLineup(court: "Court 2", bracket: bracket, games: games), games: games, now: Self.at(11, 5),
            calendar: Self.utc)
        #expect(now.current?.game == "g1" && now.next?.game == "g2")
        #expect(now.minutesBehind == 20 && now.delayText == "20 min behind")
        #expect(now.nextLine == "next on Court 2: Lions v Tigers, about 11:20")
    }

    @Test("a game not started yet is as late as now is past its time; a court ahead of time is on time")
    func waiting() {
        let bracket = [Self.entry("g1", "10:30"), Self.entry("g2", "11:00")]
        let games: [GameID: Game] = [
            "g1": Game(setup: GameSetup(id: "g1", home: Self.lions, away: Self.tigers, court: "Court 2"))
        ]
        let lineup = CourtLineup(court: "Court 2", bracket: bracket, games: games)
        #expect(CourtNow(lineup: lineup, games: games, now: Self.at(10, 42), calendar: Self.utc).minutesBehind == 12)
        let early = CourtNow(lineup: lineup, games: games, now: Self.at(10, 10), calendar: Self.utc)
        #expect(early.delayText == "on time" && early.nextLine == "next on Court 2: Lions v Tigers, about 11:00")
        let untimed = CourtNow(
            lineup: CourtLineup(court: "Court 2", bracket: [Self.entry("g1", nil)], games: games), games: games,
            now: Self.at(10, 42), calendar: Self.utc)
        #expect(untimed.minutesBehind == nil && untimed.delayText == nil && untimed.nextLine == nil)
    }
}
