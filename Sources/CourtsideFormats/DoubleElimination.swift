public import CourtsideModel

/// A game that is played only when a condition holds, which slots cannot say: a grand final
/// reset is played only when the losers' bracket champion wins the first grand final.
///
/// The draw's game carries its condition (``ScheduledGame/playedIf``): the planner keeps a time
/// for it (after the game its condition names), and the model creates it only once the
/// condition holds, and leaves it out of the bracket, and so of the estimates, once it cannot.
public struct ConditionalGame: Hashable, Sendable, CustomStringConvertible {
    public var game: GameID
    public var condition: PlayCondition

    public init(game: GameID, condition: PlayCondition) {
        self.game = game
        self.condition = condition
    }

    public var description: String { "\(game) is played only if \(condition)" }
}

/// A double elimination draw: the games, and the one game (the grand final reset, if any) that
/// is played only if a result calls for it.
public struct DoubleEliminationDraw: Hashable, Sendable {
    public var draw: Draw
    /// Games played only when their condition holds: the grand final reset, when drawn.
    public var conditionalGames: [ConditionalGame]
    /// The winners' bracket games, round by round (byes make no game).
    public var winnersBracket: [[GameID]]
    /// The losers' bracket games, round by round; empty for two teams.
    public var losersBracket: [[GameID]]
    /// The first grand final: the winners' bracket champion at home, the losers' away.
    public var grandFinal: GameID
    /// The reset, played only if the away team wins ``grandFinal``; nil when not drawn.
    public var reset: GameID?

    /// The condition of a game, or nil when it is always played.
    public func condition(of game: GameID) -> PlayCondition? {
        conditionalGames.first { $0.game == game }?.condition
    }
}

extension Formats {
    /// The largest double elimination bracket this draws.
    public static let doubleEliminationMaximum = 128

    /// Double elimination for 2 to 128 teams: a winners' bracket in the standard order with byes
    /// to the top seeds, a losers' bracket that every winners' bracket loser drops into once, a
    /// grand final, and a reset if `reset` (played only if the losers' champion wins the first).
    ///
    /// Entrants come in seed order. Games are `<prefix>-W<round>-<n>`, `<prefix>-L<round>-<n>`,
    /// `<prefix>-GF` and `<prefix>-GF2`; rounds run in an order that never waits on a later
    /// one ("Winners' round 1", "Winners' round 2", "Losers' round 1", ..., "Grand final").
    ///
    /// Losers' round 1 pairs the first round's losers as they stand. The losers of each later
    /// winners' round r+1 drop in reversed order when r is odd and in natural order when r is
    /// even, as common practice alternates them, so that a dropped team does not meet at once a
    /// team it beat. Where another common order (a half shift, a reversed half shift, a pair
    /// flip) leaves fewer losers' games, in that round and the next, in which the two teams can
    /// have met in the winners' bracket, that order is taken. Then no loser of a winners' round
    /// before the quarter-finals can meet at once a team it met; later that cannot be avoided
    /// in every game: for 128 teams, 10 of the 126 losers' games can be such a rematch (32 with
    /// the alternation alone), for 64 teams 6 of 62 (16), for 8 teams the last 2 of 6.
    public static func doubleElimination(_ entrants: [Entrant], prefix: String, reset: Bool = true) throws(FormatError)
        -> DoubleEliminationDraw
    {
        try check(entrants, minimum: 2, maximum: doubleEliminationMaximum, format: "double elimination")
        var builder = DoubleEliminationBuilder(teams: entrants.map(\.id), prefix: prefix)
        let result = builder.build(reset: reset)
        try checkIDs(result.draw.games)
        return result
    }
}

/// The order in which one round's winners' bracket losers meet the losers' bracket survivors:
/// survivor q meets dropped loser `indices[q]`.
enum DropOrder: CaseIterable {
    case natural, reverse, halfShift, reverseHalfShift, pairFlip

    func indices(_ count: Int) -> [Int] {
        let natural = Array(0..<count)
        let half = count / 2
        switch self {
        case .natural: return natural
        case .reverse: return natural.reversed()
        case .halfShift: return Array(natural[half...] + natural[..<half])
        case .reverseHalfShift: return Array(natural[..<half].reversed() + natural[half...].reversed())
        case .pairFlip: return natural.map { $0 ^ 1 < count ? $0 ^ 1 : $0 }
        }
    }
}

/// Builds a double elimination bracket over `size` places (the next power of two), byes where
/// the standard order puts seeds beyond the count.
///
/// Each place in the bracket is a `Feed`: the slot a team comes from and every team that can
/// arrive there with the winners' round it lost in, which is what keeps rematches apart.
struct DoubleEliminationBuilder {
    /// Who can arrive through a slot: team (index in seed order) and the winners' round it
    /// lost (0 while it has not lost).
    struct Arrival: Hashable {
        var team: Int
        var lostInRound: Int
    }

    struct Feed {
        var slot: Slot
        var arrivals: [Arrival]
    }

