import CourtsideModel
import Foundation
import Testing

/// The best teams of a rank across groups ("the best second-placed teams").
@Suite("Best of a rank across groups")
struct BestOfRankTests {
    static func team(_ id: String) -> Team { StandingsTests.team(id) }

    /// A final game with this score.
    static func final(_ id: String, _ home: String, _ away: String, _ homeScore: Int, _ awayScore: Int) -> Game {
        StandingsTests.final(id, home, away, homeScore, awayScore)
    }

    /// A game the loser (away) forfeits.
    static func forfeit(_ id: String, winner: String, loser: String) -> Game {
        var game = Game(setup: GameSetup(id: GameID(id), home: team(winner), away: team(loser)))
        game.apply(
            GameEvent(
                gameID: game.id, version: 1, at: Timestamp(milliseconds: 0), origin: CommandOrigin(clientID: "t", commandID: "1"),
                kind: .forfeit(side: .away, reason: nil)))
        return game
    }

    /// Groups A, B and C of three, D of four; a qualifier game for the best and the second best
    /// second-placed teams.
    static var schedule: Schedule {
        let groups = [
            Group(id: "A", teams: ["a1", "a2", "a3"]), Group(id: "B", teams: ["b1", "b2", "b3"]),
            Group(id: "C", teams: ["c1", "c2", "c3"]), Group(id: "D", teams: ["d1", "d2", "d3", "d4"]),
        ]
        var games: [ScheduledGame] = []
        for group in groups {
            for (i, home) in group.teams.enumerated() {
                for away in group.teams[(i + 1)...] {
                    games.append(
                        ScheduledGame(
                            id: GameID("\(home.rawValue)-\(away.rawValue)"), home: .team(home), away: .team(away), group: group.id
                        ))
                }
            }
        }
        let all = ["A", "B", "C", "D"]
        games.append(
            ScheduledGame(
                id: "q", home: .bestOfRank(rank: 2, place: 1, groups: all), away: .bestOfRank(rank: 2, place: 2, groups: all)))
        games.append(
            ScheduledGame(id: "q4", home: .bestOfRank(rank: 2, place: 4, groups: all), away: .groupRank(group: "A", rank: 1)))
        let ids = groups.flatMap(\.teams)
        return Schedule(
            teams: Dictionary(uniqueKeysWithValues: ids.map { ($0, team($0.rawValue)) }), groups: groups, games: games)
    }

    /// Second places: d2 2-1 (the best ratio); a2 and c2 1-1 averaging 12.5; b2 1-1 averaging
    /// 11 without its forfeit win (13 with it, which would put it above a2 and c2).
    static var results: [GameID: Game] {
        let games = [
            final("a1-a2", "a1", "a2", 15, 10), final("a1-a3", "a1", "a3", 15, 5), final("a2-a3", "a2", "a3", 15, 13),
            final("b1-b2", "b1", "b2", 15, 11), forfeit("b2-b3", winner: "b2", loser: "b3"), final("b1-b3", "b1", "b3", 15, 3),
            final("c1-c2", "c1", "c2", 15, 10), final("c2-c3", "c2", "c3", 15, 13), final("c1-c3", "c1", "c3", 15, 0),
            final("d1-d2", "d1", "d2", 15, 0), final("d2-d3", "d2", "d3", 15, 13), final("d2-d4", "d2", "d4", 15, 13),
            final("d1-d3", "d1", "d3", 15, 2), final("d1-d4", "d1", "d4", 15, 2), final("d3-d4", "d3", "d4", 15, 5),
        ]
        return Dictionary(uniqueKeysWithValues: games.map { ($0.id, $0) })
    }

