/// One client's remembered commands by id, for ``RetryAnswers``: an open-addressed table of the
/// low 32 bits of each answer's number beside 32 bits of its command id's hash, which the
/// client's own list of answers turns into its place and its command's id.
///
/// A dictionary from command id to number held each id a second time, in buckets of 24 bytes
/// at under three quarters' load: about 53 bytes a command at 60,000 commands. This holds 8
/// bytes a bucket at at most half load (docs/FIGURES.md, "Memory and restart").
/// Linear probing, and deletion by shifting the entries after back, so no tombstone is left.
/// Each bucket keeps its entry's hash bits, so that neither growing nor a deletion's shifts
/// hash a command id again (each read its id from the client's list of answers and hashed it,
/// 6% of the pool's samples under `courtside-bench daemon`, docs/FIGURES.md), and a look-up
/// passes the entries that only share its bucket without reading their ids.
struct RetryAnswerIndex {
    /// Each bucket: its entry's hash bits above, the low 32 bits of its answer's number below;
    /// 0 where it is empty (the hash bits always have their top bit set).
    private var buckets: [UInt64] = []
    /// The entries held.
    private(set) var count = 0

    private var mask: Int { buckets.count - 1 }

    /// The 32 bits of `hash` a bucket keeps: the top half, its top bit set so that no bucket in
    /// use is 0. Their low bits choose the entry's bucket.
    private static func bits(_ hash: Int) -> UInt64 {
        UInt64(bitPattern: Int64(hash)) >> 32 | 0x8000_0000
    }

    private func home(_ bits: UInt64) -> Int { Int(truncatingIfNeeded: bits) & mask }

    /// The entry whose command `matches` says is the one looked for, among those that hash
    /// like it.
    func find(hash: Int, matches: (UInt32) -> Bool) -> UInt32? {
        guard count > 0 else { return nil }
        let bits = Self.bits(hash)
        var bucket = home(bits)
        while buckets[bucket] != 0 {
            let entry = buckets[bucket]
            if entry >> 32 == bits, matches(UInt32(truncatingIfNeeded: entry)) { return UInt32(truncatingIfNeeded: entry) }
            bucket = (bucket &+ 1) & mask
        }
        return nil
    }

    /// Adds an entry.
    mutating func insert(_ number: UInt32, hash: Int) {
        if (count + 1) * 2 > buckets.count { grow() }
        place(Self.bits(hash) << 32 | UInt64(number))
        count += 1
    }

    /// Puts an entry in the first empty bucket from its own.
    private mutating func place(_ entry: UInt64) {
        var bucket = home(entry >> 32)
        while buckets[bucket] != 0 { bucket = (bucket &+ 1) & mask }
        buckets[bucket] = entry
    }

    /// Removes an entry that is held.
    mutating func remove(_ number: UInt32, hash: Int) {
        let entry = Self.bits(hash) << 32 | UInt64(number)
        var hole = home(entry >> 32)
        while buckets[hole] != entry { hole = (hole &+ 1) & mask }
        // Each entry after the hole, up to the next empty bucket, moves into it if the hole
        // lies on its way from its own bucket: a look-up then still finds it.
        var next = (hole &+ 1) & mask
        while buckets[next] != 0 {
            let home = home(buckets[next] >> 32)
            if (next &- home) & mask >= (next &- hole) & mask {
                buckets[hole] = buckets[next]
                hole = next
            }
            next = (next &+ 1) & mask
        }
        buckets[hole] = 0
        count -= 1
    }

    private mutating func grow() {
        let old = buckets
        buckets = [UInt64](repeating: 0, count: max(8, old.count * 2))
        for entry in old where entry != 0 { place(entry) }
    }
}
