/// One client's remembered commands by id, for ``RetryAnswers``: an open-addressed table of the
/// low 32 bits of each answer's number beside the low 32 bits of its command id's hash, which
/// the client's own list of answers turns into its place and its command's id.
///
/// A dictionary from command id to number held each id a second time, in buckets of 24 bytes
/// at under three quarters' load: about 53 bytes a command at 60,000 commands. This holds 9
/// bytes a bucket at at most half load (docs/FIGURES.md, "Memory and restart").
/// Linear probing, and deletion by shifting the entries after back, so no tombstone is left.
/// Each bucket keeps its entry's hash, so that neither growing nor a deletion's shifts hash a
/// command id again: each read the id from the client's list of answers and hashed it, 3 to 6%
/// of the pool's samples under `courtside-bench daemon` (docs/FIGURES.md).
/// Each bucket's tag, 8 bits of its entry's hash in a list of its own, lets a look-up pass the
/// entries that only share its bucket reading a byte each: with the hashes beside the numbers
/// alone, a look-up read 8 bytes a bucket, and missed the cache more (a new command, the usual
/// case, reads a tag or two and nothing else).
struct RetryAnswerIndex {
    /// Each bucket's entry: the low 32 bits of its command id's hash above, the low 32 bits of
    /// its answer's number below.
    private var entries: [UInt64] = []
    /// Each bucket's tag: 0 where it is empty, else 1 to 255, from the top bits of its entry's hash.
    private var tags: [UInt8] = []
    /// The entries held.
    private(set) var count = 0

    private var mask: Int { entries.count - 1 }

    private static func tag(_ hash: Int) -> UInt8 {
        let tag = UInt8(truncatingIfNeeded: UInt(bitPattern: hash) >> (UInt.bitWidth - 8))
        return tag == 0 ? 1 : tag
    }

    private static func entry(_ number: UInt32, hash: Int) -> UInt64 {
        UInt64(UInt32(truncatingIfNeeded: hash)) << 32 | UInt64(number)
    }

    /// An entry's bucket, from the hash bits it keeps.
    private func home(_ entry: UInt64) -> Int { Int(truncatingIfNeeded: entry >> 32) & mask }

    /// The entry whose command `matches` says is the one looked for, among those that hash
    /// like it.
    func find(hash: Int, matches: (UInt32) -> Bool) -> UInt32? {
        guard count > 0 else { return nil }
        let (tag, bits) = (Self.tag(hash), UInt64(UInt32(truncatingIfNeeded: hash)))
        var bucket = hash & mask
        while tags[bucket] != 0 {
            if tags[bucket] == tag, entries[bucket] >> 32 == bits, matches(UInt32(truncatingIfNeeded: entries[bucket])) {
                return UInt32(truncatingIfNeeded: entries[bucket])
            }
            bucket = (bucket &+ 1) & mask
        }
        return nil
    }

    /// Adds an entry.
    mutating func insert(_ number: UInt32, hash: Int) {
        if (count + 1) * 2 > entries.count { grow() }
        place(Self.entry(number, hash: hash), tag: Self.tag(hash))
        count += 1
    }

    /// Puts an entry in the first empty bucket from its own.
    private mutating func place(_ entry: UInt64, tag: UInt8) {
        var bucket = home(entry)
        while tags[bucket] != 0 { bucket = (bucket &+ 1) & mask }
        entries[bucket] = entry
        tags[bucket] = tag
    }

    /// Removes an entry that is held.
    mutating func remove(_ number: UInt32, hash: Int) {
        let entry = Self.entry(number, hash: hash)
        var hole = hash & mask
        while entries[hole] != entry || tags[hole] == 0 { hole = (hole &+ 1) & mask }
        // Each entry after the hole, up to the next empty bucket, moves into it if the hole
        // lies on its way from its own bucket: a look-up then still finds it.
        var next = (hole &+ 1) & mask
        while tags[next] != 0 {
            if (next &- home(entries[next])) & mask >= (next &- hole) & mask {
                entries[hole] = entries[next]
                tags[hole] = tags[next]
                hole = next
            }
            next = (next &+ 1) & mask
        }
        tags[hole] = 0
        count -= 1
    }

    private mutating func grow() {
        let old = (entries, tags)
        let size = max(8, entries.count * 2)
        entries = [UInt64](repeating: 0, count: size)
        tags = [UInt8](repeating: 0, count: size)
        for bucket in old.0.indices where old.1[bucket] != 0 { place(old.0[bucket], tag: old.1[bucket]) }
    }
}
