import Synchronization

/// How a game is won. The defaults are the pickup game of DOMAIN.md: first to 15, win by 2.
///
/// Its fields are held in one shared object, copied only when one changes, and every game set
/// up under the same rules shares one (``shared()``): inline, the rules were 152 of a game
/// setup's 272 bytes (docs/FIGURES.md, "Memory and restart").
public struct RuleSet: Hashable, Codable, Sendable {
    /// The rules' values, in the object that equal rules share.
    private struct Fields: Hashable, Sendable {
        var targetScore: Int
        var winBy: Int
        var hardCap: Int?
        var timeLimit: TimeLimit?
        var teamFouls: TeamFoulRules?
        var shotClockSeconds: Int?
        var timeoutsPerTeam: Int?
        var forfeitScore: Int?
        var preset: String?
    }

    private final class Storage: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var storage: Storage

    /// Points a team needs to win, provided it also leads by ``winBy``.
    public var targetScore: Int {
        get { storage.fields.targetScore }
        set { change { $0.targetScore = newValue } }
    }
    /// The lead a team needs at or above ``targetScore``.
    public var winBy: Int {
        get { storage.fields.winBy }
        set { change { $0.winBy = newValue } }
    }
    /// First team to reach this many points wins outright, whatever the lead.
    public var hardCap: Int? {
        get { storage.fields.hardCap }
        set { change { $0.hardCap = newValue } }
    }
    /// An optional limit on the game clock and what happens when it runs out.
    public var timeLimit: TimeLimit? {
        get { storage.fields.timeLimit }
        set { change { $0.timeLimit = newValue } }
    }
    /// Team fouls and their penalty tiers, when the rules count them.
    public var teamFouls: TeamFoulRules? {
        get { storage.fields.teamFouls }
        set { change { $0.teamFouls = newValue } }
    }
    /// A shot clock, in seconds, shown by boards as a value (the daemon does not run it).
    public var shotClockSeconds: Int? {
        get { storage.fields.shotClockSeconds }
        set { change { $0.shotClockSeconds = newValue } }
    }
    /// Time-outs each team may call; nil means they are not limited.
    public var timeoutsPerTeam: Int? {
        get { storage.fields.timeoutsPerTeam }
        set { change { $0.timeoutsPerTeam = newValue } }
    }
    /// The winner's score when a team forfeits (the loser's is 0); nil is the target score.
    public var forfeitScore: Int? {
        get { storage.fields.forfeitScore }
        set { change { $0.forfeitScore = newValue } }
    }
    /// The preset these rules came from, for display.
    public var preset: String? {
        get { storage.fields.preset }
        set { change { $0.preset = newValue } }
    }

    public init(
        targetScore: Int = 15, winBy: Int = 2, hardCap: Int? = nil, timeLimit: TimeLimit? = nil,
        teamFouls: TeamFoulRules? = nil, shotClockSeconds: Int? = nil, timeoutsPerTeam: Int? = nil,
        forfeitScore: Int? = nil, preset: String? = nil
    ) {
        storage = Storage(
            Fields(
                targetScore: targetScore, winBy: winBy, hardCap: hardCap, timeLimit: timeLimit, teamFouls: teamFouls,
                shotClockSeconds: shotClockSeconds, timeoutsPerTeam: timeoutsPerTeam, forfeitScore: forfeitScore,
                preset: preset))
    }

    private mutating func change(_ body: (inout Fields) -> Void) {
        var fields = storage.fields
        body(&fields)
        storage = Storage(fields)
    }

    public static func == (lhs: RuleSet, rhs: RuleSet) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) { storage.fields.hash(into: &hasher) }

    /// The rules most recently shared, newest last: a tournament's games are set up under a few.
    private static let recent = Mutex<[Storage]>([])

    /// The same rules, holding the one object that other rules equal to them hold, if they were
    /// shared lately: each game decoded from a checkpoint or the log decodes its own rules.
    public func shared() -> RuleSet {
        let found = Self.recent.withLock { recent -> Storage in
            if let index = recent.lastIndex(where: { $0 === storage || $0.fields == storage.fields }) {
                return recent[index]
            }
            if recent.count == 8 { recent.removeFirst() }
            recent.append(storage)
            return storage
        }
        var rules = self
        rules.storage = found
        return rules
    }

    /// A forfeit's final score: ``forfeitScore`` (the target score unless set) to 0.
    public func forfeitResult(winner: Side) -> SideValues {
        let points = forfeitScore ?? targetScore
        return winner == .home ? SideValues(home: points, away: 0) : SideValues(home: 0, away: points)
    }

    /// The pickup default: 15, win by 2, no cap, no time limit.
    public static let standard = RuleSet(preset: "pickup-15w2")

    /// Why the rule set cannot be played, or nil when it is sound.
    public var problem: String? {
        // Upper bounds keep every sum of scores and times far from overflow, whatever a client sends.
        if !(1...1000).contains(targetScore) { return "target_score must be between 1 and 1000" }
        if !(1...1000).contains(winBy) { return "win_by must be between 1 and 1000" }
        if let hardCap, !(targetScore...1000).contains(hardCap) { return "hard_cap must be between target_score and 1000" }
        if let timeLimit {
            if !(1...86_400_000).contains(timeLimit.milliseconds) { return "time_limit must be positive and at most a day" }
            if !(1...100).contains(timeLimit.overtimePoints) { return "overtime_points must be between 1 and 100" }
        }
        if let teamFouls, teamFouls.freeThrowsFrom < 1 || teamFouls.possessionFrom < teamFouls.freeThrowsFrom {
            return "team_fouls needs 1 <= free_throws_from <= possession_from"
        }
        if let shotClockSeconds, !(1...3600).contains(shotClockSeconds) { return "shot_clock_seconds must be between 1 and 3600" }
        if let timeoutsPerTeam, !(0...100).contains(timeoutsPerTeam) { return "timeouts_per_team must be between 0 and 100" }
        if let forfeitScore, !(1...1000).contains(forfeitScore) { return "forfeit_score must be between 1 and 1000" }
        return nil
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case targetScore = "target_score"
        case winBy = "win_by"
        case hardCap = "hard_cap"
        case timeLimit = "time_limit"
        case teamFouls = "team_fouls"
        case shotClockSeconds = "shot_clock_seconds"
        case timeoutsPerTeam = "timeouts_per_team"
        case forfeitScore = "forfeit_score"
        case preset
    }

    public init(from decoder: any Decoder) throws {
        // Every field is optional on the wire and in config files; missing ones take the defaults.
        try self.init(overriding: RuleSet(), from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(targetScore, forKey: .targetScore)
        try container.encode(winBy, forKey: .winBy)
        try container.encodeIfPresent(hardCap, forKey: .hardCap)
        try container.encodeIfPresent(timeLimit, forKey: .timeLimit)
        try container.encodeIfPresent(teamFouls, forKey: .teamFouls)
        try container.encodeIfPresent(shotClockSeconds, forKey: .shotClockSeconds)
        try container.encodeIfPresent(timeoutsPerTeam, forKey: .timeoutsPerTeam)
        try container.encodeIfPresent(forfeitScore, forKey: .forfeitScore)
        try container.encodeIfPresent(preset, forKey: .preset)
    }

    /// Decodes the fields present in `decoder` over `base`: how a preset is inherited.
    public init(overriding base: RuleSet, from decoder: any Decoder) throws {
        self = try RuleOverlay(from: decoder).applied(to: base)
    }
}

