public import CourtsideModel

/// What a Swiss pairing needs of a game that has been played.
public struct SwissResult: Hashable, Sendable {
    public var home: TeamID
    public var away: TeamID
    public var homeScore: Int
    public var awayScore: Int
    /// Whether the loser forfeited: a win and a loss as any other, but its score is left out of
    /// the points difference (as FIBA 3x3's Article 14 leaves forfeits' scores out).
    public var forfeit: Bool

    public init(home: TeamID, away: TeamID, homeScore: Int, awayScore: Int, forfeit: Bool = false) {
        self.home = home
        self.away = away
        self.homeScore = homeScore
        self.awayScore = awayScore
        self.forfeit = forfeit
    }

    /// A finished game's result; nil while it is not finished. A game ended with no result
    /// counts as 0 - 0: the teams have met, and neither won.
    public init?(_ game: Game) {
        guard game.isFinished else { return nil }
        let counts = game.endReason != .noResult
        self.init(
            home: game.setup.home.id, away: game.setup.away.id, homeScore: counts ? game.score.home : 0,
            awayScore: counts ? game.score.away : 0, forfeit: game.endReason == .forfeit)
    }

    /// The team that won; nil for a tie (a game abandoned level, or with no result).
    public var winner: TeamID? { homeScore > awayScore ? home : awayScore > homeScore ? away : nil }
}

/// How a Swiss tournament's first round pairs the teams.
public enum SwissFirstRound: Hashable, Sendable {
    /// In seed order, the top half against the bottom half (1 v 5, 2 v 6, ... for 8); with an
    /// odd count the lowest seed has the bye.
    case bySeed
    /// In an order shuffled by `seed` (recorded in the draw), the first half against the second;
    /// with an odd count the last team of that order has the bye.
    case random(seed: UInt64)
}

/// One round of a Swiss tournament: its games, and the team with the bye.
public struct SwissRound: Hashable, Sendable {
    /// The round's games under one round name, and the random seed of a random first round.
    public var draw: Draw
    /// The team that sits the round out with a bye (counted as a win), with an odd count.
    public var bye: TeamID?
    /// Games between teams that have met before. Empty unless every pairing of the round
    /// needs one (late in a long Swiss); then as few as can be.
    public var rematches: [GameID]

    public init(draw: Draw, bye: TeamID?, rematches: [GameID] = []) {
        self.draw = draw
        self.bye = bye
        self.rematches = rematches
    }

    public var games: [ScheduledGame] { draw.games }
}

/// A team's record in a Swiss tournament, as the next round pairs it.
public struct SwissStanding: Hashable, Sendable {
    public var team: TeamID
    /// Its place in the entrants' seed order, 1 for the best.
    public var seed: Int
    /// Wins, byes included.
    public var wins: Int
    public var losses: Int
    public var byes: Int
    /// Points for minus points against, forfeits left out; a bye counts 0.
    public var pointDifference: Int
    /// Games it played at home: the team with fewer is at home in its next game.
    public var homeGames: Int
    public var opponents: Set<TeamID>
}

extension Formats {
    /// A Swiss tournament: every round pairs teams of like records who have not met, so it is
    /// drawn one round at a time, each from the results so far (a pure function of them).
    ///
    /// Entrants come in seed order. Games are `<prefix>-R<round>-<n>`, in a round named
    /// `"<roundName> <round>"`. Rules of pairing, after the first round:
    /// - teams are ranked by wins (a bye counts as a win, with no points either way, as common
    ///   Swiss practice has it), then points difference (forfeits left out), then seed;
    /// - with an odd count, the bye goes to the lowest-ranked team among those with the fewest
    ///   byes so far, so no team has a second bye while another has none;
    /// - then the best-ranked team unpaired meets the next-ranked team it has not met, and so on
    ///   down; where that leaves teams who can only meet again, the choice goes back as far as
    ///   needed (the pairing with no rematch that comes first in that order is taken, found by
    ///   checking, before each choice, that the others can still all be paired);
    /// - only if no pairing of the round avoids a rematch are as few rematches made as can be,
    ///   listed in ``SwissRound/rematches``. That never happens in the first half of the count's
    ///   rounds (up to round 4 of 8 or 9 teams): each team has then met fewer than half the
    ///   others, and by Dirac's theorem a pairing anew exists whatever the earlier rounds were.
    ///   Later (a Swiss nearly as long as a round robin) earlier pairings can leave none;
    /// - of two teams, the one with fewer home games so far is at home, else the better ranked.
    ///
    /// A team that withdraws is left out of the entrants: its results still count for the teams
    /// it played, and it is paired no more.
    public enum Swiss {
        /// The first round: by seed (top half against bottom half) or random with a recorded seed.
        public static func firstRound(
            entrants: [Entrant], prefix: String, pairing: SwissFirstRound = .bySeed, roundName: String = "Round"
        ) throws(FormatError) -> SwissRound {
            try check(entrants, minimum: 2, format: "a Swiss tournament")
            var order = entrants.map(\.id)
            var seed: UInt64?
            if case .random(let chosen) = pairing {
                seed = chosen
                order = Formats.shuffled(entrants, seed: chosen).map(\.id)
            }
            let bye = order.count.isMultiple(of: 2) ? nil : order.removeLast()
            let half = order.count / 2
            let pairs = (0..<half).map { (order[$0], order[$0 + half]) }
            var round = try makeRound(pairs: pairs, bye: bye, rematches: [], number: 1, prefix: prefix, roundName: roundName)
            round.draw.seed = seed
            return round
        }

