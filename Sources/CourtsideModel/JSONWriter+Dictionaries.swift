/// Dictionaries as JSON objects, their keys in the order of their UTF-8 bytes, which is the
/// order of `.sortedKeys`.
extension JSONWriter {
    /// Whole numbers keyed by identifiers (a tournament's seeds): an object whose keys are in
    /// the order of their UTF-8 bytes, which is the order of `.sortedKeys`.
    public mutating func value<Tag>(_ dictionary: [Identifier<Tag>: Int]) {
        beginObject()
        for (key, number) in dictionary.sorted(by: { $0.key.rawValue.utf8.lexicographicallyPrecedes($1.key.rawValue.utf8) }) {
            self.key(key.rawValue)
            value(number)
        }
        endObject()
    }

    /// Arrays keyed by name (a tournament's Swiss byes, by group): an object whose keys are in
    /// the order of their UTF-8 bytes, which is the order of `.sortedKeys`.
    public mutating func value<Element: JSONWritable>(_ dictionary: [String: [Element]]) {
        beginObject()
        for (key, elements) in dictionary.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            self.key(key)
            value(elements)
        }
        endObject()
    }

    /// A dictionary keyed by identifiers: an object whose keys are in the order of their UTF-8
    /// bytes, which is the order of `.sortedKeys`.
    /// Inlinable, so that callers in other modules get it (and its sort) specialized for their
    /// dictionary: unspecialized, every event's player counts paid for generic metadata look-ups.
    @inlinable
    public mutating func value<Tag, Value: JSONWritable>(_ dictionary: [Identifier<Tag>: Value]) {
        // Sorts small plain records, each key's first 16 bytes and its index in the dictionary,
        // rather than the entries themselves; only keys that share those bytes are compared whole.
        // On the stack, and sorted by insertion when there are a handful of keys, as there
        // mostly are: no array is allocated for the order.
        typealias Entry = (head: UInt64, tail: UInt64, index: Dictionary<Identifier<Tag>, Value>.Index)
        withUnsafeTemporaryAllocation(of: Entry.self, capacity: dictionary.count) { order in
            var count = 0
            var index = dictionary.startIndex
            while index != dictionary.endIndex {
                let (head, tail) = Self.prefix(dictionary[index].key.rawValue)
                order.initializeElement(at: count, to: (head, tail, index))
                count += 1
                dictionary.formIndex(after: &index)
            }
            defer { order.prefix(count).deinitialize() }
            func precedes(_ a: Entry, _ b: Entry) -> Bool {
                if a.head != b.head { return a.head < b.head }
                if a.tail != b.tail { return a.tail < b.tail }
                return Self.precedes(dictionary[a.index].key.rawValue, dictionary[b.index].key.rawValue)
            }
            if count <= 16 {
                // Insertion sort: for a handful of entries, fewer steps than the library's sort.
                for next in 1..<max(count, 1) {
                    let entry = order[next]
                    var place = next
                    while place > 0, precedes(entry, order[place - 1]) {
                        order[place] = order[place - 1]
                        place -= 1
                    }
                    order[place] = entry
                }
            } else {
                var entries = UnsafeMutableBufferPointer(rebasing: order[..<count])
                entries.sort(by: precedes)
            }
            beginObject()
            for entry in order[..<count] {
                let (key, value) = dictionary[entry.index]
                self.key(key.rawValue)
                value.writeJSON(to: &self)
            }
            endObject()
        }
    }

    /// A string's first 16 UTF-8 bytes as two big-endian numbers, zero-padded: where two differ,
    /// they order the strings as their bytes do (a zero pad sorts first, as a shorter string does).
    @usableFromInline
    static func prefix(_ string: String) -> (UInt64, UInt64) {
        func read(_ utf8: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
            var (head, tail): (UInt64, UInt64) = (0, 0)
            for index in 0..<min(utf8.count, 8) { head |= UInt64(utf8[index]) << (56 - 8 * index) }
            for index in 8..<max(8, min(utf8.count, 16)) { tail |= UInt64(utf8[index]) << (56 - 8 * (index - 8)) }
            return (head, tail)
        }
        if let prefix = string.utf8.withContiguousStorageIfAvailable(read) { return prefix }
        var string = string
        return string.withUTF8(read)
    }

    /// Whether `a`'s UTF-8 bytes sort before `b`'s (String's `<` compares normalized scalars).
    @usableFromInline
    static func precedes(_ a: String, _ b: String) -> Bool {
        var (a, b) = (a, b)
        return a.withUTF8 { a in
            b.withUTF8 { b in
                for index in 0..<min(a.count, b.count) where a[index] != b[index] { return a[index] < b[index] }
                return a.count < b.count
            }
        }
    }
}
