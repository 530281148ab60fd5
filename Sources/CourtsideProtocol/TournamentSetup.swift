public import CourtsideModel

/// The tournament as it stands, shaped as the config file that would start an equal one: what
/// the `tournament` read answers and `courtside tournament dump` writes. Results are not in it
/// (they are the log's); every game's rules are written out whole.
public struct TournamentSetup: Hashable, Codable, Sendable {
    /// One game as the config writes it: slots for its teams, and its rules in full.
    public struct SetupGame: Hashable, Codable, Sendable {
        public var id: GameID
        public var home: Slot
        public var away: Slot
        public var court: String?
        public var group: String?
        public var start: String?
        public var rules: RuleSet
        /// The game's division, written only where the tournament has divisions.
        public var division: String?
        /// Played only if this holds (a grand final reset); nil for a game always played.
        public var playedIf: PlayCondition?

        public init(
            id: GameID, home: Slot, away: Slot, court: String? = nil, group: String? = nil, start: String? = nil,
            rules: RuleSet, division: String? = nil
        ) {
            (self.id, self.home, self.away, self.court, self.group, self.start, self.rules) = (
                id, home, away, court, group, start, rules
            )
            self.division = division
        }

        enum CodingKeys: String, CodingKey {
            case id, home, away, court, group, start, rules, division
            case playedIf = "played_if"
        }
    }

    /// A round and its games, in playing order.
    public struct Round: Hashable, Codable, Sendable {
        public var name: String
        public var games: [SetupGame]

        public init(name: String, games: [SetupGame]) { (self.name, self.games) = (name, games) }
    }

    public var tournament: String
    public var tieBreakers: [TieBreaker]
    public var courts: [String]
    /// By id.
    public var teams: [Team]
    public var groups: [Group]
    public var rounds: [Round]
    /// Games outside any round: the config's, and those `create_game` added.
    public var games: [SetupGame]
    /// Players marked inactive, sorted; nil when none is.
    public var inactivePlayers: [PlayerID]?
    /// The divisions sharing the courts; nil for a tournament of one.
    public var divisions: [Division]?
    /// The organiser's seeds (1 the best); nil when none is set.
    public var seeds: [TeamID: Int]?
    /// How the day is paced; nil when not known.
    public var timing: DayTiming?
    /// Teams that withdrew, sorted; nil when none has.
    public var withdrawn: [TeamID]?
    /// Each Swiss group's byes so far, in round order; nil when none has had one.
    public var swissByes: [String: [TeamID]]?
    /// The venue's language ("ja"), as the config names it; nil when it names none.
    public var language: String?

    public init(
        tournament: String, tieBreakers: [TieBreaker], courts: [String], teams: [Team], groups: [Group], rounds: [Round],
        games: [SetupGame], inactivePlayers: [PlayerID]? = nil
    ) {
        (self.tournament, self.tieBreakers, self.courts, self.teams, self.groups, self.rounds, self.games) = (
            tournament, tieBreakers, courts, teams, groups, rounds, games
        )
        self.inactivePlayers = inactivePlayers
    }

    /// The setup of a tournament of `name` with this `schedule`, plus the games that exist
    /// outside it (created at run time), each with its teams and rules as they were created.
    public init(name: String, schedule: Schedule, otherGames: [GameSetup]) {
        func game(_ scheduled: ScheduledGame) -> SetupGame {
            var game = SetupGame(
                id: scheduled.id, home: scheduled.home, away: scheduled.away, court: scheduled.court, group: scheduled.group,
                start: scheduled.start, rules: scheduled.rules, division: scheduled.division)
            game.playedIf = scheduled.playedIf
            return game
        }
        let rounds = schedule.rounds.map { name in Round(name: name, games: schedule.games.filter { $0.round == name }.map(game))
        }
        let loose =
            schedule.games.filter { $0.round.map { !schedule.rounds.contains($0) } ?? true }.map(game)
            + otherGames.sorted { $0.id < $1.id }.map {
                SetupGame(id: $0.id, home: .team($0.home.id), away: .team($0.away.id), court: $0.court, rules: $0.rules)
            }
        self.init(
            tournament: name, tieBreakers: schedule.tieBreakers, courts: schedule.courts,
            teams: schedule.teams.values.sorted { $0.id < $1.id }, groups: schedule.groups, rounds: rounds, games: loose,
            inactivePlayers: schedule.inactivePlayers.isEmpty ? nil : schedule.inactivePlayers.sorted())
        divisions = schedule.divisions.isEmpty ? nil : schedule.divisions
        seeds = schedule.seeds.isEmpty ? nil : schedule.seeds
        timing = schedule.timing
        withdrawn = schedule.withdrawn.isEmpty ? nil : schedule.withdrawn.sorted()
        swissByes = schedule.swissByes.isEmpty ? nil : schedule.swissByes
    }

    /// Each division's name by its id; empty for a tournament of one.
    public var divisionNames: [String: String] {
        Dictionary((divisions ?? []).map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    enum CodingKeys: String, CodingKey {
        case tournament, courts, teams, groups, rounds, games, divisions, seeds, timing, withdrawn, language
        case swissByes = "swiss_byes"
        case tieBreakers = "tie_breakers"
        case inactivePlayers = "inactive_players"
    }

    /// The synthesized form, but `seeds` in team order: a dictionary's own order changes from
    /// run to run, and the same draw must write the same file (`tournament plan`, `dump`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(tournament, forKey: .tournament)
        try container.encodeIfPresent(language, forKey: .language)
        try container.encode(tieBreakers, forKey: .tieBreakers)
        try container.encode(courts, forKey: .courts)
        try container.encode(teams, forKey: .teams)
        try container.encodeIfPresent(divisions, forKey: .divisions)
        if let seeds {
            var byTeam = container.nestedContainer(keyedBy: TeamKey.self, forKey: .seeds)
            for (team, seed) in seeds.sorted(by: { $0.key < $1.key }) { try byTeam.encode(seed, forKey: TeamKey(team)) }
        }
        try container.encode(groups, forKey: .groups)
        try container.encode(rounds, forKey: .rounds)
        try container.encode(games, forKey: .games)
        try container.encodeIfPresent(inactivePlayers, forKey: .inactivePlayers)
        try container.encodeIfPresent(timing, forKey: .timing)
        try container.encodeIfPresent(withdrawn, forKey: .withdrawn)
        if let swissByes {
            var byGroup = container.nestedContainer(keyedBy: GroupKey.self, forKey: .swissByes)
            for (group, byes) in swissByes.sorted(by: { $0.key < $1.key }) { try byGroup.encode(byes, forKey: GroupKey(group)) }
        }
    }

    private struct GroupKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ group: String) { stringValue = group }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private struct TeamKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ team: TeamID) { stringValue = team.rawValue }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
