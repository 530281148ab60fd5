public import CourtsideModel

extension Formats {
    /// A knockout bracket of the entrants in seed order, with byes to the top seeds.
    ///
    /// The bracket is the next power of two in size and seeded in the standard order (1 v 16,
    /// 8 v 9, 5 v 12, 4 v 13, ...: seeds 1 and 2 meet in the final at the earliest, the top four
    /// in the semi-finals); the seeds it has no team for are byes, which fall to the top seeds,
    /// who then start in the second round. The better seed is at home. With `thirdPlace`, the
    /// semi-finals' losers play for third (when there are two semi-finals); with `fifthToEighth`,
    /// the quarter-finals' losers play for places 5 to 8 (four losers: two games, then 5th and
    /// 7th place; two losers: one game for 5th). Games are `<prefix>-final`, `<prefix>-sf1`,
    /// `<prefix>-qf1`, `<prefix>-r16-1`, ..., `<prefix>-3rd`, `<prefix>-5-8-1`, `<prefix>-5th`, `<prefix>-7th`.
    public static func singleElimination(
        _ entrants: [Entrant], prefix: String, thirdPlace: Bool = true, fifthToEighth: Bool = false
    ) throws(FormatError) -> Draw {
        try check(entrants, minimum: 2, format: "a knockout")
        let size = bracketSize(entrants.count)
        let positions = bracketOrder(size).map { seed in
            seed <= entrants.count ? BracketSeat(slot: .team(entrants[seed - 1].id), seed: seed) : nil
        }
        let (games, rounds) = bracket(positions, prefix: prefix, thirdPlace: thirdPlace, fifthToEighth: fifthToEighth)
        try checkIDs(games)
        return Draw(games: games, rounds: rounds)
    }

    /// The smallest power of two at least `count` (and at least 2).
    static func bracketSize(_ count: Int) -> Int {
        var size = 2
        while size < count { size *= 2 }
        return size
    }

    /// The seeds (1-based) of a bracket's places, top to bottom: 1, 16, 9, 8, 5, 12, 13, 4, ...
    /// Each round's pairs add up to the bracket's size plus one, and each half holds the seeds
    /// that the round before would have paired with the half's own seeds.
    public static func bracketOrder(_ size: Int) -> [Int] {
        var order = [1]
        var span = 1
        while span < size {
            span *= 2
            order = order.enumerated().flatMap { index, seed in
                // Alternating keeps the better seeds of neighbouring pairs apart until late.
                index.isMultiple(of: 2) ? [seed, span + 1 - seed] : [span + 1 - seed, seed]
            }
        }
        return order
    }

    /// The round a bracket of `size` places would play with `left` teams in it.
    static func knockoutRound(left: Int) -> (name: String, id: String) {
        switch left {
        case 2: ("Final", "final")
        case 4: ("Semi-finals", "sf")
        case 8: ("Quarter-finals", "qf")
        default: ("Round of \(left)", "r\(left)-")
        }
    }

    /// The games of a bracket whose places hold these seats (nil: a bye), and its rounds in
    /// playing order, placement games included.
    static func bracket(_ positions: [BracketSeat?], prefix: String, thirdPlace: Bool, fifthToEighth: Bool)
        -> (games: [ScheduledGame], rounds: [String])
    {
        var games: [ScheduledGame] = []
        var rounds: [String] = []
        // The better seed at home; the winner's seat stands for the better seed, the loser's for
        // the other, so that placement games seat their teams by the seeds they are expected to be.
        func play(_ id: String, _ a: BracketSeat, _ b: BracketSeat, round: String) -> (winner: BracketSeat, loser: BracketSeat) {
            let (home, away) = a.seed <= b.seed ? (a, b) : (b, a)
            let id = GameID("\(prefix)-\(id)")
            games.append(ScheduledGame(id: id, home: home.slot, away: away.slot, round: round))
            return (BracketSeat(slot: .winner(of: id), seed: home.seed), BracketSeat(slot: .loser(of: id), seed: away.seed))
        }
        var current = positions
        var beaten: [String: [BracketSeat]] = [:]
        var champion: (winner: BracketSeat, loser: BracketSeat)?
        var left = positions.count
        while left >= 2 {
            let round = knockoutRound(left: left)
            var next: [BracketSeat?] = []
            var losers: [BracketSeat] = []
            for pair in stride(from: 0, to: current.count, by: 2) {
                guard let a = current[pair], let b = current[pair + 1] else {
                    // A bye: the seat goes on as it is. Byes pair only with real seats.
                    next.append(current[pair] ?? current[pair + 1])
                    continue
                }
                if left == 2 {
                    // The final is played last, after the placement games.
                    champion = (a, b)
                    continue
                }
                let result = play("\(round.id)\(losers.count + 1)", a, b, round: round.name)
                next.append(result.winner)
                losers.append(result.loser)
            }
            if !losers.isEmpty { rounds.append(round.name) }
            beaten[round.id] = losers
            current = next
            left /= 2
            if left == 4, fifthToEighth, let quarters = beaten["qf"], quarters.count == 4 {
                // The quarter-finals' losers, beside the semi-finals.
                rounds.append("Places 5-8")
                let first = play("5-8-1", quarters[0], quarters[1], round: "Places 5-8")
                let second = play("5-8-2", quarters[2], quarters[3], round: "Places 5-8")
                beaten["5-8"] = [first.winner, second.winner, first.loser, second.loser]
            }
        }
        if fifthToEighth, let classified = beaten["5-8"] {
            rounds.append("Places 5 and 7")
            _ = play("7th", classified[2], classified[3], round: "Places 5 and 7")
            _ = play("5th", classified[0], classified[1], round: "Places 5 and 7")
        } else if fifthToEighth, let quarters = beaten["qf"], quarters.count == 2 {
            rounds.append("Fifth place")
            _ = play("5th", quarters[0], quarters[1], round: "Fifth place")
        }
        if thirdPlace, let semis = beaten["sf"], semis.count == 2 {
            rounds.append("Third place")
            _ = play("3rd", semis[0], semis[1], round: "Third place")
        }
        if let (a, b) = champion {
            rounds.append("Final")
            _ = play("final", a, b, round: "Final")
        }
        return (games, rounds)
    }
}

/// A place in a bracket: who fills it, and the seed it stands for (1 = best).
struct BracketSeat: Hashable, Sendable {
    var slot: Slot
    var seed: Int
}
