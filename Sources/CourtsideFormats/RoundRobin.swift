public import CourtsideModel

extension Formats {
    /// Every team plays every other once a leg (Berger tables, by the circle method).
    ///
    /// Entrants come in seed order; the best meets the second best in the last round, and with
    /// an odd count one team a round has a bye (no game). Home and away are balanced: in each
    /// leg a team's home and away games differ by at most one, and the second leg swaps them.
    /// Games are `<prefix>-<group>-<n>`, rounds `"<roundName> 1"`, `"<roundName> 2"`, ...
    public static func roundRobin(
        _ entrants: [Entrant], prefix: String, legs: Int = 1, group: String = "A", groupName: String? = nil,
        roundName: String = "Round"
    ) throws(FormatError) -> Draw {
        try check(entrants, minimum: 2, format: "a round robin")
        guard (1...2).contains(legs) else { throw FormatError(.invalidOption, "a round robin has 1 or 2 legs, not \(legs)") }
        let teams = entrants.map(\.id)
        let rounds = roundRobinRounds(count: teams.count, legs: legs)
        var games: [ScheduledGame] = []
        for (index, round) in rounds.enumerated() {
            for (home, away) in round {
                games.append(
                    ScheduledGame(
                        id: GameID("\(prefix)-\(group)-\(games.count + 1)"), home: .team(teams[home]), away: .team(teams[away]),
                        group: group, round: "\(roundName) \(index + 1)"))
            }
        }
        try checkIDs(games)
        return Draw(
            groups: [Group(id: group, name: groupName, teams: teams)], games: games,
            rounds: rounds.indices.map { "\(roundName) \($0 + 1)" })
    }

    /// The pairings of a round robin of `count` teams (indices in seed order), round by round,
    /// each as (home, away). Pure arithmetic, shared by pools.
    static func roundRobinRounds(count: Int, legs: Int) -> [[(home: Int, away: Int)]] {
        guard count >= 2 else { return [] }
        // An odd count plays with a phantom last team: its opponent has the bye.
        let size = count.isMultiple(of: 2) ? count : count + 1
        let circle = size - 1
        var leg: [[(home: Int, away: Int)]] = []
        // Team 0 stays put; the others turn around a circle of `circle` places (1...circle).
        // Round r's centre meets team 0, and the places k either side of it meet each other;
        // every pair has one centre (circle is odd, so halving is unique), hence meets once.
        // Team 0's opponents run from the last seed down, so seeds 1 and 2 meet last.
        for round in 0..<circle {
            let centre = circle - round
            var pairs = [(0, centre)]
            for k in 1..<(size / 2) {
                let left = (centre - 1 + k) % circle + 1
                let right = (centre - 1 - k + circle * k) % circle + 1
                pairs.append((left, right))
            }
            leg.append(
                pairs.filter { $0.0 < count && $0.1 < count }.map { orient($0.0, $0.1, oddSize: count | 1) })
        }
        guard legs == 2 else { return leg }
        return leg + leg.map { $0.map { (home: $0.away, away: $0.home) } }
    }

    /// Home and away for a pair: over an odd number of teams, each is at home against the next
    /// half of the others around a circle, so each has as many home games as away; with an even
    /// count the phantom's games drop out, leaving a difference of one.
    private static func orient(_ a: Int, _ b: Int, oddSize: Int) -> (home: Int, away: Int) {
        let distance = ((b - a) % oddSize + oddSize) % oddSize
        return distance <= oddSize / 2 ? (home: a, away: b) : (home: b, away: a)
    }
}
