/// A JSON writer for our own messages: it appends compact JSON to a byte buffer, with the same
/// bytes as Foundation's `JSONEncoder` configured as ``WireCoding`` configures it
/// (`[.sortedKeys, .withoutEscapingSlashes]`), at a fraction of its cost.
///
/// It checks nothing: a value that conforms to ``JSONWritable`` writes its keys in sorted order
/// (by their UTF-8 bytes, as `.sortedKeys` does) and its optional fields as its `Codable` does.
/// The tests hold every conformance to Foundation's output, byte for byte.
///
/// Commas are placed by one flag: every value and every closed container sets it, every opened
/// container and every key clears it, and a key or value written while it is set is preceded by
/// a comma. That is right for any well-formed sequence of calls.
///
/// The writer owns its buffer (it is not copyable), so that appending a byte is a capacity
/// check and a store, without an array's uniqueness check.
public struct JSONWriter: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    private var needsComma = false
    /// Whether `start` is the writer's own to free; a writer that starts on ``written(_:)``'s
    /// scratch buffer gets one of its own if it outgrows it.
    private var ownsBuffer = true

    /// A writer whose buffer starts with room for `capacity` bytes; it grows as needed.
    public init(capacity: Int = 1024) {
        self.capacity = max(capacity, 1)
        start = .allocate(capacity: self.capacity)
    }

    /// A writer over `scratch`, which it never frees: ``written(_:)`` keeps it within its scope.
    private init(scratch: UnsafeMutableBufferPointer<UInt8>) {
        start = scratch.baseAddress!
        capacity = scratch.count
        ownsBuffer = false
    }

    deinit { if ownsBuffer { start.deallocate() } }

    /// What `write` writes, written first in a buffer on the stack: a short message then costs
    /// one allocation, its array, where a writer's own buffer made two (a reply is one a move).
    public static func written(_ write: (inout JSONWriter) -> Void) -> [UInt8] {
        // Up to 1 KiB, a temporary allocation is always on the stack.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { scratch in
            var writer = JSONWriter(scratch: scratch)
            write(&writer)
            return writer.bytes
        }
    }

    /// Lends `body` what `write` writes, written in a buffer on the stack up to 1 KiB: a short
    /// message then costs no allocation at all, for a receiver that copies it where it goes (a
    /// commit's replies, into one buffer for them all).
    public static func withWritten<Result>(
        _ write: (inout JSONWriter) -> Void, _ body: (UnsafeRawBufferPointer) -> Result
    ) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { scratch in
            var writer = JSONWriter(scratch: scratch)
            write(&writer)
            return writer.withBytes(body)
        }
    }

    /// The JSON written so far.
    public var bytes: [UInt8] {
        // One copy into the array's storage: `Array(UnsafeBufferPointer(...))` went through the
        // generic collection copy, a fifth of a reply's encoding on the log writer.
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            buffer.baseAddress?.initialize(from: start, count: count)
            initialized = count
        }
    }

    /// Lends the JSON written so far without copying it (valid only inside `body`).
    public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: start, count: count))
    }

    /// Forgets what was written, keeping the buffer, so that one writer serves value after value.
    public mutating func reset() {
        count = 0
        needsComma = false
    }

    /// How many bytes are written.
    public var byteCount: Int { count }

    /// Starts another value after the one written, with nothing between them: values written
    /// one after another in one buffer, each then read by its range.
    public mutating func startNextValue() {
        needsComma = false
    }

    // MARK: Containers

    public mutating func beginObject() {
        reserve(2)
        separate()
        store(UInt8(ascii: "{"))
        needsComma = false
    }

    public mutating func endObject() {
        reserve(1)
        store(UInt8(ascii: "}"))
        needsComma = true
    }

    public mutating func beginArray() {
        reserve(2)
        separate()
        store(UInt8(ascii: "["))
        needsComma = false
    }

    public mutating func endArray() {
        reserve(1)
        store(UInt8(ascii: "]"))
        needsComma = true
    }

    /// A key of the current object: an ASCII literal that needs no escaping, as our coding keys are.
    public mutating func key(_ key: StaticString) {
        let length = key.utf8CodeUnitCount
        reserve(length + 4)
        separate()
        store(UInt8(ascii: "\""))
        assert(count + length + 2 <= capacity, "JSONWriter copied past the room it reserved")
        (start + count).update(from: key.utf8Start, count: length)
        count += length
        store(UInt8(ascii: "\""))
        store(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A key of the current object from data (a dictionary's key), escaped like any string.
    public mutating func key(_ key: String) {
        reserve(1)
        separate()
        appendQuoted(key)
        reserve(1)
        store(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: Values

    public mutating func value(_ string: String) {
        reserve(1)
        separate()
        appendQuoted(string)
        needsComma = true
    }

    public mutating func value(_ bool: Bool) {
        reserve(6)
        separate()
        appendLiteral(bool ? "true" : "false")
        needsComma = true
    }

    public mutating func value(_ int: Int) {
        value(Int64(int))
    }

    public mutating func value(_ int: Int64) {
        let digits = Self.digitCount(int.magnitude)
        reserve(digits + 2)
        separate()
        storeNumber(int < 0, int.magnitude, digits: digits)
        needsComma = true
    }

    /// A key and its whole number in one reservation: for small objects of numbers written in
    /// every event (a player's counts). The key is an ASCII literal that needs no escaping.
    public mutating func key(_ key: StaticString, value int: Int) {
        let length = key.utf8CodeUnitCount
        let digits = Self.digitCount(UInt64(int.magnitude))
        // A comma, the quoted key and its colon, a sign and the digits.
        reserve(length + digits + 5)
        separate()
        store(UInt8(ascii: "\""))
        (start + count).update(from: key.utf8Start, count: length)
        count += length
        store(UInt8(ascii: "\""))
        store(UInt8(ascii: ":"))
        storeNumber(int < 0, UInt64(int.magnitude), digits: digits)
        needsComma = true
    }

    /// How many decimal digits `magnitude` has.
    @inline(__always)
    private static func digitCount(_ magnitude: UInt64) -> Int {
        var digits = 1
        var scale: UInt64 = 10
        while digits < 20 && magnitude >= scale {
            digits += 1
            scale &*= 10
        }
        return digits
    }

    /// A number's sign and its `digits` digits, in room already reserved. By its magnitude, so
    /// that Int64.min needs no special case.
    @inline(__always)
    private mutating func storeNumber(_ negative: Bool, _ magnitude: UInt64, digits: Int) {
        if negative { store(UInt8(ascii: "-")) }
        assert(count + digits <= capacity, "JSONWriter stored past the room it reserved")
        var rest = magnitude
        var cursor = start + count + digits
        repeat {
            let (quotient, digit) = rest.quotientAndRemainder(dividingBy: 10)
            cursor -= 1
            cursor.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: digit)
            rest = quotient
        } while rest > 0
        count += digits
    }

    public mutating func null() {
        reserve(5)
        separate()
        appendLiteral("null")
        needsComma = true
    }

    /// Any writable value: an object, an array, or a single value.
    public mutating func value(_ value: some JSONWritable) {
        value.writeJSON(to: &self)
    }

    /// An array of writable values.
    public mutating func value<Element: JSONWritable>(_ array: [Element]) {
        beginArray()
        for element in array { element.writeJSON(to: &self) }
        endArray()
    }

    /// An array of strings.
    public mutating func value(_ strings: [String]) {
        beginArray()
        for string in strings { value(string) }
        endArray()
    }

    /// The JSON of `value`, whose type is `Writable` (WireCoding.encode checks the type, not the value).
    public static func json<Value, Writable: JSONWritable>(of value: Value, as _: Writable.Type) -> [UInt8] {
        written { (value as! Writable).writeJSON(to: &$0) }
    }

    // MARK: The buffer

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private mutating func grow(to needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newStart = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStart.initialize(from: start, count: count)
        if ownsBuffer { start.deallocate() }
        (start, capacity, ownsBuffer) = (newStart, newCapacity, true)
    }

    /// Stores a byte in room already reserved.
    @inline(__always)
    private mutating func store(_ byte: UInt8) {
        assert(count < capacity, "JSONWriter stored past the room it reserved")
        start[count] = byte
        count += 1
    }

    /// A comma when one is due, in room already reserved.
    @inline(__always)
    private mutating func separate() {
        if needsComma { store(UInt8(ascii: ",")) }
    }

    /// A literal, in room already reserved.
    private mutating func appendLiteral(_ literal: StaticString) {
        assert(count + literal.utf8CodeUnitCount <= capacity, "JSONWriter copied past the room it reserved")
        (start + count).update(from: literal.utf8Start, count: literal.utf8CodeUnitCount)
        count += literal.utf8CodeUnitCount
    }

    // MARK: Strings

    /// The string in quotes, escaped as Foundation escapes it: `"` and `\` with a backslash;
    /// backspace, form feed, newline, carriage return and tab by their short escapes; every other
    /// control character below U+0020 as `\u00xx` in lowercase hex. Everything else, slashes,
    /// DEL, U+2028 and U+2029 included, is copied as its UTF-8 bytes.
    private mutating func appendQuoted(_ string: String) {
        if string.utf8.withContiguousStorageIfAvailable({ appendQuoted(utf8: $0) }) != nil { return }
        var string = string
        string.withUTF8 { appendQuoted(utf8: $0) }
    }

    private mutating func appendQuoted(utf8: UnsafeBufferPointer<UInt8>) {
        // Room for the quotes and the bytes as they are; an escape reserves its own.
        reserve(utf8.count + 2)
        store(UInt8(ascii: "\""))
        var copied = 0
        var index = 0
        while index < utf8.count {
            // Eight bytes at a time while none of them needs an escape, as most never do.
            if index + 8 <= utf8.count, let base = utf8.baseAddress,
                !Self.mayNeedEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            {
                index += 8
                continue
            }
            let end = min(index + 8, utf8.count)
            while index < end {
                let byte = utf8[index]
                index += 1
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                copy(utf8, from: copied, to: index - 1)
                copied = index
                // The escape's six bytes at most, then the rest of the string and the quote.
                reserve(6 + utf8.count - copied + 1)
                appendEscape(byte)
            }
        }
        copy(utf8, from: copied, to: utf8.count)
        store(UInt8(ascii: "\""))
    }

    /// Whether any of eight bytes is a control character, a quote or a backslash. Exact as a
    /// whole (the borrows that blur the per-byte flags only start at a byte that matched).
    @inline(__always)
    static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let below = (word &- ones &* 0x20) & ~word
        let quote = (quotes &- ones) & ~quotes
        let backslash = (backslashes &- ones) & ~backslashes
        return (below | quote | backslash) & highs != 0
    }

    /// Bytes `from..<to` of `utf8`, in room already reserved.
    @inline(__always)
    private mutating func copy(_ utf8: UnsafeBufferPointer<UInt8>, from: Int, to: Int) {
        guard from < to, let base = utf8.baseAddress else { return }
        assert(count + to - from <= capacity, "JSONWriter copied past the room it reserved")
        (start + count).update(from: base + from, count: to - from)
        count += to - from
    }

    /// The escape of a byte, in room already reserved.
    private mutating func appendEscape(_ byte: UInt8) {
        store(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): store(byte)
        case 0x08: store(UInt8(ascii: "b"))
        case 0x0C: store(UInt8(ascii: "f"))
        case UInt8(ascii: "\n"): store(UInt8(ascii: "n"))
        case UInt8(ascii: "\r"): store(UInt8(ascii: "r"))
        case UInt8(ascii: "\t"): store(UInt8(ascii: "t"))
        default:
            func hex(_ nibble: UInt8) -> UInt8 { nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ (nibble &- 10) }
            appendLiteral("u00")
            store(hex(byte >> 4))
            store(hex(byte & 0xF))
        }
    }
}

/// A value that writes its own JSON, byte for byte what its `Encodable` conformance gives
/// through ``WireCoding`` (sorted keys, slashes unescaped). ``WireCoding/encode(_:)`` uses it
/// when a message conforms.
public protocol JSONWritable {
    func writeJSON(to writer: inout JSONWriter)
}
