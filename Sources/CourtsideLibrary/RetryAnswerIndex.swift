/// One client's remembered commands by id, for ``RetryAnswers``: an open-addressed table of the
/// low 32 bits of each answer's number, which the client's own list of answers turns into its
/// place and its command's id.
///
/// A dictionary from command id to number held each id a second time, in buckets of 24 bytes
/// at under three quarters' load: about 53 bytes a command at 60,000 commands. This holds 4
/// bytes and a bit a bucket at at most half load (docs/FIGURES.md, "Memory and restart").
/// Linear probing, and deletion by shifting the entries after back, so no tombstone is left.
struct RetryAnswerIndex {
    /// Each bucket's entry: the low 32 bits of an answer's number.
    private var numbers: [UInt32] = []
    /// One bit a bucket: whether it holds an entry.
    private var occupied: [UInt64] = []
    /// The entries held.
    private(set) var count = 0

    private var mask: Int { numbers.count - 1 }

    private func isOccupied(_ bucket: Int) -> Bool { occupied[bucket >> 6] & (1 << UInt64(bucket & 63)) != 0 }

    private mutating func occupy(_ bucket: Int, _ number: UInt32) {
        numbers[bucket] = number
        occupied[bucket >> 6] |= 1 << UInt64(bucket & 63)
    }

    /// The entry whose command `matches` says is the one looked for, among those that hash
    /// like it.
    func find(hash: Int, matches: (UInt32) -> Bool) -> UInt32? {
        guard count > 0 else { return nil }
        var bucket = hash & mask
        while isOccupied(bucket) {
            if matches(numbers[bucket]) { return numbers[bucket] }
            bucket = (bucket &+ 1) & mask
        }
        return nil
    }

    /// Adds an entry. `hashOf` gives the hash of an entry already held, when the table grows.
    mutating func insert(_ number: UInt32, hash: Int, hashOf: (UInt32) -> Int) {
        if (count + 1) * 2 > numbers.count { grow(hashOf) }
        var bucket = hash & mask
        while isOccupied(bucket) { bucket = (bucket &+ 1) & mask }
        occupy(bucket, number)
        count += 1
    }

    /// Removes an entry that is held; `hashOf` gives the hash of any entry held, the removed
    /// one included.
    mutating func remove(_ number: UInt32, hash: Int, hashOf: (UInt32) -> Int) {
        var hole = hash & mask
        while numbers[hole] != number || !isOccupied(hole) { hole = (hole &+ 1) & mask }
        // Each entry after the hole, up to the next empty bucket, moves into it if the hole
        // lies on its way from its own bucket: a look-up then still finds it.
        var next = (hole &+ 1) & mask
        while isOccupied(next) {
            let home = hashOf(numbers[next]) & mask
            if (next &- home) & mask >= (next &- hole) & mask {
                numbers[hole] = numbers[next]
                hole = next
            }
            next = (next &+ 1) & mask
        }
        occupied[hole >> 6] &= ~(1 << UInt64(hole & 63))
        count -= 1
    }

    private mutating func grow(_ hashOf: (UInt32) -> Int) {
        let old = (numbers, occupied)
        let size = max(8, numbers.count * 2)
        numbers = [UInt32](repeating: 0, count: size)
        occupied = [UInt64](repeating: 0, count: (size + 63) / 64)
        for bucket in old.0.indices where old.1[bucket >> 6] & (1 << UInt64(bucket & 63)) != 0 {
            var slot = hashOf(old.0[bucket]) & mask
            while isOccupied(slot) { slot = (slot &+ 1) & mask }
            occupy(slot, old.0[bucket])
        }
    }
}
