/// A stable, organiser-chosen string identifier, typed by what it names so that a player id
/// can never be passed where a game id is expected.
public struct Identifier<Tag>: RawRepresentable, Hashable, Comparable, Codable, Sendable,
    CustomStringConvertible, ExpressibleByStringLiteral
{
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    // Encoded as a bare string, which is what the protocol documents.
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    public var description: String { rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Tag types for ``Identifier``.
public enum GameTag {}
public enum TeamTag {}
public enum PlayerTag {}

/// Identifies a game, for example `"g1"` or `"semi-final-1"`.
public typealias GameID = Identifier<GameTag>
/// Identifies a team.
public typealias TeamID = Identifier<TeamTag>
/// Identifies a player; unique across the tournament.
public typealias PlayerID = Identifier<PlayerTag>

/// Which of a game's two teams.
public enum Side: String, Codable, Sendable, CaseIterable {
    case home
    case away

    /// The other team.
    public var opponent: Side { self == .home ? .away : .home }
}

// Lets dictionaries keyed by an identifier encode as JSON objects rather than arrays.
extension Identifier: CodingKeyRepresentable {
    public var codingKey: any CodingKey { IdentifierKey(stringValue: rawValue) }
    public init?<T: CodingKey>(codingKey: T) { self.init(rawValue: codingKey.stringValue) }
}

private struct IdentifierKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A value per side: the score, or the overtime targets.
///
/// Kept in 32 bits each: a game's state holds four of these, and every game has its state in its
/// actor and in the committed view at once (32 bytes a game less in each; docs/FIGURES.md, "Memory
/// and restart").
public struct SideValues: Hashable, Codable, Sendable {
    private var values: (home: Int32, away: Int32)

    public var home: Int {
        get { Int(values.home) }
        set { values.home = Int32(newValue) }
    }
    public var away: Int {
        get { Int(values.away) }
        set { values.away = Int32(newValue) }
    }

    public init(home: Int, away: Int) {
        values = (Int32(home), Int32(away))
    }

    public static func == (lhs: SideValues, rhs: SideValues) -> Bool { lhs.values == rhs.values }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(values.home)
        hasher.combine(values.away)
    }

    enum CodingKeys: String, CodingKey { case home, away }

    public init(from decoder: any Decoder) throws {
        // One past 32 bits is an error, not a trap.
        let container = try decoder.container(keyedBy: CodingKeys.self)
        values = (try container.decode(Int32.self, forKey: .home), try container.decode(Int32.self, forKey: .away))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(home, forKey: .home)
        try container.encode(away, forKey: .away)
    }

    public subscript(side: Side) -> Int {
        get { side == .home ? home : away }
        set {
            if side == .home { home = newValue } else { away = newValue }
        }
    }
}

extension SideValues: CustomReflectable {
    /// The two values by name, not the tuple that holds them, in `dump`, test failures and the
    /// tests that check every field is written.
    public var customMirror: Mirror { Mirror(self, children: ["home": home, "away": away], displayStyle: .struct) }
}
