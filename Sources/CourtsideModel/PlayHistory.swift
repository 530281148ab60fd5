/// Every move of a game in order, as a list that the game's next state extends cheaply.
///
/// Several states of one game share their plays at once: the game's actor holds the next one,
/// the commit queue the ones waiting for the disk, the library the committed one. With an array,
/// each move therefore copied every play of the game before adding its own, so a long game paid
/// for its length at every move (a profile of 16 keepers over 1,000 games: 6% of the daemon's
/// CPU). Here the plays are kept in chunks of 32: a move copies the list of chunks (one
/// reference each) and the last chunk, and a retraction the chunk it marks.
public struct PlayHistory: Sendable {
    /// A power of two, so that a position splits into chunk and offset by shifts.
    @usableFromInline static let chunkSize = 32
    @usableFromInline static let shift = chunkSize.trailingZeroBitCount

    // Inlinable, as Array is, for the other modules' loops over plays (a checkpoint's encoding
    // and decoding, through calls, took 40% longer than with an array).
    @usableFromInline var chunks: [[Play]]
    @usableFromInline var storedCount: Int
    /// How many plays the game has had, retracted ones included.
    @inlinable public var count: Int { storedCount }

    /// No plays yet.
    @inlinable
    public init() {
        chunks = []
        storedCount = 0
    }

    /// The plays in order.
    public init(_ plays: some Sequence<Play>) {
        self.init()
        for play in plays { append(play) }
    }

    /// Adds the newest play.
    @inlinable
    public mutating func append(_ play: Play) {
        if count == 0 {
            // The first chunk grows as an array does: most games of a venue stay short.
            chunks.append([play])
        } else if count & (Self.chunkSize - 1) == 0 {
            // A game this long fills its chunks: each is allocated once, at its full size, rather
            // than grown through six sizes (a replay's fold took half as long again).
            var chunk: [Play] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunk.append(play)
            chunks.append(chunk)
        } else {
            chunks[chunks.count - 1].append(play)
        }
        storedCount += 1
    }

    /// Makes room for the list of chunks that `count` plays need (a checkpoint knows the count).
    public mutating func reserveCapacity(_ count: Int) {
        chunks.reserveCapacity((count + Self.chunkSize - 1) >> Self.shift)
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
            return chunks[position >> Self.shift][position & (Self.chunkSize - 1)]
        }
        set {
            precondition(position >= 0 && position < count, "play index out of range")
            chunks[position >> Self.shift][position & (Self.chunkSize - 1)] = newValue
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
        init(_ chunks: [[Play]]) {
            self.chunks = chunks.makeIterator()
            plays = [].makeIterator()
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

    @inlinable public func makeIterator() -> Iterator { Iterator(chunks) }
}

extension PlayHistory: ExpressibleByArrayLiteral {
    public init(arrayLiteral plays: Play...) {
        self.init(plays)
    }
}

extension PlayHistory: Hashable {
    public static func == (lhs: PlayHistory, rhs: PlayHistory) -> Bool {
        // The chunks' layout follows from the count alone, and chunks two states share compare
        // by identity.
        lhs.count == rhs.count && lhs.chunks == rhs.chunks
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
