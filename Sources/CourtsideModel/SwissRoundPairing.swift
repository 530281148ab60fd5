/// One round of a Swiss group as the daemon paired it, from the results of the rounds before:
/// a tournament change of its own, so that the log, not a computation run again later, says
/// who met whom (a team that withdraws afterwards must not re-pair a round already played).
public struct SwissRoundPairing: Hashable, Codable, Sendable {
    /// A game of the round and its two teams.
    public struct PairedGame: Hashable, Codable, Sendable {
        public var game: GameID
        public var home: TeamID
        public var away: TeamID

        public init(game: GameID, home: TeamID, away: TeamID) {
            self.game = game
            self.home = home
            self.away = away
        }
    }

    public var group: String
    public var round: Int
    /// The round's games, each one of the schedule's games of this round
    /// (``Slot/swissPairing(group:round:pairing:side:)``); a game of the round not listed is
    /// not needed (fewer teams than drawn) and leaves the schedule.
    public var games: [PairedGame]
    /// The team that sits the round out, counted a win, with an odd count.
    public var bye: TeamID?

    public init(group: String, round: Int, games: [PairedGame], bye: TeamID?) {
        self.group = group
        self.round = round
        self.games = games
        self.bye = bye
    }
}

extension Schedule {
    /// The lowest round of a Swiss group still to be paired, with its games in pairing order;
    /// nil when the group has none left.
    public func unpairedSwissRound(of group: String) -> (round: Int, games: [ScheduledGame])? {
        var lowest: Int?
        for game in games where game.group == group {
            if let round = game.swissRound, round < (lowest ?? .max) { lowest = round }
        }
        guard let lowest else { return nil }
        let round = games.filter { $0.group == group && $0.swissRound == lowest }
        return (lowest, round.sorted { Self.pairingNumber(of: $0) < Self.pairingNumber(of: $1) })
    }

    /// The groups with Swiss rounds still to be paired, in the schedule's order.
    public var swissGroups: [String] {
        var seen = Set<String>()
        return games.compactMap { game in
            guard game.swissRound != nil, let group = game.group, seen.insert(group).inserted else { return nil }
            return group
        }
    }

    /// The schedule with a Swiss round's pairing in force, or `invalid_game` naming what does
    /// not hold: the round is the group's next to pair; each listed game is one of its games;
    /// every team is the group's, not withdrawn, and plays once (the bye not at all).
    func pairingSwissRound(_ pairing: SwissRoundPairing) throws(CourtsideError) -> Schedule {
        func refuse(_ message: String) -> CourtsideError {
            CourtsideError(.invalidGame, "round \(pairing.round) of group \(pairing.group): \(message)")
        }
        guard let members = groups.first(where: { $0.id == pairing.group })?.teams else {
            throw CourtsideError(.invalidGame, "the tournament has no group \(pairing.group)")
        }
        guard let next = unpairedSwissRound(of: pairing.group), next.round == pairing.round else {
            throw refuse("it is not the group's next round to pair")
        }
        let roundGames = Set(next.games.map(\.id))
        var seen = Set<TeamID>()
        for team in pairing.games.flatMap({ [$0.home, $0.away] }) + (pairing.bye.map { [$0] } ?? []) {
            if !members.contains(team) { throw refuse("team \(team) is not in the group") }
            if withdrawn.contains(team) { throw refuse("team \(team) has withdrawn") }
            if !seen.insert(team).inserted { throw refuse("team \(team) is paired twice") }
        }
        var listed = Set<GameID>()
        for game in pairing.games {
            if !roundGames.contains(game.game) { throw refuse("game \(game.game) is not one of the round's games") }
            if !listed.insert(game.game).inserted { throw refuse("game \(game.game) is listed twice") }
        }
        var paired = self
        let teams = Dictionary(uniqueKeysWithValues: pairing.games.map { ($0.game, $0) })
        paired.games = games.compactMap { game in
            guard roundGames.contains(game.id) else { return game }
            guard let teams = teams[game.id] else { return nil }
            var game = game
            (game.home, game.away) = (.team(teams.home), .team(teams.away))
            return game
        }
        if let bye = pairing.bye { paired.swissByes[pairing.group, default: []].append(bye) }
        return paired
    }

    private static func pairingNumber(of game: ScheduledGame) -> Int {
        if case .swissPairing(_, _, let pairing, _) = game.home { return pairing }
        return .max
    }
}