        /// A whole Swiss stage of `rounds` rounds, as a daemon plays it live: one group (`S`,
        /// "Swiss") of every entrant, round 1 paired now (``firstRound(entrants:prefix:pairing:roundName:)``),
        /// and each later round's games with ``Slot/swissPairing(group:round:pairing:side:)``
        /// slots, which the daemon pairs (``nextRound(entrants:results:byes:round:prefix:roundName:)``)
        /// once every game of the rounds before is final. At most one round fewer than the teams,
        /// so that no round has to repeat a game.
        public static func stage(
            entrants: [Entrant], rounds: Int, prefix: String, pairing: SwissFirstRound = .bySeed, roundName: String = "Round"
        ) throws(FormatError) -> Draw {
            try check(entrants, minimum: 2, format: "a Swiss tournament")
            let most = entrants.count - (entrants.count.isMultiple(of: 2) ? 1 : 0)
            guard rounds >= 1, rounds <= most else {
                throw FormatError(
                    .invalidOption,
                    "a Swiss of \(entrants.count) teams has 1 to \(most) rounds (every team meets a new one each round), not \(rounds)"
                )
            }
            let group = Group(id: "S", name: "Swiss", teams: entrants.map(\.id))
            var draw = try firstRound(entrants: entrants, prefix: prefix, pairing: pairing, roundName: roundName).draw
            let perRound = entrants.count / 2
            for round in stride(from: 2, through: rounds, by: 1) {
                let name = "\(roundName) \(round)"
                draw.rounds.append(name)
                for pairing in 1...perRound {
                    draw.games.append(
                        ScheduledGame(
                            id: GameID("\(prefix)-R\(round)-\(pairing)"),
                            home: .swissPairing(group: group.id, round: round, pairing: pairing, side: .home),
                            away: .swissPairing(group: group.id, round: round, pairing: pairing, side: .away), group: group.id,
                            round: name))
                }
            }
            for index in draw.games.indices { draw.games[index].group = group.id }
            try checkIDs(draw.games)
            draw.groups = [group]
            return draw
        }

        /// Round `round` (2 or later), paired from every result so far and the byes given so far
        /// (a team once for each bye). Pass the results of every game of the earlier rounds.
        public static func nextRound(
            entrants: [Entrant], results: [SwissResult], byes: [TeamID], round: Int, prefix: String,
            roundName: String = "Round"
        ) throws(FormatError) -> SwissRound {
            try check(entrants, minimum: 2, format: "a Swiss tournament")
            guard round >= 1 else { throw FormatError(.invalidOption, "a Swiss round is numbered from 1, not \(round)") }
            for result in results where result.home == result.away {
                throw FormatError(.invalidOption, "a result pairs team \(result.home) with itself")
            }
            let table = standings(entrants: entrants, results: results, byes: byes)
            let pairing = SwissPairing(table: table)
            let (pairs, bye, rematches) = pairing.pair()
            let teams = table.map(\.team)
            let homeGames = table.map(\.homeGames)
            let oriented = pairs.map { a, b in homeGames[b] < homeGames[a] ? (teams[b], teams[a]) : (teams[a], teams[b]) }
            return try makeRound(
                pairs: oriented, bye: bye.map { teams[$0] }, rematches: Set(rematches.map { Set([teams[$0.0], teams[$0.1]]) }),
                number: round, prefix: prefix, roundName: roundName)
        }

