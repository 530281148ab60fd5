import CourtsideModel
import Testing

@testable import CourtsidePlanning

/// Which games the planner keeps apart because they may share a team, though neither waits for
/// the other.
@Suite struct TeamOverlapTests {
    /// Pools A and B of 4 (a round robin each), then `games`: the pairs of `games` kept apart.
    static func conflicts(after games: [GameToPlace]) throws -> Set<[GameID]> {
        var all: [GameToPlace] = []
        for pool in ["A", "B"] {
            let teams = (1...4).map { Slot.team(TeamID("\(pool)\($0)")) }
            for (number, pair) in [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2)].enumerated() {
                all.append(game(GameID("\(pool)\(number)"), teams[pair.0], teams[pair.1], group: pool))
            }
        }
        all += games
        let problem = try Problem(games: all, venue: testVenue())
        var found = Set<[GameID]>()
        for (index, others) in problem.conflicts.enumerated() where index >= 12 {
            for other in others where other >= 12 { found.insert([all[index].id, all[other].id].sorted()) }
        }
        return found
    }

    @Test func differentResultsOfOneGameOrGroupAreDifferentTeams() throws {
        let found = try Self.conflicts(after: [
            game("qf1", .groupRank(group: "A", rank: 1), .groupRank(group: "B", rank: 2)),
            game("qf2", .groupRank(group: "B", rank: 1), .groupRank(group: "A", rank: 2)),
            game("final", .winner(of: "qf1"), .winner(of: "qf2")),
            game("third", .loser(of: "qf1"), .loser(of: "qf2")),
        ])
        #expect(found.isEmpty)
    }

    @Test func aResultThatMayBeATeamNamedElsewhere() throws {
        let found = try Self.conflicts(after: [
            game("x", .team("A1"), .team("B1")),
            game("y", .winner(of: "A0"), .team("B2")),
            game("z", .loser(of: "x"), .team("B3")),
        ])
        // A1 plays A0, whose winner y takes, and x, whose loser z takes: y may share A1 with x
        // and with z (z waits for x).
        #expect(found == [["x", "y"], ["y", "z"]])
    }

    @Test func oneResultTakenTwice() throws {
        let found = try Self.conflicts(after: [
            game("y", .winner(of: "A0"), .team("B2")),
            game("z", .winner(of: "A0"), .team("B3")),
        ])
        #expect(found == [["y", "z"]])
    }

    @Test func theBestOfARankAcrossGroups() throws {
        let found = try Self.conflicts(after: [
            game("best1", .bestOfRank(rank: 3, place: 1, groups: ["A", "B"]), .groupRank(group: "A", rank: 1)),
            game("best2", .bestOfRank(rank: 3, place: 2, groups: ["A", "B"]), .groupRank(group: "B", rank: 1)),
            game("a2", .groupRank(group: "A", rank: 2), .groupRank(group: "B", rank: 2)),
            game("a3", .groupRank(group: "A", rank: 3), .groupRank(group: "B", rank: 4)),
        ])
        // The third of A may be the best or second best third; no other rank may.
        #expect(found == [["a3", "best1"], ["a3", "best2"]])
    }
}
