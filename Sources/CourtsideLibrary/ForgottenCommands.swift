import CourtsideModel

/// The commands whose answers the retry memory forgot, as a scalable Bloom filter: a miss that
/// it may contain must ask the log whether the command is new; any other miss is a new command
/// for certain. A false positive costs only that look-up; a false negative cannot happen, so a
/// forgotten command retried always gets `retry_expired`, never a second application.
///
/// One filter of fixed size would fill up: after many millions of forgotten commands nearly
/// every new command would pay the look-up. So each filter takes a planned number of commands
/// (16 bits each, four hashes: about 0.24% false positives when full), and the next one is
/// twice as large; a command is looked for in all of them and added to the newest. The false
/// positive rate then grows with the number of filters, the logarithm of the commands forgotten
/// (about 1.4% after 60 million), and the memory with the commands (about 2 bytes each, 4 at
/// most just after a new filter). Empty until the first command is forgotten: most venues
/// never fill the retry window.
struct ForgottenCommands {
    /// A command's two hashes, from which each filter derives its bits: computed once a look-up,
    /// outside the memory's lock.
    struct Hashes {
        let first: UInt64
        let second: UInt64

        /// FNV-1a of the command's two ids, mixed (MurmurHash3's finalizer) so that the low bits
        /// a filter's size keeps are as good as the high ones.
        init(_ origin: CommandOrigin) {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            // Each id's bytes in turn, a zero between: joining them first allocated an array a look-up.
            func mix(_ byte: UInt8) {
                hash ^= UInt64(byte)
                hash &*= 0x100_0000_01b3
            }
            for byte in origin.clientID.utf8 { mix(byte) }
            mix(0)
            for byte in origin.commandID.utf8 { mix(byte) }
            hash ^= hash >> 33
            hash &*= 0xff51_afd7_ed55_8ccd
            hash ^= hash >> 33
            hash &*= 0xc4ce_b9fe_1a85_ec53
            hash ^= hash >> 33
            (first, second) = (hash & 0xffff_ffff, (hash >> 32) | 1)
        }
    }

    /// One Bloom filter: four bits a command, by double hashing.
    private struct Filter {
        var words: [UInt64]
        /// Commands added: an upper bound on those it holds, since a command may come twice.
        var count = 0

        init(words: Int) { self.words = [UInt64](repeating: 0, count: words) }

        /// How many commands it takes before the next filter starts.
        var capacity: Int { words.count * 64 / ForgottenCommands.bitsPerCommand }

        func bits(_ hashes: Hashes) -> some Sequence<Int> {
            let size = UInt64(words.count * 64)
            return (0..<UInt64(ForgottenCommands.hashesPerCommand)).lazy.map {
                Int((hashes.first &+ $0 &* hashes.second) % size)
            }
        }

        func contains(_ hashes: Hashes) -> Bool {
            bits(hashes).allSatisfy { words[$0 / 64] & (1 << UInt64($0 % 64)) != 0 }
        }

        mutating func insert(_ hashes: Hashes) {
            for bit in bits(hashes) { words[bit / 64] |= 1 << UInt64(bit % 64) }
            count += 1
        }
    }

    /// 16 bits a command with four hashes: a full filter answers yes to about 0.24% of the
    /// commands it does not hold.
    static let bitsPerCommand = 16
    static let hashesPerCommand = 4

    /// The commands the first filter takes: a million, in 2^24 bits (2 MiB).
    let firstCapacity: Int
    /// Oldest and smallest first; commands go to the last.
    private var filters: [Filter] = []

    init(firstCapacity: Int = 1 << 20) { self.firstCapacity = max(4, firstCapacity) }

    var isEmpty: Bool { filters.isEmpty }

    /// How many filters there are: one more each time the newest is full.
    var generations: Int { filters.count }

    mutating func insert(_ hashes: Hashes) {
        if filters.last.map({ $0.count >= $0.capacity }) ?? true {
            let words = filters.last.map { $0.words.count * 2 } ?? firstCapacity * Self.bitsPerCommand / 64
            filters.append(Filter(words: words))
        }
        filters[filters.count - 1].insert(hashes)
    }

    func mayContain(_ hashes: Hashes) -> Bool {
        filters.contains { $0.contains(hashes) }
    }

    /// Adds the commands `other` holds. Filters of one size whose commands together fit its
    /// capacity become one (a Bloom filter of a union is the OR of the two); any other is kept
    /// as it is, since its bits mean nothing at another size.
    mutating func formUnion(_ other: ForgottenCommands) {
        for filter in other.filters {
            let fits = filters.firstIndex {
                $0.words.count == filter.words.count && $0.count + filter.count <= $0.capacity
            }
            if let index = fits {
                for word in filter.words.indices { filters[index].words[word] |= filter.words[word] }
                filters[index].count += filter.count
            } else {
                filters.append(filter)
            }
        }
        // The largest last, so that the next filter is twice the largest.
        filters.sort { $0.words.count < $1.words.count }
    }
}
