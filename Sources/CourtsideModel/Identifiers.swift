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
public struct SideValues: Hashable, Codable, Sendable {
    public var home: Int
    public var away: Int

    public init(home: Int, away: Int) {
        self.home = home
        self.away = away
    }

    public subscript(side: Side) -> Int {
        get { side == .home ? home : away }
        set {
            if side == .home { home = newValue } else { away = newValue }
        }
    }
}
