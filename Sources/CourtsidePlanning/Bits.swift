/// A fixed-size set of small integers (games or teams), one bit each.
struct Bits: Hashable, Sendable {
    private(set) var words: [UInt64]

    init(count: Int) { words = Array(repeating: 0, count: (count + 63) / 64) }

    func contains(_ member: Int) -> Bool { words[member >> 6] & (1 << UInt64(member & 63)) != 0 }

    mutating func insert(_ member: Int) { words[member >> 6] |= 1 << UInt64(member & 63) }

    mutating func formUnion(_ other: Bits) {
        for index in words.indices { words[index] |= other.words[index] }
    }

    func intersects(_ other: Bits) -> Bool {
        for index in words.indices where words[index] & other.words[index] != 0 { return true }
        return false
    }

    /// The members, smallest first.
    var members: [Int] {
        var found: [Int] = []
        for (index, word) in words.enumerated() where word != 0 {
            var rest = word
            while rest != 0 {
                found.append(index * 64 + rest.trailingZeroBitCount)
                rest &= rest - 1
            }
        }
        return found
    }
}