        /// The entrants ranked as the next round pairs them: wins (byes included), then points
        /// difference (forfeits left out), then seed. Results of teams no longer entered count
        /// for their opponents.
        public static func standings(entrants: [Entrant], results: [SwissResult], byes: [TeamID]) -> [SwissStanding] {
            var rows: [TeamID: SwissStanding] = [:]
            for (index, entrant) in entrants.enumerated() where rows[entrant.id] == nil {
                rows[entrant.id] = SwissStanding(
                    team: entrant.id, seed: index + 1, wins: 0, losses: 0, byes: 0, pointDifference: 0, homeGames: 0,
                    opponents: [])
            }
            for team in byes {
                rows[team]?.byes += 1
                rows[team]?.wins += 1
            }
            for result in results {
                let winner = result.winner
                for (team, opponent, scored, conceded) in [
                    (result.home, result.away, result.homeScore, result.awayScore),
                    (result.away, result.home, result.awayScore, result.homeScore),
                ] {
                    guard var row = rows[team] else { continue }
                    row.opponents.insert(opponent)
                    if team == result.home { row.homeGames += 1 }
                    if winner == team {
                        row.wins += 1
                    } else if winner != nil {
                        row.losses += 1
                    }
                    if !result.forfeit { row.pointDifference += scored - conceded }
                    rows[team] = row
                }
            }
            return rows.values.sorted { a, b in
                if a.wins != b.wins { return a.wins > b.wins }
                if a.pointDifference != b.pointDifference { return a.pointDifference > b.pointDifference }
                return a.seed < b.seed
            }
        }

        private static func makeRound(
            pairs: [(TeamID, TeamID)], bye: TeamID?, rematches: Set<Set<TeamID>>, number: Int, prefix: String,
            roundName: String
        ) throws(FormatError) -> SwissRound {
            let name = "\(roundName) \(number)"
            let games = pairs.enumerated().map { index, pair in
                ScheduledGame(
                    id: GameID("\(prefix)-R\(number)-\(index + 1)"), home: .team(pair.0), away: .team(pair.1), round: name)
            }
            try checkIDs(games)
            let repeated = games.filter { game in
                guard case .team(let home) = game.home, case .team(let away) = game.away else { return false }
                return rematches.contains([home, away])
            }
            return SwissRound(draw: Draw(games: games, rounds: [name]), bye: bye, rematches: repeated.map(\.id))
        }
    }
}

/// The pairing of one Swiss round over teams in rank order (0 the best): who may meet, and the
/// preferred pairing that keeps every constraint it can.
struct SwissPairing {
    /// Teams in rank order, as indices.
    let count: Int
    /// Whether two teams (indices) have not met.
    let fresh: [[Bool]]
    /// Teams that may have the bye: those with the fewest byes.
    let byeCandidates: [Bool]

    init(table: [SwissStanding]) {
        count = table.count
        let index = Dictionary(uniqueKeysWithValues: table.enumerated().map { ($1.team, $0) })
        var fresh = Array(repeating: Array(repeating: true, count: table.count), count: table.count)
        for (a, row) in table.enumerated() {
            fresh[a][a] = false
            for opponent in row.opponents {
                if let b = index[opponent] {
                    fresh[a][b] = false
                    fresh[b][a] = false
                }
            }
        }
        self.fresh = fresh
        let fewest = table.map(\.byes).min() ?? 0
        byeCandidates = table.map { $0.byes == fewest }
    }

    init(fresh: [[Bool]], byeCandidates: [Bool]) {
        count = fresh.count
        self.fresh = fresh
        self.byeCandidates = byeCandidates
    }

    /// The round's pairs (better-ranked first), its bye, and the pairs that are rematches.
    func pair() -> (pairs: [(Int, Int)], bye: Int?, rematches: [(Int, Int)]) {
        // With an odd count a phantom team (index `count`) takes the bye's place: it may meet
        // only the teams that may have the bye, and it chooses first, from the lowest-ranked up.
        let odd = !count.isMultiple(of: 2)
        let phantom = odd ? count : nil
        let size = count + (odd ? 1 : 0)
        var graph = MatchingGraph(size: size)
        for a in 0..<count {
            for b in (a + 1)..<count where fresh[a][b] { graph.connect(a, b) }
            if let phantom, byeCandidates[a] { graph.connect(a, phantom) }
        }
        if let pairs = preferred(&graph, everyone: Array(0..<size), phantom: phantom) {
            return split(pairs, phantom: phantom, rematches: [])
        }
        return fewestRematches(graph, phantom: phantom)
    }

