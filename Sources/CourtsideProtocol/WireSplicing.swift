extension WireCoding {
    /// The JSON of `value` with more members appended, each an array whose elements are JSON
    /// already encoded: a reply of thousands of games is put together from each game's cached
    /// JSON instead of encoding every game again.
    ///
    /// Keys are plain names (letters, digits, `_`) and must not be members of `value` already.
    /// The members follow the value's own, so the whole is no longer in sorted key order; JSON
    /// readers take members in any order.
    public static func encode(_ value: some Encodable, appending members: [(key: String, elements: [[UInt8]])]) throws
        -> [UInt8]
    {
        let head = try encode(value)
        guard head.count >= 2, head.last == UInt8(ascii: "}") else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "only a JSON object can have members appended"))
        }
        let extra = members.reduce(0) { sum, member in
            sum + member.key.utf8.count + 6 + member.elements.reduce(0) { $0 + $1.count + 1 }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(head.count + extra)
        bytes.append(contentsOf: head.dropLast())
        for member in members {
            if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: member.key.utf8)
            bytes.append(contentsOf: "\":[".utf8)
            for (index, element) in member.elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.append(contentsOf: element)
            }
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
