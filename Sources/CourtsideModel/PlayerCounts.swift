/// Each player's move counts in a game: a dictionary's look-ups and changes, held as one list
/// in the order of the players' ids' UTF-8 bytes (the order of JSON's sorted keys).
///
/// A move changes one player's counts in a state that the game's earlier states share: a
/// dictionary would copy its table and hash the player's id again, and the events' JSON would
/// sort its keys every time. A game has a handful of players, so a list searched by comparing
/// ids costs less in each, and its JSON is written in the order it is held.
public struct PlayerCounts: Hashable, Sendable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    public typealias Element = (key: PlayerID, value: MoveCounts)

    private struct Entry: Hashable, Sendable {
        var player: PlayerID
        var counts: MoveCounts
    }

    /// Sorted by the players' ids' UTF-8 bytes, each player once.
    private var entries: [Entry] = []

    /// No player counted.
    public init() {}

    /// No player counted, with room for `capacity` players.
    public init(minimumCapacity capacity: Int) { entries.reserveCapacity(capacity) }

    /// The counts of a dictionary.
    public init(_ dictionary: [PlayerID: MoveCounts]) {
        entries = dictionary.map { Entry(player: $0.key, counts: $0.value) }
        entries.sort { Self.precedes($0.player, $1.player) }
    }

    public init(dictionaryLiteral elements: (PlayerID, MoveCounts)...) {
        for (player, counts) in elements { self[player] = counts }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { entries.count }

    public subscript(position: Int) -> Element { (entries[position].player, entries[position].counts) }

    /// The players counted, in the order of their ids' UTF-8 bytes.
    public var keys: some RandomAccessCollection<PlayerID> { entries.lazy.map(\.player) }

    /// The counts as a dictionary.
    public var dictionary: [PlayerID: MoveCounts] {
        Dictionary(uniqueKeysWithValues: entries.lazy.map { ($0.player, $0.counts) })
    }

    /// A player's counts, nil if the player has none; setting nil removes the player.
    public subscript(player: PlayerID) -> MoveCounts? {
        get { index(of: player).map { entries[$0].counts } }
        set {
            switch (index(of: player), newValue) {
            case (let index?, let counts?): entries[index].counts = counts
            case (let index?, nil): entries.remove(at: index)
            case (nil, let counts?): entries.insert(Entry(player: player, counts: counts), at: insertionIndex(of: player))
            case (nil, nil): break
            }
        }
    }

    /// A player's counts, `value` if the player has none.
    public subscript(player: PlayerID, default value: @autoclosure () -> MoveCounts) -> MoveCounts {
        get { self[player] ?? value() }
        set { self[player] = newValue }
    }

    /// Adds `amount` to one of a player's counts, counting the player from nothing if new: a
    /// move's change, made in place.
    public mutating func add(_ amount: Int, to player: PlayerID, _ kind: MoveKind) {
        if let index = index(of: player) {
            entries[index].counts[kind] += amount
        } else {
            var counts = MoveCounts()
            counts[kind] += amount
            entries.insert(Entry(player: player, counts: counts), at: insertionIndex(of: player))
        }
    }

    private func index(of player: PlayerID) -> Int? {
        entries.firstIndex { $0.player == player }
    }

    private func insertionIndex(of player: PlayerID) -> Int {
        entries.firstIndex { Self.precedes(player, $0.player) } ?? entries.count
    }

    /// Whether `a`'s id sorts before `b`'s by their UTF-8 bytes (String's `<` compares
    /// normalized scalars, which JSON's sorted keys do not).
    private static func precedes(_ a: PlayerID, _ b: PlayerID) -> Bool {
        a.rawValue.utf8.lexicographicallyPrecedes(b.rawValue.utf8)
    }
}

extension PlayerCounts: Codable {
    /// As the dictionary it stands for, so that the encoded game is what it was.
    public init(from decoder: any Decoder) throws {
        self.init(try [PlayerID: MoveCounts](from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try dictionary.encode(to: encoder)
    }
}

extension PlayerCounts: CustomStringConvertible {
    public var description: String { dictionary.description }
}
