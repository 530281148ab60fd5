import CourtsideModel
import CourtsideViewModels
import Foundation
import Testing

/// The day as it slips: each game still to play expected no earlier than its time, its court's
/// last game and its teams' rest, and a waiting game offered to a court that stands free.
@Suite("estimates of a day that slips")
struct DayEstimatesTests {
    static let at = CourtNowTests.at
    static let utc = CourtNowTests.utc
    /// 10-minute games, 4 minutes between two on a court, 20 minutes of rest for a team.
    static let timing = DayTiming(gameMinutes: 10, changeoverMinutes: 4, restMinutes: 20)

    static func team(_ id: String) -> Team {
        Team(id: TeamID(id), name: id.capitalized, players: [Player(id: PlayerID("\(id)-1"), name: "P")])
    }

    static func entry(_ game: String, _ court: String, _ start: String, _ home: Slot, _ away: Slot) -> BracketEntry {
        var homeTeam: TeamID?
        var awayTeam: TeamID?
        if case .team(let team) = home { homeTeam = team }
        if case .team(let team) = away { awayTeam = team }
        return BracketEntry(
            game: GameID(game), round: nil, group: nil, court: court, start: start, home: home, away: away, homeTeam: homeTeam,
            awayTeam: awayTeam, state: homeTeam != nil && awayTeam != nil ? .ready : .pending, score: nil, winner: nil)
    }

    static func game(_ id: String, _ home: String, _ away: String, _ court: String) -> Game {
        Game(setup: GameSetup(id: GameID(id), home: team(home), away: team(away), court: court))
    }

    /// `game` with its clock started at `start`, and ended early (as it stands) at `end` if given.
    static func played(_ game: Game, from start: Date, until end: Date? = nil) -> Game {
        var game = game
        let origin = CommandOrigin(clientID: "k", commandID: "c")
        game.apply(GameEvent(gameID: game.id, version: 2, at: Timestamp(start), origin: origin, kind: .clockStarted))
        if let end {
            game.apply(
                GameEvent(
                    gameID: game.id, version: 3, at: Timestamp(end), origin: origin,
                    kind: .ended(result: .asItStands, reason: "time")))
        }
        return game
    }

    func estimates(_ bracket: [BracketEntry], _ games: [GameID: Game], at now: Date, timing: DayTiming? = timing) -> DayEstimates
    {
        DayEstimates(bracket: bracket, games: games, timing: timing, now: now, calendar: Self.utc)
    }

    @Test("before the day, every game is expected at its time")
    func onTime() {
        let bracket = [
            Self.entry("g1", "Court 1", "09:00", .team("a"), .team("b")),
            Self.entry("g2", "Court 1", "09:14", .team("c"), .team("d")),
        ]
        let day = estimates(bracket, [:], at: Self.at(8, 0))
        #expect(day.estimates["g1"]?.time == "09:00" && day.estimates["g2"]?.time == "09:14")
        #expect(day.estimates.values.allSatisfy { $0.minutesLate == 0 })
        #expect(day.suggestions.isEmpty)
    }

    @Test("a court that started late pushes its next game back; one that ended early never pulls it forward")
    func courtLate() {
        let bracket = [
            Self.entry("g1", "Court 1", "09:00", .team("a"), .team("b")),
            Self.entry("g2", "Court 1", "09:14", .team("c"), .team("d")),
            Self.entry("g3", "Court 2", "09:00", .team("e"), .team("f")),
            Self.entry("g4", "Court 2", "09:14", .team("g"), .team("h")),
        ]
        let games: [GameID: Game] = [
            "g1": Self.played(Self.game("g1", "a", "b", "Court 1"), from: Self.at(9, 10)),
            "g3": Self.played(Self.game("g3", "e", "f", "Court 2"), from: Self.at(9, 0), until: Self.at(9, 6)),
        ]
        let day = estimates(bracket, games, at: Self.at(9, 12))
        // g1 started at 09:10: it runs until 09:20, then 4 minutes' changeover.
        #expect(day.estimates["g2"]?.time == "09:24" && day.estimates["g2"]?.minutesLate == 10)
        #expect(day.estimates["g4"]?.time == "09:14" && day.estimates["g4"]?.minutesLate == 0)
        #expect(day.estimates["g1"] == nil, "a game under way has no estimate")
    }

