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

    /// A dictionary keyed by identifiers (a draw's teams): an object whose keys are in the order
    /// of their UTF-8 bytes, which is the order of `.sortedKeys`.
    public mutating func value<Tag, Value: JSONWritable>(_ dictionary: [Identifier<Tag>: Value]) {
        beginObject()
        for (key, element) in dictionary.sorted(by: { $0.key.rawValue.utf8.lexicographicallyPrecedes($1.key.rawValue.utf8) }) {
            self.key(key.rawValue)
            element.writeJSON(to: &self)
        }
        endObject()
    }
}