    /// The preferred perfect matching of `vertices` in `graph`, or nil when there is none: the
    /// phantom (if any) meets the lowest-ranked team it can, then each best-ranked team left
    /// the next-ranked it can, such that the rest can still be paired.
    private func preferred(_ graph: inout MatchingGraph, everyone vertices: [Int], phantom: Int?) -> [(Int, Int)]? {
        graph.restrict(to: vertices)
        guard graph.completeMatching(preferring: vertices.filter { $0 != phantom }) else { return nil }
        var pairs: [(Int, Int)] = []
        var unpaired = vertices.filter { $0 != phantom }
        if let phantom {
            for team in unpaired.reversed() where graph.tryFix(phantom, team) {
                pairs.append((team, phantom))
                unpaired.removeAll { $0 == team }
                break
            }
        }
        while let top = unpaired.first {
            // A perfect matching exists, so some choice succeeds (the current mate at worst).
            guard let partner = unpaired.dropFirst().first(where: { graph.tryFix(top, $0) }) else {
                preconditionFailure("a perfect matching has a partner for every team")
            }
            pairs.append((top, partner))
            unpaired.removeAll { $0 == top || $0 == partner }
        }
        return pairs
    }

    /// When every pairing repeats a game: the bye to the lowest-ranked candidate that leaves
    /// the most teams pairable anew, those paired as preferred, and the rest in rank order.
    private func fewestRematches(_ graph: MatchingGraph, phantom: Int?) -> (
        pairs: [(Int, Int)], bye: Int?, rematches: [(Int, Int)]
    ) {
        var bye: Int?
        if phantom != nil {
            var best: (team: Int, size: Int)?
            for team in (0..<count).reversed() where byeCandidates[team] {
                var trial = graph
                trial.restrict(to: (0..<count).filter { $0 != team })
                let size = trial.maximumMatching()
                if best == nil || size > best!.size { best = (team, size) }
            }
            bye = best?.team
        }
        var trial = graph
        let players = (0..<count).filter { $0 != bye }
        trial.restrict(to: players)
        _ = trial.maximumMatching()
        let left = players.filter { trial.mate[$0] == nil }
        let matched = players.filter { trial.mate[$0] != nil }
        var rematches: [(Int, Int)] = []
        for index in stride(from: 0, to: left.count - 1, by: 2) { rematches.append((left[index], left[index + 1])) }
        var pairs = preferred(&trial, everyone: matched, phantom: nil) ?? []
        pairs += rematches
        pairs.sort { min($0.0, $0.1) < min($1.0, $1.1) }
        return (pairs, bye, rematches)
    }

    private func split(_ pairs: [(Int, Int)], phantom: Int?, rematches: [(Int, Int)]) -> (
        pairs: [(Int, Int)], bye: Int?, rematches: [(Int, Int)]
    ) {
        let bye = pairs.first { $0.1 == phantom }?.0
        return (pairs.filter { $0.1 != phantom }, bye, rematches)
    }
}

/// A general graph's matching by Edmonds' blossom algorithm (augmenting paths through odd
/// cycles), for the pairing's question: can the teams left still all be paired anew?
struct MatchingGraph {
    let size: Int
    private(set) var adjacent: [[Int]]
    private var isEdge: [[Bool]]
    private var active: [Bool]
    private(set) var mate: [Int?]

    init(size: Int) {
        self.size = size
        adjacent = Array(repeating: [], count: size)
        isEdge = Array(repeating: Array(repeating: false, count: size), count: size)
        active = Array(repeating: true, count: size)
        mate = Array(repeating: nil, count: size)
    }

    mutating func connect(_ a: Int, _ b: Int) {
        guard !isEdge[a][b] else { return }
        isEdge[a][b] = true
        isEdge[b][a] = true
        adjacent[a].append(b)
        adjacent[b].append(a)
    }

    /// Only these vertices take part from now on; the matching starts empty.
    mutating func restrict(to vertices: [Int]) {
        active = Array(repeating: false, count: size)
        for vertex in vertices { active[vertex] = true }
        mate = Array(repeating: nil, count: size)
    }

