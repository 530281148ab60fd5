/// Every move of a game in order, as a list that the game's next state extends cheaply.
///
/// Several states of one game share their plays at once: the game's actor holds the next one,
/// the commit queue the ones waiting for the disk, the library the committed one. With an array,
/// each move therefore copied every play of the game before adding its own, so a long game paid
/// for its length at every move (a profile of 16 keepers over 1,000 games: 6% of the daemon's
/// CPU). Here the plays are kept in chunks of 32 that the states share (``PlayChunk``): the
/// newest state adds its move in the room its chunk has left, copying nothing, and a
/// retraction copies the chunk it marks. The first chunk grows by half its room at a time (4, 6,
/// 9, 13, 19, 28, 32), so a short game, as most of a venue's are, holds about what it needs: a
/// game of 5 plays has room for 6, where doubling would give it 8 (80 bytes a game; docs/FIGURES.md,
/// "Memory and restart").
public struct PlayHistory: Sendable {
    /// A power of two, so that a position splits into chunk and offset by shifts.
    @usableFromInline static let chunkSize = 32
    @usableFromInline static let shift = chunkSize.trailingZeroBitCount
    /// The first chunk's room at its first play.
    @usableFromInline static let firstCapacity = 4

    // Inlinable, as Array is, for the other modules' loops over plays (a checkpoint's encoding
    // and decoding, through calls, took 40% longer than with an array).
    /// How many plays this state holds: its first plays of the chunks.
    @usableFromInline var held: Int
    /// The chunks, `chunkSize` plays to each but the last (and the first's room may be less).
    @usableFromInline var chunks: [PlayChunk]

    /// No plays yet.
    @inlinable
    public init() {
        held = 0
        chunks = []
    }

    /// The plays in order.
    public init(_ plays: some Sequence<Play>) {
        self.init()
        for play in plays { append(play) }
    }

    /// How many plays the game has had, retracted ones included.
    @inlinable public var count: Int { held }

    /// Adds the newest play.
    @inlinable
    public mutating func append(_ play: Play) {
        let index = held >> Self.shift
        let offset = held & (Self.chunkSize - 1)
        if index < chunks.count, chunks[index].extend(after: offset, with: play) {
            held += 1
        } else {
            appendCopying(play, chunk: index, offset: offset)
        }
    }

    /// Adds the newest play where the chunk it goes to has no room for it, is missing, or holds
    /// another state's play in its place.
    @usableFromInline
    mutating func appendCopying(_ play: Play, chunk index: Int, offset: Int) {
        let chunk: PlayChunk
        if index == chunks.count {
            // A game this long fills its chunks: each later one is allocated once, at its full
            // size, rather than grown through six sizes (a replay's fold took half as long again).
            chunk = PlayChunk(capacity: index == 0 ? Self.firstCapacity : Self.chunkSize)
            chunks.append(chunk)
        } else {
            let old = chunks[index]
            // At least one more: a reserved chunk may have room for one play.
            let capacity =
                offset < old.capacity
                ? old.capacity : Swift.min(Self.chunkSize, old.capacity + Swift.max(1, old.capacity / 2))
            chunk = PlayChunk(copying: offset, of: old, capacity: capacity)
            chunks[index] = chunk
        }
        _ = chunk.extend(after: offset, with: play)
        held += 1
    }

    /// Makes room for `count` plays in all (a checkpoint knows how many it holds), as an array
    /// would reserve: a short game's first chunk at its exact size.
    public mutating func reserveCapacity(_ count: Int) {
        guard held == 0, count > 0 else { return }
        chunks = [PlayChunk(capacity: Swift.min(count, Self.chunkSize))]
        chunks.reserveCapacity((count + Self.chunkSize - 1) >> Self.shift)
    }
}

extension PlayHistory: RandomAccessCollection, MutableCollection {
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { held }

    /// The play at `position`, counted from the first; setting it copies only its chunk.
    @inlinable
    public subscript(position: Int) -> Play {
        get {
            precondition(position >= 0 && position < held, "play index out of range")
            return chunks[position >> Self.shift].plays[position & (Self.chunkSize - 1)]
        }
        set {
            precondition(position >= 0 && position < held, "play index out of range")
            // Other states may hold this chunk's plays: the play is changed in a copy.
            let index = position >> Self.shift
            let old = chunks[index]
            let copy = PlayChunk(
                copying: Swift.min(held - (index << Self.shift), Self.chunkSize), of: old, capacity: old.capacity)
            copy.plays[position & (Self.chunkSize - 1)] = newValue
            chunks[index] = copy
        }
    }
}

extension PlayHistory {
    /// Walks the chunks in turn: through the subscript, each play cost a division into chunk
    /// and offset, and two bounds checks (a checkpoint's encoding took a third longer).
    public struct Iterator: IteratorProtocol {
        @usableFromInline let chunks: [PlayChunk]
        @usableFromInline let count: Int
        @usableFromInline var position = 0
        /// The chunk `position` is in.
        @usableFromInline var plays: UnsafeMutablePointer<Play>?

        @inlinable
        init(_ history: PlayHistory) {
            chunks = history.chunks
            count = history.held
        }

        @inlinable
        public mutating func next() -> Play? {
            guard position < count else { return nil }
            let offset = position & (PlayHistory.chunkSize - 1)
            if offset == 0 { plays = chunks[position >> PlayHistory.shift].plays }
            position += 1
            // `chunks` keeps the chunk alive, and its plays below `count` never change.
            return plays.unsafelyUnwrapped[offset]
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
        // The chunks' places follow from the count alone, and a chunk two states share holds the
        // same plays below both counts.
        guard lhs.held == rhs.held else { return false }
        // Only the chunks that hold plays: a reserved history may have one more.
        for index in 0..<((lhs.held + chunkSize - 1) >> shift) where lhs.chunks[index] !== rhs.chunks[index] {
            let start = index << shift
            let count = Swift.min(lhs.held - start, chunkSize)
            let (left, right) = (lhs.chunks[index].plays, rhs.chunks[index].plays)
            guard (0..<count).allSatisfy({ left[$0] == right[$0] }) else { return false }
        }
        return true
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
