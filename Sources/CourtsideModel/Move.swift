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

extension MoveKind {
    /// The move's number in the packed and binary forms that hold it (a play's word, a
    /// checkpoint's bytes): fixed for good, since checkpoints on disk carry it.
    public var code: UInt8 {
        switch self {
        case .onePoint: 0
        case .twoPoints: 1
        case .assist: 2
        case .rebound: 3
        case .foul: 4
        case .freeThrow: 5
        }
    }

    /// The move numbered `code` (``code``); nil for a number no move has.
    public init?(code: UInt8) {
        switch code {
        case 0: self = .onePoint
        case 1: self = .twoPoints
        case 2: self = .assist
        case 3: self = .rebound
        case 4: self = .foul
        case 5: self = .freeThrow
        default: return nil
        }
    }
}

/// How often a player made each of the five moves (retracted moves excluded).
///
/// Held as 32-bit counts: 24 bytes a player rather than 48, in every game's counts and every
/// copy of them (docs/FIGURES.md, "Memory and restart").
public struct MoveCounts: Hashable, Codable, Sendable {
    private var counts: (onePoint: Int32, twoPoints: Int32, assist: Int32, rebound: Int32, foul: Int32, freeThrow: Int32) =
        (0, 0, 0, 0, 0, 0)

    public var onePoint: Int {
        get { Int(counts.onePoint) }
        set { counts.onePoint = Int32(newValue) }
    }
    public var twoPoints: Int {
        get { Int(counts.twoPoints) }
        set { counts.twoPoints = Int32(newValue) }
    }
    public var assist: Int {
        get { Int(counts.assist) }
        set { counts.assist = Int32(newValue) }
    }
    public var rebound: Int {
        get { Int(counts.rebound) }
        set { counts.rebound = Int32(newValue) }
    }
    public var foul: Int {
        get { Int(counts.foul) }
        set { counts.foul = Int32(newValue) }
    }
    public var freeThrow: Int {
        get { Int(counts.freeThrow) }
        set { counts.freeThrow = Int32(newValue) }
    }

    public init() {}

    public static func == (lhs: MoveCounts, rhs: MoveCounts) -> Bool { lhs.counts == rhs.counts }

    public func hash(into hasher: inout Hasher) {
        for kind in MoveKind.allCases { hasher.combine(self[kind]) }
    }

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
        // Every count is optional on the wire, so that readers of older messages keep working;
        // one past 32 bits is an error, not a trap.
        let container = try decoder.container(keyedBy: CodingKeys.self)
        counts.onePoint = try container.decodeIfPresent(Int32.self, forKey: .onePoint) ?? 0
        counts.twoPoints = try container.decodeIfPresent(Int32.self, forKey: .twoPoints) ?? 0
        counts.assist = try container.decodeIfPresent(Int32.self, forKey: .assist) ?? 0
        counts.rebound = try container.decodeIfPresent(Int32.self, forKey: .rebound) ?? 0
        counts.foul = try container.decodeIfPresent(Int32.self, forKey: .foul) ?? 0
        counts.freeThrow = try container.decodeIfPresent(Int32.self, forKey: .freeThrow) ?? 0
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(onePoint, forKey: .onePoint)
        try container.encode(twoPoints, forKey: .twoPoints)
        try container.encode(assist, forKey: .assist)
        try container.encode(rebound, forKey: .rebound)
        try container.encode(foul, forKey: .foul)
        try container.encode(freeThrow, forKey: .freeThrow)
    }
}

extension MoveCounts: CustomReflectable {
    /// The counts by name, not the tuple that holds them, in `dump`, test failures and the tests
    /// that check every field is written.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "onePoint": onePoint, "twoPoints": twoPoints, "assist": assist, "rebound": rebound, "foul": foul,
                "freeThrow": freeThrow,
            ], displayStyle: .struct)
    }
}
