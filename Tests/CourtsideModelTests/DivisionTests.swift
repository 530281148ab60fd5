import CourtsideModel
import Testing

/// Divisions sharing the courts: each team, group and game in one, standings by the division's
/// own tie-breakers, and a config that names each division once.
@Suite("Divisions")
struct DivisionTests {
    static func team(_ id: String) -> Team { StandingsTests.team(id) }

    /// Open (o1 to o4, two groups of two and a final of the groups' winners) and Women (w1 to
    /// w3, a round robin), no game naming its division.
    static var schedule: Schedule {
        let ids = ["o1", "o2", "o3", "o4", "w1", "w2", "w3"]
        var schedule = Schedule(
            teams: Dictionary(uniqueKeysWithValues: ids.map { (TeamID($0), team($0)) }),
            groups: [
                Group(id: "OA", teams: ["o1", "o2"]), Group(id: "OB", teams: ["o3", "o4"]),
                Group(id: "W", teams: ["w1", "w2", "w3"]),
            ],
            rounds: ["Groups", "Final"],
            games: [
                ScheduledGame(id: "oa1", home: .team("o1"), away: .team("o2"), group: "OA", round: "Groups"),
                ScheduledGame(id: "ob1", home: .team("o3"), away: .team("o4"), group: "OB", round: "Groups"),
                ScheduledGame(id: "w1", home: .team("w1"), away: .team("w2"), group: "W", round: "Groups"),
                ScheduledGame(id: "w2", home: .team("w2"), away: .team("w3"), group: "W", round: "Groups"),
                ScheduledGame(id: "w3", home: .team("w3"), away: .team("w1"), group: "W", round: "Groups"),
                // Listed before the game it waits on: the assignment must not depend on order.
                ScheduledGame(id: "bronze", home: .loser(of: "osemi"), away: .groupRank(group: "OA", rank: 2), round: "Final"),
                ScheduledGame(
                    id: "osemi", home: .groupRank(group: "OA", rank: 1), away: .groupRank(group: "OB", rank: 1), round: "Final"),
            ])
        schedule.divisions = [
            Division(id: "open", name: "Open", teams: ["o1", "o2", "o3", "o4"]),
            Division(id: "women", name: "Women", teams: ["w1", "w2", "w3"], tieBreakers: [.pointsScored]),
        ]
        return schedule
    }