    let teams: [TeamID]
    let prefix: String
    let size: Int
    /// Each team's place in the standard bracket order (0 ..< size).
    let place: [Int]
    private(set) var games: [ScheduledGame] = []
    private(set) var winnersRounds: [[GameID]] = []
    private(set) var losersRounds: [[GameID]] = []
    /// Whether drops only alternate, the common practice this improves on (for comparison in tests).
    var alternationOnly = false
    /// The order each drop took, from winners' round 2's losers on.
    private(set) var dropOrders: [DropOrder] = []

    init(teams: [TeamID], prefix: String) {
        self.teams = teams
        self.prefix = prefix
        self.size = Formats.bracketSize(teams.count)
        var place = Array(repeating: 0, count: teams.count)
        for (position, seed) in Self.seeds(inBracketOf: self.size).enumerated() where seed < teams.count {
            place[seed] = position
        }
        self.place = place
    }

    /// Seeds (0-based) in the standard bracket order of a single elimination bracket
    /// (``Formats/bracketOrder(_:)``).
    static func seeds(inBracketOf size: Int) -> [Int] { Formats.bracketOrder(size).map { $0 - 1 } }

    /// The round the two teams would meet in, in the winners' bracket (1 for a first-round pair).
    func meetingRound(_ a: Int, _ b: Int) -> Int { Formats.meetingRound(place[a], place[b]) }

    /// A winners' bracket pair with the better seed that can arrive at home, as a single
    /// elimination bracket seats it; a bye as it is.
    static func betterSeedFirst(_ a: Feed?, _ b: Feed?) -> (Feed?, Feed?) {
        guard let a, let b else { return (a, b) }
        func best(_ feed: Feed) -> Int { feed.arrivals.map(\.team).min() ?? .max }
        return best(a) <= best(b) ? (a, b) : (b, a)
    }

    /// Whether a game between the two feeds can be a rematch of a winners' bracket game.
    func canRematch(_ a: Feed, _ b: Feed) -> Bool {
        for x in a.arrivals {
            for y in b.arrivals where x.team != y.team {
                let round = meetingRound(x.team, y.team)
                if round <= x.lostInRound && round <= y.lostInRound { return true }
            }
        }
        return false
    }

    private func id(_ name: String) -> GameID { GameID("\(prefix)-\(name)") }

    mutating func build(reset: Bool) -> DoubleEliminationDraw {
        let rounds = size.trailingZeroBitCount
        // Games carry their round's key ("W2", "L3") until the whole bracket is known.
        var winners: [Feed?] = Self.seeds(inBracketOf: size).map { seed in
            seed < teams.count ? Feed(slot: .team(teams[seed]), arrivals: [Arrival(team: seed, lostInRound: 0)]) : nil
        }
        var dropped: [[Feed?]] = []
        // The winners' bracket, round by round; each round's losers wait to drop.
        for round in 1...rounds {
            let results = playRound(
                stride(from: 0, to: winners.count, by: 2).map { Self.betterSeedFirst(winners[$0], winners[$0 + 1]) },
                key: "W\(round)",
                losesIn: round)
            winnersRounds.append(results.ids)
            winners = results.winners
            dropped.append(results.losers)
        }
        // The losers' bracket: round 1 pairs the first round's losers; then each winners'
        // round's losers drop in, and the survivors play each other down to one.
        var survivors = dropped[0]
        if rounds >= 2 {
            survivors = playLosersRound(pairs(survivors))
            for drop in 1..<rounds {
                let order = chooseDropOrder(drop: drop, losers: dropped[drop], survivors: survivors)
                dropOrders.append(order)
                let indices = order.indices(survivors.count)
                survivors = playLosersRound(survivors.indices.map { (dropped[drop][indices[$0]], survivors[$0]) })
                if survivors.count > 1 { survivors = playLosersRound(pairs(survivors)) }
            }
        }
        // With two teams there is no losers' bracket: the first game's loser is its champion.
        guard let winnersChampion = winners[0], let losersChampion = survivors[0] else {
            preconditionFailure("a bracket of two or more teams has both champions")
        }
        let grandFinal = id("GF")
        games.append(ScheduledGame(id: grandFinal, home: winnersChampion.slot, away: losersChampion.slot, round: "GF"))
        var conditional: [ConditionalGame] = []
        var resetID: GameID?
        if reset {
            let game = id("GF2")
            resetID = game
            // The same two teams again, the winners' champion (the first final's loser) at home.
            var resetGame = ScheduledGame(id: game, home: .loser(of: grandFinal), away: .winner(of: grandFinal), round: "GF2")
            resetGame.playedIf = .won(game: grandFinal, by: .away)
            games.append(resetGame)
            conditional.append(ConditionalGame(game: game, condition: .won(game: grandFinal, by: .away)))
        }
        return DoubleEliminationDraw(
            draw: named(reset: reset), conditionalGames: conditional, winnersBracket: winnersRounds,
            losersBracket: losersRounds, grandFinal: grandFinal, reset: resetID)
    }

