public import CourtsideModel

/// The tournament part of the config: what SIGHUP reloads.
public struct TournamentConfiguration: Sendable, Equatable {
    public var name: String
    /// The rule set of every game that names none of its own.
    public var rules: RuleSet
    /// Rule presets by name: the built-in ones and the config's own.
    public var presets: [String: RuleSet]
    /// Teams, courts, groups, rounds and games (in config order), with the tie-breakers.
    public var schedule: Schedule
    /// The venue's language (a catalog's code, "ja"), nil when the file names none: the pages
    /// then speak each browser's language, or English.
    public var language: String?

    public var teams: [TeamID: Team] { schedule.teams }

    /// The name of a tournament whose file gives none.
    static let defaultName = "Courtside tournament"
}