/// Some fields of a rule set, to be laid over another (a preset being inherited).
public struct RuleOverlay: Hashable, Decodable, Sendable {
    public var targetScore: Int?
    public var winBy: Int?
    public var hardCap: Int?
    public var timeLimit: TimeLimit?
    public var teamFouls: TeamFoulRules?
    public var shotClockSeconds: Int?
    public var timeoutsPerTeam: Int?
    public var forfeitScore: Int?
    public var preset: String?

    public init() {}

    typealias CodingKeys = RuleSet.CodingKeys

    /// `base` with every field this overlay has replaced.
    public func applied(to base: RuleSet) -> RuleSet {
        RuleSet(
            targetScore: targetScore ?? base.targetScore, winBy: winBy ?? base.winBy, hardCap: hardCap ?? base.hardCap,
            timeLimit: timeLimit ?? base.timeLimit, teamFouls: teamFouls ?? base.teamFouls,
            shotClockSeconds: shotClockSeconds ?? base.shotClockSeconds, timeoutsPerTeam: timeoutsPerTeam ?? base.timeoutsPerTeam,
            forfeitScore: forfeitScore ?? base.forfeitScore, preset: preset ?? base.preset)
    }
}

/// Team fouls: from the `freeThrowsFrom`-th foul of a team its opponent gets two free throws,
/// from the `possessionFrom`-th two free throws and possession (FIBA 3x3: 7th and 10th).
public struct TeamFoulRules: Hashable, Codable, Sendable {
    public var freeThrowsFrom: Int
    public var possessionFrom: Int

    public init(freeThrowsFrom: Int = 7, possessionFrom: Int = 10) {
        self.freeThrowsFrom = freeThrowsFrom
        self.possessionFrom = possessionFrom
    }

    /// The tier a team is in after `fouls` team fouls.
    public func penalty(after fouls: Int) -> FoulPenalty {
        if fouls >= possessionFrom { return .twoFreeThrowsAndPossession }
        if fouls >= freeThrowsFrom { return .twoFreeThrows }
        return .none
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case freeThrowsFrom = "free_throws_from"
        case possessionFrom = "possession_from"
    }
}

/// What a team's next foul gives its opponent.
public enum FoulPenalty: String, Codable, Sendable {
    case none
    case twoFreeThrows = "two_free_throws"
    case twoFreeThrowsAndPossession = "two_free_throws_and_possession"
}

/// Named rule sets. A tournament picks one per tournament or per game, and may define its own
/// that inherit from these.
public enum RulePresets {
    /// The default: first to 15, win by 2.
    public static let pickup = RuleSet(preset: "pickup-15w2")
    /// The same with a hard cap at 21.
    public static let pickupCapped = RuleSet(hardCap: 21, preset: "pickup-15w2-cap21")
    /// FIBA 3x3: first to 21 or the leader after 10 minutes; a tie at time goes to overtime,
    /// where the first team to score 2 more wins. Team fouls with penalty tiers from the 7th and
    /// the 10th, a 12-second shot clock, one time-out per team.
    public static let fiba3x3 = RuleSet(
        targetScore: 21, winBy: 1, timeLimit: .minutes(10, atTime: .leaderWins, overtimePoints: 2),
        teamFouls: TeamFoulRules(freeThrowsFrom: 7, possessionFrom: 10), shotClockSeconds: 12, timeoutsPerTeam: 1,
        preset: "fiba3x3")

    /// The built-in presets by name.
    public static let builtIn: [String: RuleSet] = [
        "pickup-15w2": pickup, "pickup-15w2-cap21": pickupCapped, "fiba3x3": fiba3x3,
    ]
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

    package enum CodingKeys: String, CodingKey, CaseIterable {
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

extension RuleSet: CustomReflectable {
    /// The fields, not their shared storage, in `dump`, test failures and the tests that check
    /// every stored field is written.
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: storage.fields).children, displayStyle: .struct)
    }
}
