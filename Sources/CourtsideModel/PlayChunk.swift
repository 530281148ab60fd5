import Synchronization

/// Room for a run of a game's plays, which every state of the game holding it shares, and which
/// the newest state extends in place.
///
/// Each ``PlayHistory`` reads only its own first plays of a chunk, which nobody writes again.
/// The room after them is written once: by the first state that claims the next place
/// (``extend(after:with:)``), so a state's successor adds its move without copying the plays
/// its predecessors hold. Any other state, whose last play is not the chunk's, copies it, as
/// an array shared by two states would be copied.
@usableFromInline
final class PlayChunk: @unchecked Sendable {
    // Unchecked: the plays below a state's count are never written again, and each place above
    // them is written by the one state that claimed it through `filled`, before any other state
    // can hold it (states reach other threads only through a lock or an actor).
    /// How many plays the chunk has room for.
    @usableFromInline let capacity: Int
    /// The plays; those below `filled` are initialised.
    @usableFromInline let plays: UnsafeMutablePointer<Play>
    /// How many places are claimed: the longest state's count within the chunk.
    private let filled = Atomic(0)

    /// An empty chunk with room for `capacity` plays.
    @usableFromInline
    init(capacity: Int) {
        self.capacity = capacity
        plays = .allocate(capacity: capacity)
    }

    /// A chunk holding the first `count` plays of `other`, with room for `capacity`.
    @usableFromInline
    init(copying count: Int, of other: PlayChunk, capacity: Int) {
        self.capacity = capacity
        plays = .allocate(capacity: capacity)
        plays.initialize(from: other.plays, count: count)
        filled.store(count, ordering: .relaxed)
    }

    deinit {
        // The last release follows every write of the plays: relaxed is enough here.
        plays.deinitialize(count: filled.load(ordering: .relaxed))
        plays.deallocate()
    }

    /// Puts `play` after the first `count` plays, if no state has put one there yet and there
    /// is room; false otherwise, and the caller copies the chunk.
    @usableFromInline
    func extend(after count: Int, with play: Play) -> Bool {
        guard count < capacity,
            filled.compareExchange(expected: count, desired: count + 1, ordering: .relaxed).exchanged
        else { return false }
        (plays + count).initialize(to: play)
        return true
    }
}
