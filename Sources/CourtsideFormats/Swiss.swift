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