    @Test("a team's rest holds across courts, and a knockout waits for the games its slots name")
    func restAndSlots() {
        let bracket = [
            Self.entry("g1", "Court 1", "09:00", .team("a"), .team("b")),
            Self.entry("g2", "Court 2", "09:00", .team("c"), .team("d")),
            Self.entry("g3", "Court 2", "09:28", .team("a"), .team("c")),
            Self.entry("final", "Court 1", "10:00", .winner(of: "g1"), .winner(of: "g3")),
        ]
        let games: [GameID: Game] = [
            "g1": Self.played(Self.game("g1", "a", "b", "Court 1"), from: Self.at(9, 15), until: Self.at(9, 25)),
            "g2": Self.played(Self.game("g2", "c", "d", "Court 2"), from: Self.at(9, 0), until: Self.at(9, 10)),
        ]
        let day = estimates(bracket, games, at: Self.at(9, 26))
        // a ended at 09:25 and rests 20 minutes: g3 at 09:45, not 09:28.
        #expect(day.estimates["g3"]?.time == "09:45" && day.estimates["g3"]?.minutesLate == 17)
        // g3 ends 09:55; its winner rests until 10:15.
        #expect(day.estimates["final"]?.time == "10:15")
    }

    @Test("a game due in the past is expected now, not at its time")
    func pastDue() {
        let bracket = [Self.entry("g1", "Court 1", "09:00", .team("a"), .team("b"))]
        let day = estimates(bracket, [:], at: Self.at(9, 37))
        #expect(day.estimates["g1"]?.time == "09:37" && day.estimates["g1"]?.minutesLate == 37)
    }

    @Test("without the schedule's timing, a game's slot is read from the starts on a court")
    func inferred() {
        let bracket = [
            Self.entry("g1", "Court 1", "09:00", .team("a"), .team("b")),
            Self.entry("g2", "Court 1", "09:20", .team("c"), .team("d")),
            Self.entry("g3", "Court 1", "09:45", .team("e"), .team("f")),
        ]
        let games: [GameID: Game] = ["g1": Self.played(Self.game("g1", "a", "b", "Court 1"), from: Self.at(9, 10))]
        let day = estimates(bracket, games, at: Self.at(9, 11), timing: nil)
        #expect(day.timing == DayTiming(gameMinutes: 20))
        #expect(day.estimates["g2"]?.time == "09:30" && day.estimates["g3"]?.time == "09:50")
    }

    @Test("a court standing free is offered the first waiting game worth moving whose teams are ready; a busy court nothing")
    func suggestions() {
        let bracket = [
            Self.entry("g1", "Court 1", "09:00", .team("a"), .team("b")),
            Self.entry("g2", "Court 1", "09:14", .team("c"), .team("d")),
            Self.entry("g3", "Court 1", "09:28", .team("e"), .team("f")),
            Self.entry("g4", "Court 2", "09:00", .team("g"), .team("h")),
            // Court 2's next game is in an hour: room for one before it.
            Self.entry("g5", "Court 2", "10:30", .team("i"), .team("j")),
        ]
        let games: [GameID: Game] = [
            "g1": Self.played(Self.game("g1", "a", "b", "Court 1"), from: Self.at(9, 20)),
            "g4": Self.played(Self.game("g4", "g", "h", "Court 2"), from: Self.at(9, 0), until: Self.at(9, 10)),
        ]
        let day = estimates(bracket, games, at: Self.at(9, 22), timing: Self.timing)
        // Court 1: g1 until 09:30, g2 at 09:34, g3 at 09:48. Court 2 is free from 09:14.
        #expect(day.estimates["g2"]?.time == "09:34")
        #expect(day.suggestions.count == 1)
        let move = day.suggestions.first
        #expect(move?.game == "g2" && move?.from == "Court 1" && move?.to == "Court 2" && move?.start == "09:22")
        #expect(move?.minutesSooner == 12 && move?.scheduled == "09:14")
        #expect(move?.text == "Court 2 is free: move g2 (g2) there from Court 1, to start about 09:22, 12 min sooner.")
        // At 09:27 moving g2 gains 7 minutes, not worth it: g3, 21 minutes sooner, is offered.
        let later = estimates(bracket, games, at: Self.at(9, 27), timing: Self.timing)
        #expect(later.suggestions.map(\.game) == ["g3"] && later.suggestions.first?.minutesSooner == 21)
        // A court that is busy is offered nothing.
        var busy = games
        busy["g4"] = Self.played(Self.game("g4", "g", "h", "Court 2"), from: Self.at(9, 20))
        #expect(estimates(bracket, busy, at: Self.at(9, 22), timing: Self.timing).suggestions.isEmpty)
    }
}

