public import CourtsideModel

/// A team entered in a format's draw.
///
/// Formats take entrants in seed order (the first is the best); ``Formats/seedOrder(_:)`` sorts
/// them that way from their seeds and ranking points.
public struct Entrant: Hashable, Sendable {
    public var id: TeamID
    /// The organiser's seed, 1 for the best; nil when unseeded.
    public var seed: Int?
    /// Ranking points (FIBA 3x3's), more is better; nil when unknown.
    public var rankingPoints: Double?
    /// The team's club, for separation rules; nil when none.
    public var club: String?

    public init(id: TeamID, seed: Int? = nil, rankingPoints: Double? = nil, club: String? = nil) {
        self.id = id
        self.seed = seed
        self.rankingPoints = rankingPoints
        self.club = club
    }
}

/// What a format draws: its groups, its games and their rounds.
///
/// Game ids start with the prefix the format was given (a division's id), so draws of several
/// divisions can share one schedule; slots name only games and groups of the same draw.
public struct Draw: Hashable, Sendable {
    /// The groups whose standings the games count for (pools, or one group for a round robin).
    public var groups: [Group]
    /// The games, in playing order within each round.
    public var games: [ScheduledGame]
    /// Round names in playing order; every game's `round` is one of them.
    public var rounds: [String]
    /// The random seed a random draw used, so that it can be replayed; nil when none was used.
    public var seed: UInt64?

    public init(groups: [Group] = [], games: [ScheduledGame] = [], rounds: [String] = [], seed: UInt64? = nil) {
        self.groups = groups
        self.games = games
        self.rounds = rounds
        self.seed = seed
    }
}

/// Why a format cannot draw its games: the model's own error, a stable code (the formats' are
/// below) and a message for people; a struct of our own would repeat it field for field.
public typealias FormatError = CourtsideError

/// The formats' error codes; new ones may be added.
extension CourtsideError.Code {
    /// Too few teams for the format (a round robin needs 2, pools need 2 a pool, ...).
    public static let tooFewTeams = Self(rawValue: "too_few_teams")
    /// More teams than the format can draw.
    public static let tooManyTeams = Self(rawValue: "too_many_teams")
    /// Two entrants have the same team id.
    public static let duplicateTeam = Self(rawValue: "duplicate_team")
    /// An option is out of range (a pool count of 0, more qualifiers than teams, ...).
    public static let invalidOption = Self(rawValue: "invalid_option")
    /// The id prefix makes no valid game id (letters, digits, '-', '.', '_'; short enough).
    public static let invalidPrefix = Self(rawValue: "invalid_prefix")
}
