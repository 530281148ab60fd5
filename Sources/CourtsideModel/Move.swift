/// The five things a scorekeeper records for a player.
public enum MoveKind: String, Codable, Sendable, CaseIterable {
    case onePoint = "one_point"
    case twoPoints = "two_points"
    case assist
    case rebound
    case foul

    /// Points the move adds to the player's team.
    public var points: Int {
        switch self {
        case .onePoint: 1
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
            }
        }
        set {
            switch kind {
            case .onePoint: onePoint = newValue
            case .twoPoints: twoPoints = newValue
            case .assist: assist = newValue
            case .rebound: rebound = newValue
            case .foul: foul = newValue
            }
        }
    }

    /// Points scored by these moves.
    public var points: Int { onePoint + 2 * twoPoints }

    enum CodingKeys: String, CodingKey {
        case onePoint = "one_point"
        case twoPoints = "two_points"
        case assist, rebound, foul
    }
}
