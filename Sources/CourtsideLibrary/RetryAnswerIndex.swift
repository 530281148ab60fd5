/// One client's remembered commands by id, for ``RetryAnswers``: an open-addressed table of the
/// low 32 bits of each answer's number, which the client's own list of answers turns into its
/// place and its command's id.
///
/// A dictionary from command id to number held each id a second time, in buckets of 24 bytes
/// at under three quarters' load: about 53 bytes a command at 60,000 commands. This holds 5
/// bytes a bucket at at most half load (docs/FIGURES.md, "Memory and restart").
/// Linear probing, and deletion by shifting the entries after back, so no tombstone is left.
/// Each bucket's tag, 8 bits of its entry's hash, lets a look-up pass the entries that only
/// share its bucket without reading their command ids from the client's list (a new command,
/// the usual case, otherwise read one or two ids a look-up).
struct RetryAnswerIndex {
    /// Each bucket's entry: the low 32 bits of an answer's number.
    private var numbers: [UInt32] = []
    /// Each bucket's tag: 0 where it is empty, else 1 to 255, from the top bits of its entry's hash.
    private var tags: [UInt8] = []
    /// The entries held.
    private(set) var count = 0

    private var mask: Int { numbers.count - 1 }

    private static func tag(_ hash: Int) -> UInt8 {
        let tag = UInt8(truncatingIfNeeded: UInt(bitPattern: hash) >> (UInt.bitWidth - 8))
        return tag == 0 ? 1 : tag
    }

    /// The entry whose command `matches` says is the one looked for, among those that hash
    /// like it.
    func find(hash: Int, matches: (UInt32) -> Bool) -> UInt32? {
        guard count > 0 else { return nil }
        let tag = Self.tag(hash)
        var bucket = hash & mask
        while tags[bucket] != 0 {
            if tags[bucket] == tag, matches(numbers[bucket]) { return numbers[bucket] }
            bucket = (bucket &+ 1) & mask
        }
        return nil
    }

    /// Adds an entry. `hashOf` gives the hash of an entry already held, when the table grows.
    mutating func insert(_ number: UInt32, hash: Int, hashOf: (UInt32) -> Int) {
        if (count + 1) * 2 > numbers.count { grow(hashOf) }
        place(number, hash: hash)
        count += 1
    }

    /// Puts an entry in the first empty bucket from its own.
    private mutating func place(_ number: UInt32, hash: Int) {
        var bucket = hash & mask
        while tags[bucket] != 0 { bucket = (bucket &+ 1) & mask }
        numbers[bucket] = number
        tags[bucket] = Self.tag(hash)
    }

    /// Removes an entry that is held; `hashOf` gives the hash of any entry held, the removed
    /// one included.
    mutating func remove(_ number: UInt32, hash: Int, hashOf: (UInt32) -> Int) {
        var hole = hash & mask
        while numbers[hole] != number || tags[hole] == 0 { hole = (hole &+ 1) & mask }
        // Each entry after the hole, up to the next empty bucket, moves into it if the hole
        // lies on its way from its own bucket: a look-up then still finds it.
        var next = (hole &+ 1) & mask
        while tags[next] != 0 {
            let home = hashOf(numbers[next]) & mask
            if (next &- home) & mask >= (next &- hole) & mask {
                numbers[hole] = numbers[next]
                tags[hole] = tags[next]
                hole = next
            }
            next = (next &+ 1) & mask
        }
        tags[hole] = 0
        count -= 1
    }

    private mutating func grow(_ hashOf: (UInt32) -> Int) {
        let old = (numbers, tags)
        let size = max(8, numbers.count * 2)
        numbers = [UInt32](repeating: 0, count: size)
        tags = [UInt8](repeating: 0, count: size)
        for bucket in old.0.indices where old.1[bucket] != 0 { place(old.0[bucket], hash: hashOf(old.0[bucket])) }
    }
}
