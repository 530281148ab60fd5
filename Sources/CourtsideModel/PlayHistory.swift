/// Every move of a game in order, as a list that the game's next state extends cheaply.
///
/// Several states of one game share their plays at once: the game's actor holds the next one,
/// the commit queue the ones waiting for the disk, the library the committed one. With an array,
/// each move therefore copied every play of the game before adding its own, so a long game paid
/// for its length at every move (a profile of 16 keepers over 1,000 games: 6% of the daemon's
/// CPU). Here the plays are kept in chunks of 32: a move copies the last chunk and the list of
/// the later chunks (one reference each), and a retraction the chunk it marks. The first chunk
/// is held directly, so a short game, as most of a venue's are, costs what an array did.
public struct PlayHistory: Sendable {
    /// A power of two, so that a position splits into chunk and offset by shifts.
    @usableFromInline static let chunkSize = 32
    @usableFromInline static let shift = chunkSize.trailingZeroBitCount

    // Inlinable, as Array is, for the other modules' loops over plays (a checkpoint's encoding
    // and decoding, through calls, took 40% longer than with an array).
    /// The first `chunkSize` plays.
    @usableFromInline var first: [Play]
    /// The plays after those, `chunkSize` to a chunk.
    @usableFromInline var later: [[Play]]

    /// No plays yet.
    @inlinable
    public init() {
        first = []
        later = []
    }

    /// The plays in order.
    public init(_ plays: some Sequence<Play>) {
        self.init()
        for play in plays { append(play) }
    }

    /// How many plays the game has had, retracted ones included.
    @inlinable public var count: Int {
        later.isEmpty ? first.count : Self.chunkSize * later.count + later[later.count - 1].count
    }

    /// Adds the newest play.
    @inlinable
    public mutating func append(_ play: Play) {
        if later.isEmpty, first.count < Self.chunkSize {
            // The first chunk grows as an array does.
            first.append(play)
        } else if let last = later.last, last.count < Self.chunkSize {
            later[later.count - 1].append(play)
        } else {
            // A game this long fills its chunks: each is allocated once, at its full size, rather
            // than grown through six sizes (a replay's fold took half as long again).
            var next: [Play] = []
            next.reserveCapacity(Self.chunkSize)
            next.append(play)
            later.append(next)
        }
    }

    /// Makes room for `count` plays in all (a checkpoint knows how many it holds), as an array
    /// would reserve: a short game's first chunk at its exact size.
    public mutating func reserveCapacity(_ count: Int) {
        first.reserveCapacity(Swift.min(count, Self.chunkSize))
        if count > Self.chunkSize { later.reserveCapacity((count - 1) >> Self.shift) }
    }
}

extension PlayHistory: RandomAccessCollection, MutableCollection {
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { count }

    /// The play at `position`, counted from the first; setting it copies only its chunk.
    @inlinable
    public subscript(position: Int) -> Play {
        get {
            precondition(position >= 0 && position < count, "play index out of range")
            if position < Self.chunkSize { return first[position] }
            return later[(position >> Self.shift) - 1][position & (Self.chunkSize - 1)]
        }
        set {
            precondition(position >= 0 && position < count, "play index out of range")
            if position < Self.chunkSize {
                first[position] = newValue
            } else {
                later[(position >> Self.shift) - 1][position & (Self.chunkSize - 1)] = newValue
            }
        }
    }
}

extension PlayHistory {
    /// Walks the chunks in turn: through the subscript, each play cost a division into chunk
    /// and offset, and two bounds checks (a checkpoint's encoding took a third longer).
    public struct Iterator: IteratorProtocol {
        @usableFromInline var chunks: IndexingIterator<[[Play]]>
        @usableFromInline var plays: IndexingIterator<[Play]>

        @inlinable
        init(_ history: PlayHistory) {
            chunks = history.later.makeIterator()
            plays = history.first.makeIterator()
        }

        @inlinable
        public mutating func next() -> Play? {
            while true {
                if let play = plays.next() { return play }
                guard let chunk = chunks.next() else { return nil }
                plays = chunk.makeIterator()
            }
        }
    }

    @inlinable public func makeIterator() -> Iterator { Iterator(self) }
}

extension PlayHistory: ExpressibleByArrayLiteral {
    public init(arrayLiteral plays: Play...) {
        self.init(plays)
    }
}

extension PlayHistory: Hashable {
    public static func == (lhs: PlayHistory, rhs: PlayHistory) -> Bool {
        // The layout follows from the count alone, and chunks two states share compare by identity.
        lhs.first == rhs.first && lhs.later == rhs.later
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for play in self { hasher.combine(play) }
    }
}

/// On the wire and in the log, a plain JSON array of plays.
extension PlayHistory: Codable {
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init()
        if let count = container.count { reserveCapacity(count) }
        while !container.isAtEnd { append(try container.decode(Play.self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for play in self { try container.encode(play) }
    }
}

extension PlayHistory: CustomStringConvertible, CustomReflectable {
    public var description: String { Array(self).description }
    /// The plays, not the chunks, in `dump` and test failures.
    public var customMirror: Mirror { Mirror(self, unlabeledChildren: Array(self), displayStyle: .collection) }
}
