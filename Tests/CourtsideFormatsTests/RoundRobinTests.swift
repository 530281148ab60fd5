import CourtsideFormats
import CourtsideModel
import Testing

@Suite("Round robin")
struct RoundRobinTests {
    @Test("four teams: three rounds, seeds 1 and 2 meet last, ids from the prefix")
    func fourTeams() throws {
        let draw = try Formats.roundRobin(entrants(4), prefix: "open")
        #expect(draw.rounds == ["Round 1", "Round 2", "Round 3"])
        #expect(draw.games.count == 6)
        #expect(draw.games.map(\.id.rawValue) == (1...6).map { "open-A-\($0)" })
        // FIBA's order for a pool of four: 1 v 4 and 2 v 3, then 1 v 3 and 2 v 4, then 1 v 2 and 3 v 4.
        let pairs = draw.games.map { Set(namedTeams($0).map(seed)) }
        #expect(pairs == [[1, 4], [2, 3], [1, 3], [2, 4], [1, 2], [3, 4]])
        #expect(draw.groups == [Group(id: "A", teams: ["t1", "t2", "t3", "t4"])])
        #expect(draw.games.allSatisfy { $0.group == "A" })
        #expect(draw.seed == nil)
        expectSound(draw, teams: entrants(4))
    }

    @Test("five teams: five rounds of two games, each team sitting out one round")
    func oddCount() throws {
        let draw = try Formats.roundRobin(entrants(5), prefix: "w", group: "X", groupName: "Pool X")
        #expect(draw.rounds.count == 5)
        #expect(draw.games.count == 10)
        #expect(draw.groups.first?.name == "Pool X")
        let resting = draw.rounds.map { round in
            Set(entrants(5).map(\.id)).subtracting(draw.games.filter { $0.round == round }.flatMap(namedTeams))
        }
        #expect(resting.allSatisfy { $0.count == 1 })
        #expect(Set(resting.flatMap { $0 }).count == 5)
    }

    @Test("a double round robin: the second leg swaps home and away")
    func doubleLeg() throws {
        let draw = try Formats.roundRobin(entrants(4), prefix: "d", legs: 2)
        #expect(draw.rounds.count == 6)
        let first = draw.games.prefix(6).map { [$0.home, $0.away] }
        let second = draw.games.suffix(6).map { [$0.away, $0.home] }
        #expect(first == second)
    }

    @Test("every count 2...128, one and two legs: each pair once a leg, nobody twice a round, home and away balanced")
    func properties() throws {
        for count in teamCounts {
            // Half a million games in all: the second leg (the first with home and away swapped)
            // and the schedule's own check run on a sample of counts, which keeps this quick.
            let sampled = sampledCounts.contains(count)
            for legs in sampled ? [1, 2] : [1] {
                let teams = entrants(count)
                let draw = try Formats.roundRobin(teams, prefix: "div", legs: legs)
                var problems: [String] = []
                let roundsPerLeg = count.isMultiple(of: 2) ? count - 1 : count
                if draw.rounds.count != roundsPerLeg * legs { problems.append("\(draw.rounds.count) rounds") }
                if draw.games.count != count * (count - 1) / 2 * legs { problems.append("\(draw.games.count) games") }
                let byRound = Dictionary(grouping: draw.games) { $0.round ?? "" }
                for round in draw.rounds {
                    let playing = (byRound[round] ?? []).flatMap(namedTeams)
                    if Set(playing).count != playing.count { problems.append("a team twice in \(round)") }
                    // Everybody plays, but for one bye when the count is odd.
                    if playing.count != count - count % 2 { problems.append("\(playing.count) teams play in \(round)") }
                }
                let perLeg = draw.games.count / legs
                for leg in 0..<legs {
                    var pairs = Set<Set<TeamID>>()
                    var balance: [TeamID: Int] = [:]
                    for game in draw.games[(leg * perLeg)..<((leg + 1) * perLeg)] {
                        let (home, away) = (namedTeams(game)[0], namedTeams(game)[1])
                        if home == away || !pairs.insert([home, away]).inserted { problems.append("\(home) v \(away) twice") }
                        balance[home, default: 0] += 1
                        balance[away, default: 0] -= 1
                    }
                    if pairs.count != count * (count - 1) / 2 { problems.append("leg \(leg + 1) has \(pairs.count) pairs") }
                    if !balance.values.allSatisfy({ abs($0) <= 1 }) {
                        problems.append("home and away unbalanced in leg \(leg + 1)")
                    }
                }
                // The best two meet in the last round of the leg.
                let lastRound = draw.rounds[roundsPerLeg - 1]
                if !(byRound[lastRound] ?? []).contains(where: { Set(namedTeams($0)) == ["t1", "t2"] }) {
                    problems.append("1 v 2 not in the leg's last round")
                }
                if legs == 2 {
                    let half = draw.games.count / 2
                    if !zip(draw.games.prefix(half), draw.games.suffix(half)).allSatisfy({
                        $0.home == $1.away && $0.away == $1.home
                    }) {
                        problems.append("the second leg does not swap the first")
                    }
                }
                #expect(problems.isEmpty, "\(count) teams, \(legs) legs: \(problems.prefix(5))")
                if sampled { expectSound(draw, teams: teams) }
            }
        }
    }

    @Test("bad input: too few teams, a team twice, legs out of range, a prefix no game id takes")
    func badInput() {
        #expect(code { () throws(FormatError) in try Formats.roundRobin(entrants(1), prefix: "p") } == .tooFewTeams)
        #expect(
            code { () throws(FormatError) in try Formats.roundRobin(entrants(3) + entrants(1), prefix: "p") } == .duplicateTeam)
        #expect(code { () throws(FormatError) in try Formats.roundRobin(entrants(3), prefix: "p", legs: 3) } == .invalidOption)
        #expect(code { () throws(FormatError) in try Formats.roundRobin(entrants(3), prefix: "open men") } == .invalidPrefix)
        #expect(
            code { () throws(FormatError) in try Formats.roundRobin(entrants(3), prefix: String(repeating: "x", count: 62)) }
                == .invalidPrefix)
    }
}
