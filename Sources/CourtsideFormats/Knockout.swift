public import CourtsideModel

extension Formats {
    /// Pools followed by a knockout of their best: the pools' draw with the knockout's games.
    ///
    /// The top `top` of each pool qualify as named slots (A1 is `.groupRank(group: "A", rank: 1)`),
    /// and with `bestOfNextRank` the best that many of the teams ranked `top + 1` across all
    /// pools (``Slot/bestOfRank(rank:place:groups:)``: "the best third-placed teams"). They are
    /// seeded rank by rank (the pool winners first) into a
    /// ``singleElimination(_:prefix:thirdPlace:fifthToEighth:)`` bracket, byes to the pool
    /// winners. Within a rank, qualifiers take the places that keep them farthest from their
    /// pool's other qualifiers: never in the same first-round game, and with 4 pools and the
    /// top 2, A1 and A2 meet in the final at the earliest. A best-of-rank qualifier's pool is
    /// not known until the pools end, so nothing keeps it from its pool's winner.
    public static func knockout(
        after pools: Draw, top: Int, bestOfNextRank: Int = 0, prefix: String, thirdPlace: Bool = true,
        fifthToEighth: Bool = false
    ) throws(FormatError) -> Draw {
        guard !pools.groups.isEmpty else { throw FormatError(.invalidOption, "a knockout after pools needs pools") }
        let smallest = pools.groups.map(\.teams.count).min() ?? 0
        guard top >= 1, top <= smallest else {
            throw FormatError(
                .invalidOption, "the top \(top) of each pool cannot qualify: the smallest pool has \(smallest) teams")
        }
        let withNext = pools.groups.filter { $0.teams.count > top }.map(\.id)
        guard bestOfNextRank >= 0, bestOfNextRank <= withNext.count else {
            throw FormatError(
                .invalidOption,
                "the best \(bestOfNextRank) of the teams ranked \(top + 1) cannot qualify: \(withNext.count) pools have one")
        }
        let count = pools.groups.count * top + bestOfNextRank
        guard count >= 2 else { throw FormatError(.tooFewTeams, "a knockout needs at least 2 qualifiers, not \(count)") }

        // Seeds rank by rank; each rank's pools snake (A..D, then D..A), as pools are dealt.
        var tiers: [[(slot: Slot, pool: String?)]] = []
        for rank in 1...top {
            let groups = rank.isMultiple(of: 2) ? pools.groups.reversed() : pools.groups
            tiers.append(groups.map { (.groupRank(group: $0.id, rank: rank), $0.id) })
        }
        if bestOfNextRank > 0 {
            tiers.append((1...bestOfNextRank).map { (.bestOfRank(rank: top + 1, place: $0, groups: withNext), nil) })
        }
        let size = bracketSize(count)
        let order = bracketOrder(size)
        var placeOfSeed = Array(repeating: 0, count: size + 1)
        for (place, seed) in order.enumerated() { placeOfSeed[seed] = place }
        var positions: [BracketSeat?] = Array(repeating: nil, count: size)
        var placed: [String: [Int]] = [:]
        var firstSeed = 1
        for tier in tiers {
            let seeds = Array(firstSeed..<(firstSeed + tier.count))
            let places = seeds.map { placeOfSeed[$0] }
            // Cost of a qualifier at a place: the earlier it could meet a qualifier of its own
            // pool, the dearer (four times for each round earlier); then, below any meeting, a
            // little for leaving its natural seed, so that nothing moves without a reason.
            let rounds = size.trailingZeroBitCount
            let spread = tier.count * tier.count + 1
            let cost = tier.enumerated().map { index, qualifier in
                let mates = qualifier.pool.flatMap { placed[$0] } ?? []
                return places.indices.map { column in
                    let clash = mates.reduce(0) { sum, other in sum + 1 << (2 * (rounds - meetingRound(places[column], other))) }
                    return clash * spread + abs(index - column)
                }
            }
            for (index, column) in cheapestAssignment(cost).enumerated() {
                let qualifier = tier[index]
                positions[places[column]] = BracketSeat(slot: qualifier.slot, seed: seeds[column])
                if let pool = qualifier.pool { placed[pool, default: []].append(places[column]) }
            }
            firstSeed += tier.count
        }
        let (games, rounds) = bracket(positions, prefix: prefix, thirdPlace: thirdPlace, fifthToEighth: fifthToEighth)
        try checkIDs(games)
        let poolGames = Set(pools.games.map(\.id))
        if let clash = games.first(where: { poolGames.contains($0.id) }) {
            throw FormatError(.invalidPrefix, "game id \(clash.id) is a pool game's already")
        }
        var draw = pools
        draw.games += games
        draw.rounds += rounds.filter { !pools.rounds.contains($0) }
        return draw
    }

    /// The round (1 = the first) in which the teams at two places of a bracket would meet.
    static func meetingRound(_ a: Int, _ b: Int) -> Int {
        Int.bitWidth - (a ^ b).leadingZeroBitCount
    }
}
