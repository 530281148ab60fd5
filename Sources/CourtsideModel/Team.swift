/// A person who plays; the id is stable across games and the tournament.
public struct Player: Hashable, Codable, Sendable {
    public var id: PlayerID
    public var name: String

    public init(id: PlayerID, name: String) {
        self.id = id
        self.name = name
    }

    package enum CodingKeys: String, CodingKey, CaseIterable { case id, name }
}

/// A team and its roster.
public struct Team: Hashable, Codable, Sendable {
    public var id: TeamID
    public var name: String
    public var players: [Player]

    public init(id: TeamID, name: String, players: [Player]) {
        self.id = id
        self.name = name
        self.players = players
    }

    /// Whether the player is on this team's roster.
    public func has(_ player: PlayerID) -> Bool { players.contains { $0.id == player } }

    package enum CodingKeys: String, CodingKey, CaseIterable { case id, name, players }
}
