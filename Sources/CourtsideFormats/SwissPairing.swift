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
