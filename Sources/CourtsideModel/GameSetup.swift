/// What the organiser decides before a game starts: who plays, where, under which rules.
public struct GameSetup: Hashable, Codable, Sendable {
    public var id: GameID
    public var home: Team
    public var away: Team
    public var rules: RuleSet
    /// The court the game is played on, if known.
    public var court: String?

    public init(id: GameID, home: Team, away: Team, rules: RuleSet = .standard, court: String? = nil) {
        self.id = id
        self.home = home
        self.away = away
        self.rules = rules
        self.court = court
    }

    /// Checks the setup, returning an `invalid_game` error that says what is wrong.
    public func validate() throws(CourtsideError) {
        func fail(_ message: String) -> CourtsideError {
            CourtsideError(.invalidGame, "game \(id): \(message)")
        }
        if let problem = Self.problem(withID: id.rawValue) { throw fail(problem) }
        if home.id == away.id { throw fail("team \(home.id) cannot play itself") }
        for team in [home, away] where team.players.isEmpty {
            throw fail("team \(team.id) has no players")
        }
        var seen = Set<PlayerID>()
        for player in home.players + away.players where !seen.insert(player.id).inserted {
            throw fail("player \(player.id) appears twice")
        }
        if let problem = rules.problem { throw fail(problem) }
    }

    /// Why a string cannot be a game id, or nil when it can. Game ids start event topics, so
    /// they are kept to letters, digits, '-', '.' and '_', and never start with '_' (reserved).
    public static func problem(withID id: String) -> String? {
        if id.isEmpty { return "the game id is empty" }
        if id.utf8.count > 64 { return "the game id is longer than 64 bytes" }
        if id.hasPrefix("_") { return "game ids must not start with '_'" }
        let allowed = id.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-._".unicodeScalars.contains(scalar))
        }
        return allowed ? nil : "game ids may hold only letters, digits, '-', '.' and '_'"
    }

    /// The team of a side.
    public func team(_ side: Side) -> Team { side == .home ? home : away }

    /// The side a player plays for in this game, if any.
    public func side(of player: PlayerID) -> Side? {
        if home.has(player) { return .home }
        if away.has(player) { return .away }
        return nil
    }
}
