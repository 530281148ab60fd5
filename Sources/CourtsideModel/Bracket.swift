/// The two teams of a scheduled game, once the results decide them.
/// Games by id, as the tournament's tables read them: a `Dictionary`, or the game library's
/// persistent map of committed games, read without a copy into a `Dictionary`.
public protocol GamesByID {
    subscript(_ id: GameID) -> Game? { get }
}

extension Dictionary: GamesByID where Key == GameID, Value == Game {}

public struct Lineup: Hashable, Sendable {
    public var home: Team
    public var away: Team
}

/// Where a scheduled game stands.
public enum BracketState: String, Codable, Sendable {
    /// At least one team still depends on a result.
    case pending
    /// Both teams are known; the game has not started.
    case ready
    /// Under way.
    case live
    /// Decided.
    case final
}

/// A scheduled game as the results so far fill it.
public struct BracketEntry: Hashable, Codable, Sendable {
    public var game: GameID
    public var round: String?
    public var group: String?
    public var court: String?
    public var start: String?
    public var home: Slot
    public var away: Slot
    public var homeTeam: TeamID?
    public var awayTeam: TeamID?
    public var state: BracketState
    public var score: SideValues?
    public var winner: TeamID?
    /// The game's division, nil when the tournament has none.
    public var division: String?

    public init(
        game: GameID, round: String?, group: String?, court: String?, start: String?, home: Slot, away: Slot,
        homeTeam: TeamID?, awayTeam: TeamID?, state: BracketState, score: SideValues?, winner: TeamID?,
        division: String? = nil
    ) {
        self.game = game
        self.division = division
        self.round = round
        self.group = group
        self.court = court
        self.start = start
        self.home = home
        self.away = away
        self.homeTeam = homeTeam
        self.awayTeam = awayTeam
        self.state = state
        self.score = score
        self.winner = winner
    }

    enum CodingKeys: String, CodingKey {
        case game, round, group, court, start, home, away, state, score, winner, division
        case homeTeam = "home_team"
        case awayTeam = "away_team"
    }
}

extension BracketEntry {
    /// This entry with its game's own state laid over it: the teams the game was given, and
    /// its state (`live` once started, `final` once decided), score and winner.
    ///
    /// The daemon's bracket is made this way, and a display joins the bracket it last received
    /// with its games, which it holds at a later sequence, the same way: the scores then follow
    /// every basket without a bracket message for each (docs/PROTOCOL.md, "Standings and bracket").
    /// A game not created yet (nil) leaves the entry as the slots decided it.
    public func following(_ game: Game?) -> BracketEntry {
        guard let game else { return self }
        var entry = self
        (entry.homeTeam, entry.awayTeam) = (game.setup.home.id, game.setup.away.id)
        entry.state = game.isFinished ? .final : game.hasStarted ? .live : state
        entry.score = game.hasStarted ? game.score : nil
        entry.winner = game.winner.map { game.setup.team($0).id }
        return entry
    }
}

extension Schedule {
    /// The team a slot names given the results, or nil while it is undecided.
    public func resolve(_ slot: Slot, games: some GamesByID, standings: [GroupStandings]) -> TeamID? {
        switch slot {
        case .team(let team): return team
        case .winner(let id):
            guard let game = games[id], game.isFinished, let side = game.winner else { return nil }
            return game.setup.team(side).id
        case .loser(let id):
            guard let game = games[id], game.isFinished, let side = game.winner else { return nil }
            return game.setup.team(side.opponent).id
        case .groupRank(let group, let rank):
            guard let table = standings.first(where: { $0.group == group }), table.complete, rank <= table.rows.count
            else { return nil }
            return table.rows[rank - 1].team
        case .bestOfRank(let rank, let place, let groups):
            return bestOfRank(rank, groups: groups, games: games, standings: standings).dropFirst(place - 1).first
        case .swissPairing:
            // The recorded pairing puts teams in these slots; until then the round is not paired.
            return nil
        }
    }

