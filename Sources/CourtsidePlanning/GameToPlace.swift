public import CourtsideModel

/// A game the planner places: its id, its teams as far as they are known, its group and its
/// division.
public struct GameToPlace: Hashable, Sendable {
    public var id: GameID
    public var home: Slot
    public var away: Slot
    /// The group whose standings the game counts for: a ``Slot/groupRank(group:rank:)`` waits
    /// for every game of its group.
    public var group: String?
    /// The division the game belongs to; divisions share the courts.
    public var division: String?

    public init(id: GameID, home: Slot, away: Slot, group: String? = nil, division: String? = nil) {
        self.id = id
        self.home = home
        self.away = away
        self.group = group
        self.division = division
    }

    /// The Swiss round a game still to be paired is in (from its slots); nil for any other.
    var swissRound: Int? { home.swissRound ?? away.swissRound }

    /// The game a schedule holds, in its own division.
    public init(_ game: ScheduledGame) {
        self.init(id: game.id, home: game.home, away: game.away, group: game.group, division: game.division)
    }
}