    @Test("groups and games that name no division get the one their teams, groups and slots are in")
    func assigned() {
        let schedule = Self.schedule.assigningDivisions()
        #expect(schedule.problem == nil, "\(schedule.problem ?? "")")
        #expect(schedule.groups.map(\.division) == ["open", "open", "women"])
        let byGame = Dictionary(uniqueKeysWithValues: schedule.games.map { ($0.id.rawValue, $0.division) })
        #expect(
            byGame == [
                "oa1": "open", "ob1": "open", "w1": "women", "w2": "women", "w3": "women", "bronze": "open", "osemi": "open",
            ])
        // Without divisions, nothing names one: a group or game that does is a problem.
        var single = Self.schedule
        single.divisions = []
        #expect(single.problem == nil)
        single.games[0].division = "open"
        #expect(single.problem == "game oa1 names division open, but the tournament has no divisions")
    }

    @Test(
        "a division that does not hold is a problem naming it",
        arguments: [
            ("a team in two divisions", "team o1 is in divisions open and women"),
            ("a team in no division", "team w3 is in no division"),
            ("a game across divisions", "game cross is in division open, its w1 in women"),
            ("an unknown division", "game oa1: unknown division u18"),
            ("a division twice", "division open is defined twice"),
            ("an unknown team", "division women: unknown team zz"),
        ])
    func problems(situation: String, expected: String) {
        var schedule = Self.schedule
        switch situation {
        case "a team in two divisions": schedule.divisions[1].teams.append("o1")
        case "a team in no division": schedule.divisions[1].teams.removeLast()
        case "a game across divisions":
            schedule.games.append(ScheduledGame(id: "cross", home: .team("o1"), away: .team("w1"), division: "open"))
        case "an unknown division": schedule.games[0].division = "u18"
        case "a division twice": schedule.divisions.append(Division(id: "open", teams: []))
        default: schedule.divisions[1].teams.append("zz")
        }
        #expect(schedule.assigningDivisions().problem == expected)
    }

    @Test("each division's groups break ties by its own tie-breakers")
    func tieBreakers() {
        let schedule = Self.schedule.assigningDivisions()
        #expect(schedule.tieBreakers(for: schedule.groups[2]) == [.pointsScored])
        #expect(schedule.tieBreakers(for: schedule.groups[0]) == schedule.tieBreakers)
        // w1, w2 and w3 each win once; head-to-head (the tournament's first) cannot split them,
        // point difference would order w2 (+7), w1 (+3), w3; points scored orders w1 (28), w2 (25), w3 (18).
        let games = [
            StandingsTests.final("w1", "w1", "w2", 15, 10), StandingsTests.final("w2", "w2", "w3", 15, 3),
            StandingsTests.final("w3", "w3", "w1", 15, 13),
        ]
        let table = schedule.standings(Dictionary(uniqueKeysWithValues: games.map { ($0.id, $0) }))
            .first { $0.group == "W" }
        #expect(table?.division == "women")
        #expect(table?.rows.map(\.team.rawValue) == ["w1", "w2", "w3"])
        #expect(schedule.bracket([:]).first { $0.game == "osemi" }?.division == "open")
    }

    @Test("run-time changes: a team joins its group's division, a new game takes its teams' division")
    func changes() throws {
        let schedule = Self.schedule.assigningDivisions()
        let joined = try schedule.applying(.teamRegistered(Self.team("w4"), group: "W"), hasStarted: { _ in false })
        #expect(joined.division("women")?.teams.last == "w4")
        #expect(joined.problem == nil)
        let added = try joined.applying(
            .gameScheduled(ScheduledGame(id: "w4a", home: .team("w4"), away: .team("w1"))), hasStarted: { _ in false })
        #expect(added.game("w4a")?.division == "women")
        do {
            _ = try schedule.applying(.teamRegistered(Self.team("x1"), group: nil), hasStarted: { _ in false })
            Issue.record("a team in no division was registered")
        } catch {
            #expect(error.code == .invalidGame && error.message == "team x1 is in no division", "\(error)")
        }
        do {
            _ = try schedule.applying(
                .gameScheduled(ScheduledGame(id: "mixed", home: .team("o1"), away: .team("w1"))), hasStarted: { _ in false })
            Issue.record("a game across divisions was scheduled")
        } catch {
            #expect(error.message == "game mixed is in division open, its w1 in women", "\(error)")
        }
    }

    @Test("a team registered into a named division joins it; an unknown division, or one in a tournament of none, is refused")
    func registerIntoDivision() throws {
        let schedule = Self.schedule.assigningDivisions()
        let joined = try schedule.applying(
            .teamRegistered(Self.team("w5"), group: nil, division: "women"), hasStarted: { _ in false })
        #expect(joined.division("women")?.teams.last == "w5" && joined.problem == nil)
        func refusal(_ change: TournamentChange, in schedule: Schedule) -> String? {
            do {
                _ = try schedule.applying(change, hasStarted: { _ in false })
                return nil
            } catch {
                return error.message
            }
        }
        #expect(
            refusal(.teamRegistered(Self.team("x1"), group: nil, division: "u18"), in: schedule)
                == "the tournament has no division u18")
        #expect(
            refusal(.teamRegistered(Self.team("x1"), group: "OA", division: "women"), in: schedule)
                == "group OA is in division open, team x1 in women")
        var single = Self.schedule
        single.divisions = []
        #expect(
            refusal(.teamRegistered(Self.team("x1"), group: nil, division: "open"), in: single)
                == "the tournament has no divisions: register team x1 without one")
    }
}
