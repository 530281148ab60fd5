/// What a scorekeeper records for a player: the five moves of a pickup game, and free throws
/// (a one-point basket counted on its own, as FIBA 3x3 does).
public enum MoveKind: String, Codable, Sendable, CaseIterable {
    case onePoint = "one_point"
    case twoPoints = "two_points"
    case assist
    case rebound
    case foul
    case freeThrow = "free_throw"

    /// Points the move adds to the player's team.
    public var points: Int {
        switch self {
        case .onePoint, .freeThrow: 1
        case .twoPoints: 2
        case .assist, .rebound, .foul: 0
        }
    }
}

/// How often a player made each of the five moves (retracted moves excluded).
public struct MoveCounts: Hashable, Codable, Sendable {
    public var onePoint = 0
    public var twoPoints = 0
    public var assist = 0
    public var rebound = 0
    public var foul = 0
    public var freeThrow = 0

    public init() {}

    /// The count for one kind of move.
    public subscript(kind: MoveKind) -> Int {
        get {
            switch kind {
            case .onePoint: onePoint
            case .twoPoints: twoPoints
            case .assist: assist
            case .rebound: rebound
            case .foul: foul
            case .freeThrow: freeThrow
            }
        }
        set {
            switch kind {
            case .onePoint: onePoint = newValue
            case .twoPoints: twoPoints = newValue
            case .assist: assist = newValue
            case .rebound: rebound = newValue
            case .foul: foul = newValue
            case .freeThrow: freeThrow = newValue
            }
        }
    }

    /// Points scored by these moves.
    public var points: Int { onePoint + 2 * twoPoints + freeThrow }

    enum CodingKeys: String, CodingKey {
        case onePoint = "one_point"
        case twoPoints = "two_points"
        case freeThrow = "free_throw"
        case assist, rebound, foul
    }

    public init(from decoder: any Decoder) throws {
        // Every count is optional on the wire, so that readers of older messages keep working.
        let container = try decoder.container(keyedBy: CodingKeys.self)
        onePoint = try container.decodeIfPresent(Int.self, forKey: .onePoint) ?? 0
        twoPoints = try container.decodeIfPresent(Int.self, forKey: .twoPoints) ?? 0
        assist = try container.decodeIfPresent(Int.self, forKey: .assist) ?? 0
        rebound = try container.decodeIfPresent(Int.self, forKey: .rebound) ?? 0
        foul = try container.decodeIfPresent(Int.self, forKey: .foul) ?? 0
        freeThrow = try container.decodeIfPresent(Int.self, forKey: .freeThrow) ?? 0
    }
}