    /// A maximum matching of the active vertices; returns its size.
    mutating func maximumMatching(preferring order: [Int]? = nil) -> Int {
        let order = order ?? (0..<size).filter { active[$0] }
        // A greedy start in the preferred order (often already perfect), then augmenting paths.
        for a in order where active[a] && mate[a] == nil {
            if let b = order.first(where: { $0 != a && active[$0] && mate[$0] == nil && isEdge[a][$0] }) {
                mate[a] = b
                mate[b] = a
            }
        }
        for vertex in 0..<size where active[vertex] && mate[vertex] == nil { _ = augment(from: vertex) }
        return (0..<size).filter { active[$0] && mate[$0] != nil }.count / 2
    }

    /// Whether the active vertices can all be matched; leaves such a matching when they can.
    mutating func completeMatching(preferring order: [Int]) -> Bool {
        let activeCount = (0..<size).filter { active[$0] }.count
        return 2 * maximumMatching(preferring: order + (0..<size).filter { active[$0] && !order.contains($0) }) == activeCount
    }

    /// With a perfect matching of the active vertices: takes `a` and `b` out as a pair if the
    /// others can still all be matched (and returns true), else changes nothing.
    mutating func tryFix(_ a: Int, _ b: Int) -> Bool {
        guard active[a], active[b], isEdge[a][b] else { return false }
        if mate[a] == b {
            active[a] = false
            active[b] = false
            return true
        }
        let saved = mate
        guard let x = mate[a], let y = mate[b] else { return false }
        mate[a] = b
        mate[b] = a
        mate[x] = nil
        mate[y] = nil
        active[a] = false
        active[b] = false
        // Two vertices are left unmatched; an augmenting path between them repairs the matching.
        if augment(from: x) { return true }
        mate = saved
        active[a] = true
        active[b] = true
        return false
    }

    /// Finds an augmenting path from the unmatched `root` and flips it; false if there is none.
    private mutating func augment(from root: Int) -> Bool {
        var base = Array(0..<size)
        var parent: [Int?] = Array(repeating: nil, count: size)
        var used = Array(repeating: false, count: size)
        var queue = [root]
        var head = 0
        used[root] = true

        func lowestCommonAncestor(_ a: Int, _ b: Int) -> Int {
            var seen = Array(repeating: false, count: size)
            var a = a
            while true {
                a = base[a]
                seen[a] = true
                guard let next = mate[a], let up = parent[next] else { break }
                a = up
            }
            var b = b
            while true {
                b = base[b]
                if seen[b] { return b }
                guard let next = mate[b], let up = parent[next] else { return b }
                b = up
            }
        }
        func markPath(_ vertex: Int, _ blossomBase: Int, _ child: Int, _ inBlossom: inout [Bool]) {
            var vertex = vertex
            var child = child
            while base[vertex] != blossomBase {
                let partner = mate[vertex]!
                inBlossom[base[vertex]] = true
                inBlossom[base[partner]] = true
                parent[vertex] = child
                child = partner
                vertex = parent[partner]!
            }
        }

        while head < queue.count {
            let vertex = queue[head]
            head += 1
            for to in adjacent[vertex] where active[to] {
                if base[vertex] == base[to] || mate[vertex] == to { continue }
                if to == root || (mate[to].flatMap { parent[$0] } != nil) {
                    // An odd cycle: shrink it into its base and search on from every vertex in it.
                    let blossomBase = lowestCommonAncestor(vertex, to)
                    var inBlossom = Array(repeating: false, count: size)
                    markPath(vertex, blossomBase, to, &inBlossom)
                    markPath(to, blossomBase, vertex, &inBlossom)
                    for index in 0..<size where active[index] && inBlossom[base[index]] {
                        base[index] = blossomBase
                        if !used[index] {
                            used[index] = true
                            queue.append(index)
                        }
                    }
                } else if parent[to] == nil {
                    parent[to] = vertex
                    guard let next = mate[to] else {
                        // Flip the path from `to` back to the root.
                        var end: Int? = to
                        while let current = end {
                            let previous = parent[current]!
                            let further = mate[previous]
                            mate[current] = previous
                            mate[previous] = current
                            end = further
                        }
                        return true
                    }
                    used[next] = true
                    queue.append(next)
                }
            }
        }
        return false
    }
}