    private func pairs(_ feeds: [Feed?]) -> [(Feed?, Feed?)] {
        stride(from: 0, to: feeds.count, by: 2).map { (feeds[$0], feeds[$0 + 1]) }
    }

    /// One round's games; a pair with one team is a bye (no game), with none, nobody.
    private mutating func playRound(_ pairs: [(Feed?, Feed?)], key: String, losesIn lostRound: Int?) -> (
        ids: [GameID], winners: [Feed?], losers: [Feed?]
    ) {
        var ids: [GameID] = []
        var winners: [Feed?] = []
        var losers: [Feed?] = []
        for (home, away) in pairs {
            guard let home, let away else {
                winners.append(home ?? away)
                losers.append(nil)
                continue
            }
            let game = id("\(key)-\(ids.count + 1)")
            ids.append(game)
            games.append(ScheduledGame(id: game, home: home.slot, away: away.slot, round: key))
            let arrivals = Array(Set(home.arrivals + away.arrivals))
            winners.append(Feed(slot: .winner(of: game), arrivals: arrivals))
            // Whoever loses a winners' game lost in that round; in the losers' bracket, earlier.
            let lost = arrivals.map { Arrival(team: $0.team, lostInRound: $0.lostInRound == 0 ? lostRound ?? 0 : $0.lostInRound) }
            losers.append(Feed(slot: .loser(of: game), arrivals: lost))
        }
        return (ids, winners, losers)
    }

    /// A losers' round; one of byes only (losers' round 1 when byes leave it nobody to play)
    /// takes no number.
    private mutating func playLosersRound(_ pairs: [(Feed?, Feed?)]) -> [Feed?] {
        let results = playRound(pairs, key: "L\(losersRounds.count + 1)", losesIn: nil)
        if !results.ids.isEmpty { losersRounds.append(results.ids) }
        return results.winners
    }

    /// The drop order for the losers of winners' round `drop + 1`: the alternation's unless
    /// another common order leaves fewer games that can be rematches, in this round and the next.
    func chooseDropOrder(drop: Int, losers: [Feed?], survivors: [Feed?]) -> DropOrder {
        let alternation: [DropOrder] = drop % 2 == 1 ? [.reverse, .natural] : [.natural, .reverse]
        let candidates = alternationOnly ? [alternation[0]] : alternation + [.halfShift, .reverseHalfShift, .pairFlip]
        var best: (order: DropOrder, cost: Int)?
        for order in candidates {
            let indices = order.indices(survivors.count)
            var cost = 0
            var merged: [Feed?] = []
            for (q, survivor) in survivors.enumerated() {
                let loser = losers[indices[q]]
                guard let loser, let survivor else {
                    merged.append(loser ?? survivor)
                    continue
                }
                if canRematch(loser, survivor) { cost += 1 }
                merged.append(Feed(slot: loser.slot, arrivals: Array(Set(loser.arrivals + survivor.arrivals))))
            }
            for pair in stride(from: 0, to: merged.count - 1, by: 2) {
                if let a = merged[pair], let b = merged[pair + 1], canRematch(a, b) { cost += 1 }
            }
            if best == nil || cost < best!.cost { best = (order, cost) }
        }
        return best!.order
    }

    /// The draw with the games' rounds named, the winners' and losers' bracket rounds
    /// interleaved in an order that never waits on a later round.
    private func named(reset: Bool) -> Draw {
        let winnersCount = winnersRounds.count
        var names: [String: String] = [:]
        for round in 1...winnersCount {
            names["W\(round)"] = round == winnersCount ? "Winners' final" : "Winners' round \(round)"
        }
        for round in losersRounds.indices {
            names["L\(round + 1)"] = round == losersRounds.count - 1 ? "Losers' final" : "Losers' round \(round + 1)"
        }
        names["GF"] = "Grand final"
        names["GF2"] = "Grand final reset"
        // Winners' round r+1 then losers' rounds 2r-1 and 2r: the drops of a round wait only on
        // the winners' round before them. (When byes leave losers' round 1 empty, the others are
        // numbered one less and so come no earlier than their drops.)
        var keys = ["W1"]
        for round in 1..<max(winnersCount, 1) {
            keys += ["W\(round + 1)", "L\(2 * round - 1)", "L\(2 * round)"]
        }
        keys += reset ? ["GF", "GF2"] : ["GF"]
        let used = Set(games.compactMap(\.round))
        keys = keys.filter(used.contains)
        let position = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        let ordered = games.enumerated().sorted { a, b in
            let (x, y) = (position[a.element.round!]!, position[b.element.round!]!)
            return x != y ? x < y : a.offset < b.offset
        }.map { game in
            var game = game.element
            game.round = names[game.round!]
            return game
        }
        return Draw(games: ordered, rounds: keys.map { names[$0]! })
    }
}
