/// What the organiser decides before a game starts: who plays, where, under which rules.
///
/// Its fields are held in one shared object, copied only when one changes (a rare thing: teams
/// are assigned once). A game's state is copied several times per move (the actor's next state,
/// the commit queue, the committed map, each subscriber's update), and its setup, inline, was
/// most of what every copy moved and retained: nine of a game's twelve references and 240 of
/// its 368 bytes (now 136).
///
/// Every field goes in `Fields`: its JSON, equality, hash and mirror are the setup's, so a field
/// stored beside `storage` would be left out of all four (a test checks there is none).
public struct GameSetup: Hashable, Codable, Sendable {
    /// The fields, as the struct held them before (their synthesized `Codable` gives the same JSON).
    private struct Fields: Hashable, Codable, Sendable {
        var id: GameID
        var home: Team
        var away: Team
        var rules: RuleSet
        var court: String?
    }

    private final class Storage: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var storage: Storage

    public var id: GameID {
        get { storage.fields.id }
        set { change { $0.id = newValue } }
    }
    public var home: Team {
        get { storage.fields.home }
        set { change { $0.home = newValue.shared() } }
    }
    public var away: Team {
        get { storage.fields.away }
        set { change { $0.away = newValue.shared() } }
    }
    public var rules: RuleSet {
        get { storage.fields.rules }
        set { change { $0.rules = newValue } }
    }
    /// The court the game is played on, if known.
    public var court: String? {
        get { storage.fields.court }
        set { change { $0.court = newValue } }
    }

    public init(id: GameID, home: Team, away: Team, rules: RuleSet = .standard, court: String? = nil) {
        storage = Storage(Fields(id: id, home: home.shared(), away: away.shared(), rules: rules.shared(), court: court))
    }

    private mutating func change(_ body: (inout Fields) -> Void) {
        var fields = storage.fields
        body(&fields)
        storage = Storage(fields)
    }

    public init(from decoder: any Decoder) throws {
        var fields = try Fields(from: decoder)
        (fields.home, fields.away, fields.rules) = (fields.home.shared(), fields.away.shared(), fields.rules.shared())
        storage = Storage(fields)
    }

    public func encode(to encoder: any Encoder) throws {
        try storage.fields.encode(to: encoder)
    }

    public static func == (lhs: GameSetup, rhs: GameSetup) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) {
        storage.fields.hash(into: &hasher)
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

extension GameSetup: CustomReflectable {
    /// The fields, not their shared storage, in `dump`, test failures and the tests that check
    /// every stored field is written.
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: storage.fields).children, displayStyle: .struct)
    }
}