    /// The teams ranked `rank` in each of `groups`, best first by FIBA 3x3's order across groups
    /// (Article 14): win ratio, then average points scored leaving out the winning scores of
    /// forfeits, then seed, then team id. Empty until every one of the groups is complete.
    public func bestOfRank(_ rank: Int, groups: [String], games: some GamesByID, standings: [GroupStandings]) -> [TeamID] {
        var placed: [(team: TeamID, winRatio: Double, average: Double)] = []
        // The groups' games found in one pass over the schedule, not one pass a group: the
        // bracket resolves every best-of-rank slot at each result.
        let named = Set(groups)
        var scheduled: [String: [GameID]] = [:]
        for game in self.games {
            if let group = game.group, named.contains(group) { scheduled[group, default: []].append(game.id) }
        }
        for group in groups {
            guard let table = standings.first(where: { $0.group == group }), table.complete else { return [] }
            guard rank >= 1, rank <= table.rows.count else { continue }
            let row = table.rows[rank - 1]
            let decided = (scheduled[group] ?? []).compactMap { games[$0] }.filter(\.isFinished)
            let winRatio = row.played == 0 ? 0 : Double(row.won) / Double(row.played)
            placed.append((row.team, winRatio, Self.averagePoints(of: row.team, in: decided)))
        }
        return placed.sorted { a, b in
            if a.winRatio != b.winRatio { return a.winRatio > b.winRatio }
            if a.average != b.average { return a.average > b.average }
            let (seedA, seedB) = (seeds[a.team] ?? .max, seeds[b.team] ?? .max)
            if seedA != seedB { return seedA < seedB }
            return a.team < b.team
        }.map(\.team)
    }

    /// Every scheduled game whose two teams the results have decided.
    public func lineups(_ games: some GamesByID) -> [GameID: Lineup] {
        let standings = standings(games)
        var lineups: [GameID: Lineup] = [:]
        for scheduled in self.games {
            lineups[scheduled.id] = lineup(scheduled, games: games, standings: standings)
        }
        return lineups
    }

    /// The teams of one scheduled game, once the results have decided both; nil for a game not
    /// in the schedule. What a game's start is checked against: the whole schedule's lineups
    /// would read every game for each start (at a thousand games, a second of starts held every
    /// game's commands up).
    public func lineup(of id: GameID, _ games: some GamesByID) -> Lineup? {
        game(id).flatMap { lineup(for: $0, games) }
    }

    /// ``lineup(of:_:)`` of a scheduled game already at hand (finding it by id reads the schedule).
    public func lineup(for scheduled: ScheduledGame, _ games: some GamesByID) -> Lineup? {
        // Standings read every game: only a slot of a group's rank needs them.
        let ranked = [scheduled.home, scheduled.away].contains {
            switch $0 {
            case .groupRank, .bestOfRank: true
            default: false
            }
        }
        return lineup(scheduled, games: games, standings: ranked ? standings(games) : [])
    }

    private func lineup(_ scheduled: ScheduledGame, games: some GamesByID, standings: [GroupStandings]) -> Lineup? {
        // A game played only if a result calls for it has no teams until that result does.
        if let condition = scheduled.playedIf, condition.holds(in: games) != true { return nil }
        guard let home = resolve(scheduled.home, games: games, standings: standings).flatMap({ teams[$0] }),
            let away = resolve(scheduled.away, games: games, standings: standings).flatMap({ teams[$0] }),
            home.id != away.id
        else { return nil }
        return Lineup(home: home, away: away)
    }

    /// The bracket: every scheduled game with the teams known so far and its state; a game
    /// whose condition can no longer hold (``ScheduledGame/playedIf``) is not in it.
    public func bracket(_ games: some GamesByID) -> [BracketEntry] {
        let standings = standings(games)
        return self.games.filter { $0.playedIf?.holds(in: games) != false }.map { scheduled in
            // A conditional game's teams show once its condition is known to hold.
            let known = scheduled.playedIf.map { $0.holds(in: games) == true } ?? true
            let homeTeam = known ? resolve(scheduled.home, games: games, standings: standings) : nil
            let awayTeam = known ? resolve(scheduled.away, games: games, standings: standings) : nil
            let entry = BracketEntry(
                game: scheduled.id, round: scheduled.round, group: scheduled.group, court: scheduled.court,
                start: scheduled.start, home: scheduled.home, away: scheduled.away, homeTeam: homeTeam, awayTeam: awayTeam,
                state: homeTeam != nil && awayTeam != nil ? .ready : .pending, score: nil, winner: nil,
                division: scheduled.division)
            return entry.following(games[scheduled.id])
        }
    }

    /// If replacing a game's state with `changed` would alter the teams of a scheduled game
    /// that has already started, that game's id; the change must then be refused.
    public func lockedDependent(of changed: Game, in games: some GamesByID) -> GameID? {
        let before = lineups(games)
        // Laid over the games: a copy of them to change one would copy every game's state at each
        // retraction.
        let afterLineups = lineups(Overlaid(games: games, changed: changed))
        for scheduled in self.games where scheduled.id != changed.id && before[scheduled.id] != afterLineups[scheduled.id] {
            if games[scheduled.id]?.hasStarted == true { return scheduled.id }
        }
        return nil
    }
}

/// Games with one of them replaced by another state.
private struct Overlaid<Games: GamesByID>: GamesByID {
    let games: Games
    let changed: Game

    subscript(_ id: GameID) -> Game? { id == changed.id ? changed : games[id] }
}