    @Test("win ratio, then average points without forfeits' winning scores, then seed, then team id")
    func order() {
        var schedule = Self.schedule
        let games = Self.results
        #expect(games["b2-b3"]?.endReason == .forfeit)
        let standings = schedule.standings(games)
        // Without seeds, a2 and c2 are level to the end: the team id decides.
        #expect(
            schedule.bestOfRank(2, groups: ["A", "B", "C", "D"], games: games, standings: standings) == ["d2", "a2", "c2", "b2"])
        schedule.seeds = ["c2": 5, "a2": 6]
        #expect(
            schedule.bestOfRank(2, groups: ["A", "B", "C", "D"], games: games, standings: standings) == ["d2", "c2", "a2", "b2"])
        let lineups = schedule.lineups(games)
        #expect(lineups["q"]?.home.id == "d2" && lineups["q"]?.away.id == "c2")
        #expect(lineups["q4"]?.home.id == "b2" && lineups["q4"]?.away.id == "a1")
        #expect(schedule.lineup(of: "q", games) == lineups["q"])
        #expect(schedule.problem == nil)
    }

    @Test("open until every named group is complete")
    func waitsForEveryGroup() {
        var games = Self.results
        games["d3-d4"] = nil
        let schedule = Self.schedule
        #expect(schedule.lineups(games)["q"] == nil)
        #expect(schedule.bracket(games).first { $0.game == "q" }?.state == .pending)
        // A rank only a bigger group has: the fourth of D is the best fourth.
        let fourth = schedule.bestOfRank(4, groups: ["A", "D"], games: Self.results, standings: schedule.standings(Self.results))
        #expect(fourth == ["d4"])
    }

    @Test("described, encoded as {best_of_rank, place, groups} by Codable and the fast writer alike")
    func coding() throws {
        let slot = Slot.bestOfRank(rank: 3, place: 2, groups: ["A", "B", "C", "D"])
        #expect(slot.description == "2nd best of the 3rd-placed teams of groups A, B, C, D")
        #expect(Slot.bestOfRank(rank: 3, place: 1, groups: ["A"]).description == "best of the 3rd-placed teams of groups A")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(slot), as: UTF8.self)
        #expect(json == #"{"best_of_rank":3,"groups":["A","B","C","D"],"place":2}"#)
        #expect(String(decoding: JSONWriter.json(of: slot, as: Slot.self), as: UTF8.self) == json)
        #expect(try JSONDecoder().decode(Slot.self, from: Data(json.utf8)) == slot)
        // Seeds travel with the schedule, and only when there are some.
        var schedule = Self.schedule
        #expect(!String(decoding: try encoder.encode(schedule), as: UTF8.self).contains("seeds"))
        schedule.seeds = ["a1": 1]
        #expect(try JSONDecoder().decode(Schedule.self, from: encoder.encode(schedule)) == schedule)
    }

    @Test("FIBA 3x3's tie-breakers in a pool: head-to-head, then average points without forfeits' winning scores, then seed")
    func fibaTieBreakers() {
        // a wins all; b, c and d beat each other once each (b by d's forfeit): head-to-head
        // cannot split them. Averages: c 12.67, b 11.5 (12.67 with its forfeit's 15), d 7.67.
        var schedule = StandingsTests.schedule
        schedule.tieBreakers = [.headToHead, .averagePointsScored, .seed]
        let games = [
            Self.final("x1", "a", "b", 15, 10), Self.final("x2", "c", "d", 11, 15), Self.final("x3", "a", "c", 15, 12),
            Self.forfeit("x4", winner: "b", loser: "d"), Self.final("x5", "a", "d", 15, 8), Self.final("x6", "b", "c", 13, 15),
        ]
        let byID = Dictionary(uniqueKeysWithValues: games.map { ($0.id, $0) })
        #expect(schedule.standings(byID)[0].rows.map(\.team) == ["a", "c", "b", "d"])
        // Points scored in all (the forfeit's 15 counted) puts b level with c: the team id decides.
        schedule.tieBreakers = [.headToHead, .pointsScored]
        #expect(schedule.standings(byID)[0].rows.map(\.team) == ["a", "b", "c", "d"])

        // A three-way cycle with the same scores: only the seeds split it.
        var cycle = Schedule(
            teams: Dictionary(uniqueKeysWithValues: ["p", "q", "r"].map { (TeamID($0), Self.team($0)) }),
            groups: [Group(id: "Y", teams: ["p", "q", "r"])],
            games: [
                ScheduledGame(id: "y1", home: .team("p"), away: .team("q"), group: "Y"),
                ScheduledGame(id: "y2", home: .team("q"), away: .team("r"), group: "Y"),
                ScheduledGame(id: "y3", home: .team("r"), away: .team("p"), group: "Y"),
            ], tieBreakers: [.headToHead, .averagePointsScored, .seed])
        let played = Dictionary(
            uniqueKeysWithValues: [
                Self.final("y1", "p", "q", 15, 10), Self.final("y2", "q", "r", 15, 10), Self.final("y3", "r", "p", 15, 10),
            ]
            .map { ($0.id, $0) })
        #expect(cycle.standings(played)[0].rows.map(\.team) == ["p", "q", "r"])
        cycle.seeds = ["r": 1, "q": 2]
        #expect(cycle.standings(played)[0].rows.map(\.team) == ["r", "q", "p"])
        #expect(TieBreaker(rawValue: "average_points_scored") == .averagePointsScored && TieBreaker(rawValue: "seed") == .seed)
    }

    @Test("a slot that can never fill is a problem of the schedule")
    func problems() {
        func problem(_ slot: Slot) -> String? {
            var schedule = Self.schedule
            schedule.games.append(ScheduledGame(id: "x", home: slot, away: .team("a1")))
            return schedule.problem
        }
        #expect(problem(.bestOfRank(rank: 2, place: 4, groups: ["A", "B", "C", "D"])) == nil)
        #expect(
            problem(.bestOfRank(rank: 2, place: 5, groups: ["A", "B", "C", "D"]))?.contains("place must be between 1 and 4")
                == true)
        #expect(problem(.bestOfRank(rank: 4, place: 2, groups: ["A", "D"]))?.contains("between 1 and 1") == true)
        #expect(problem(.bestOfRank(rank: 0, place: 1, groups: ["A"]))?.contains("rank must be 1 or more") == true)
        #expect(problem(.bestOfRank(rank: 1, place: 1, groups: ["A", "Z"]))?.contains("unknown group Z") == true)
        #expect(problem(.bestOfRank(rank: 1, place: 1, groups: ["A", "A"]))?.contains("twice") == true)
        #expect(problem(.bestOfRank(rank: 1, place: 1, groups: []))?.contains("no group") == true)
    }
}
