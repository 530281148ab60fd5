import CourtsideModel
import Foundation
import Testing

/// A Swiss round's pairing as a tournament change: the slots it fills, the spare games it
/// drops, the byes it records, and every refusal, each changing nothing.
@Suite("Swiss pairings in the schedule")
struct SwissPairingTests {
    /// Six teams in group S: round 1 drawn with its teams, rounds 2 and 3 with pairing slots.
    static var schedule: Schedule {
        let teams = (1...6).map {
            Team(id: TeamID("t\($0)"), name: "T\($0)", players: [Player(id: PlayerID("p\($0)"), name: "P")])
        }
        var games = (1...3).map { index in
            ScheduledGame(
                id: GameID("R1-\(index)"), home: .team(TeamID("t\(index)")), away: .team(TeamID("t\(index + 3)")), group: "S",
                round: "Round 1")
        }
        for round in 2...3 {
            for pairing in 1...3 {
                games.append(
                    ScheduledGame(
                        id: GameID("R\(round)-\(pairing)"),
                        home: .swissPairing(group: "S", round: round, pairing: pairing, side: .home),
                        away: .swissPairing(group: "S", round: round, pairing: pairing, side: .away), group: "S",
                        round: "Round \(round)"))
            }
        }
        return Schedule(
            teams: Dictionary(uniqueKeysWithValues: teams.map { ($0.id, $0) }),
            groups: [Group(id: "S", name: "Swiss", teams: teams.map(\.id))], rounds: ["Round 1", "Round 2", "Round 3"],
            games: games)
    }

    func pairing(round: Int = 2, _ pairs: [(String, String, String)], bye: TeamID? = nil) -> TournamentChange {
        .swissRoundPaired(
            SwissRoundPairing(
                group: "S", round: round,
                games: pairs.map { .init(game: GameID($0.0), home: TeamID($0.1), away: TeamID($0.2)) }, bye: bye))
    }

    @Test("a valid schedule: round 2 waits on round 1, round 3 on both, and nothing else")
    func valid() {
        #expect(Self.schedule.problem == nil)
        #expect(Self.schedule.unpairedSwissRound(of: "S")?.round == 2)
        #expect(Self.schedule.swissGroups == ["S"])
        #expect(Self.schedule.lineups([:]).count == 3, "only round 1's teams are known")
    }

    @Test("a pairing fills the round's slots, drops its spare game and records the bye")
    func pairs() throws {
        var schedule = Self.schedule
        schedule.withdrawn = ["t6"]
        let next = try schedule.applying(
            pairing([("R2-1", "t1", "t2"), ("R2-2", "t4", "t3")], bye: "t5"), hasStarted: { _ in false })
        #expect(next.game("R2-1")?.home == .team("t1") && next.game("R2-1")?.away == .team("t2"))
        #expect(next.game("R2-2")?.home == .team("t4"))
        #expect(next.game("R2-3") == nil, "the spare game leaves the schedule")
        #expect(next.game("R3-3") != nil, "round 3 is paired when it comes")
        #expect(next.swissByes == ["S": ["t5"]])
        #expect(next.unpairedSwissRound(of: "S")?.round == 3)
        #expect(next.problem == nil)
        let data = try JSONEncoder().encode(next)
        #expect(try JSONDecoder().decode(Schedule.self, from: data) == next)
    }

    @Test(
        "refusals name what does not hold, and change nothing",
        arguments: [
            (3, [("R3-1", "t1", "t2")], nil, "not the group's next round"),
            (2, [("R3-1", "t1", "t2")], nil, "not one of the round's games"),
            (2, [("R2-1", "t1", "t9")], nil, "team t9 is not in the group"),
            (2, [("R2-1", "t1", "t2"), ("R2-2", "t2", "t3")], nil, "team t2 is paired twice"),
            (2, [("R2-1", "t1", "t2")], "t1", "team t1 is paired twice"),
            (2, [("R2-1", "t1", "t2"), ("R2-1", "t3", "t4")], nil, "game R2-1 is listed twice"),
            (2, [("R2-1", "t6", "t2")], nil, "team t6 has withdrawn"),
        ] as [(Int, [(String, String, String)], TeamID?, String)])
    func refusals(round: Int, pairs: [(String, String, String)], bye: TeamID?, message: String) {
        var schedule = Self.schedule
        schedule.withdrawn = ["t6"]
        #expect {
            _ = try schedule.applying(pairing(round: round, pairs, bye: bye), hasStarted: { _ in false })
        } throws: { error in
            (error as? CourtsideError)?.code == .invalidGame && (error as? CourtsideError)?.message.contains(message) == true
        }
    }

    @Test("a pairing slot outside its group, before round 2, or beyond the round's games is a problem")
    func problems() {
        func problem(_ slot: Slot, group: String? = "S") -> String? {
            var schedule = Self.schedule
            schedule.games.append(ScheduledGame(id: "x", home: slot, away: .team("t1"), group: group))
            return schedule.problem
        }
        #expect(problem(.swissPairing(group: "S", round: 2, pairing: 3, side: .home)) == nil)
        #expect(problem(.swissPairing(group: "S", round: 1, pairing: 1, side: .home))?.contains("second or later") == true)
        #expect(problem(.swissPairing(group: "S", round: 2, pairing: 4, side: .home))?.contains("3 games a round") == true)
        #expect(problem(.swissPairing(group: "T", round: 2, pairing: 1, side: .home))?.contains("unknown group T") == true)
        #expect(
            problem(.swissPairing(group: "S", round: 2, pairing: 1, side: .home), group: nil)?.contains("not in group S") == true)
    }

    @Test("the slot's JSON: {swiss, round, pairing, side}")
    func json() throws {
        let slot = Slot.swissPairing(group: "S", round: 2, pairing: 3, side: .away)
        let data = try JSONEncoder().encode(slot)
        #expect(try JSONDecoder().decode(Slot.self, from: data) == slot)
        let text = #"{"swiss":"S","round":2,"pairing":3,"side":"away"}"#
        #expect(try JSONDecoder().decode(Slot.self, from: Data(text.utf8)) == slot)
    }
}
