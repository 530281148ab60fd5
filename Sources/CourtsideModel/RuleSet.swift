/// How a game is won. The defaults are the pickup game of DOMAIN.md: first to 15, win by 2.
public struct RuleSet: Hashable, Codable, Sendable {
    /// Points a team needs to win, provided it also leads by ``winBy``.
    public var targetScore: Int
    /// The lead a team needs at or above ``targetScore``.
    public var winBy: Int
    /// First team to reach this many points wins outright, whatever the lead.
    public var hardCap: Int?
    /// An optional limit on the game clock and what happens when it runs out.
    public var timeLimit: TimeLimit?

    public init(targetScore: Int = 15, winBy: Int = 2, hardCap: Int? = nil, timeLimit: TimeLimit? = nil) {
        self.targetScore = targetScore
        self.winBy = winBy
        self.hardCap = hardCap
        self.timeLimit = timeLimit
    }

    /// The pickup default: 15, win by 2, no cap, no time limit.
    public static let standard = RuleSet()

    /// Why the rule set cannot be played, or nil when it is sound.
    public var problem: String? {
        if targetScore < 1 { return "target_score must be at least 1" }
        if winBy < 1 { return "win_by must be at least 1" }
        if let hardCap, hardCap < targetScore { return "hard_cap must not be below target_score" }
        if let timeLimit {
            if timeLimit.milliseconds < 1 { return "time_limit must be positive" }
            if timeLimit.overtimePoints < 1 { return "overtime_points must be at least 1" }
        }
        return nil
    }

    enum CodingKeys: String, CodingKey {
        case targetScore = "target_score"
        case winBy = "win_by"
        case hardCap = "hard_cap"
        case timeLimit = "time_limit"
    }

    public init(from decoder: any Decoder) throws {
        // Every field is optional on the wire and in config files; missing ones take the defaults.
        let container = try decoder.container(keyedBy: CodingKeys.self)
        targetScore = try container.decodeIfPresent(Int.self, forKey: .targetScore) ?? 15
        winBy = try container.decodeIfPresent(Int.self, forKey: .winBy) ?? 2
        hardCap = try container.decodeIfPresent(Int.self, forKey: .hardCap)
        timeLimit = try container.decodeIfPresent(TimeLimit.self, forKey: .timeLimit)
    }
}

/// A limit on the game clock.
public struct TimeLimit: Hashable, Codable, Sendable {
    /// What happens when the clock reaches the limit.
    public enum AtTime: String, Hashable, Codable, Sendable {
        /// The leading team wins; a tie goes to overtime.
        case leaderWins = "leader_wins"
        /// Sudden-death overtime whatever the score: the first team to score ``overtimePoints`` more wins.
        case overtime
    }

    /// Length of regulation play, in milliseconds of game clock.
    public var milliseconds: Int64
    public var atTime: AtTime
    /// Points a team must add to its score at time to win in overtime.
    public var overtimePoints: Int

    public init(milliseconds: Int64, atTime: AtTime = .leaderWins, overtimePoints: Int = 2) {
        self.milliseconds = milliseconds
        self.atTime = atTime
        self.overtimePoints = overtimePoints
    }

    /// A limit of whole minutes.
    public static func minutes(_ minutes: Int, atTime: AtTime = .leaderWins, overtimePoints: Int = 2) -> TimeLimit {
        TimeLimit(milliseconds: Int64(minutes) * 60_000, atTime: atTime, overtimePoints: overtimePoints)
    }

    enum CodingKeys: String, CodingKey {
        case milliseconds
        case atTime = "at_time"
        case overtimePoints = "overtime_points"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        milliseconds = try container.decode(Int64.self, forKey: .milliseconds)
        atTime = try container.decodeIfPresent(AtTime.self, forKey: .atTime) ?? .leaderWins
        overtimePoints = try container.decodeIfPresent(Int.self, forKey: .overtimePoints) ?? 2
    }
}
