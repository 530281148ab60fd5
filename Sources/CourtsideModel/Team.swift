import Synchronization

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
///
/// Its fields are held in one shared object, copied only when one changes, and every game's
/// setup that names the same team shares one (``shared()``): inline, each of a setup's two teams
/// takes 40 bytes of it, for every game (docs/FIGURES.md, "Memory and restart").
public struct Team: Hashable, Codable, Sendable {
    /// The team's values, in the object that the setups naming it share.
    private struct Fields: Hashable, Sendable, Codable {
        var id: TeamID
        var name: String
        var players: [Player]

        typealias CodingKeys = Team.CodingKeys
    }

    private final class Storage: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var storage: Storage

    public var id: TeamID {
        get { storage.fields.id }
        set { change { $0.id = newValue } }
    }
    public var name: String {
        get { storage.fields.name }
        set { change { $0.name = newValue } }
    }
    public var players: [Player] {
        get { storage.fields.players }
        set { change { $0.players = newValue } }
    }

    public init(id: TeamID, name: String, players: [Player]) {
        storage = Storage(Fields(id: id, name: name, players: players))
    }

    private mutating func change(_ body: (inout Fields) -> Void) {
        var fields = storage.fields
        body(&fields)
        storage = Storage(fields)
    }

    /// Whether the player is on this team's roster.
    public func has(_ player: PlayerID) -> Bool {
        // Each id compared where it lies: `contains` over the array copied each player, names
        // and all, and the team's fields with them (3% of the pool's samples under
        // `courtside-bench daemon`, where every move asks twice).
        storage.fields.players.withUnsafeBufferPointer { players in
            for index in players.indices where players[index].id == player { return true }
            return false
        }
    }

    package enum CodingKeys: String, CodingKey, CaseIterable { case id, name, players }

    public init(from decoder: any Decoder) throws { storage = Storage(try Fields(from: decoder)) }

    public func encode(to encoder: any Encoder) throws { try storage.fields.encode(to: encoder) }

    public static func == (lhs: Team, rhs: Team) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) { storage.fields.hash(into: &hasher) }

    /// The last team shared under each id.
    private static let known = Mutex<[TeamID: Storage]>([:])

    /// The same team, holding the one object that the team last shared under its id holds, if
    /// it is equal: each game decoded from a checkpoint or the log decodes its own teams.
    public func shared() -> Team {
        let found = Self.known.withLock { known -> Storage in
            if let kept = known[storage.fields.id], kept === storage || kept.fields == storage.fields { return kept }
            known[storage.fields.id] = storage
            return storage
        }
        var team = self
        team.storage = found
        return team
    }
}

extension Team: CustomReflectable {
    /// The fields, not their shared storage, in `dump`, test failures and the tests that check
    /// every stored field is written.
    public var customMirror: Mirror {
        Mirror(self, children: ["id": id, "name": name, "players": players], displayStyle: .struct)
    }
}
