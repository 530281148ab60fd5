package import CourtsideModel
import Foundation

/// Reads the JSON payloads of the log's events.
///
/// Nearly every event is a flat object of a few strings and integers (a move, a retraction, the
/// clock), and Foundation's `JSONDecoder` spends most of a replay's time on them: a start that
/// replays the tail after a checkpoint (or the whole log) decodes each one. Those are read here
/// by hand; anything else (a game's creation or new teams, which nest objects, and any escape,
/// number or key this reader does not expect) goes to `JSONDecoder`, so what the log holds is
/// read as before. The tests check the two agree.
package struct EventPayloadDecoder {
    private let json = JSONDecoder()

    package init() {}

    package func decode(_ payload: UnsafeRawBufferPointer) throws -> GameEvent.Kind {
        if let kind = Self.flat(payload) { return kind }
        return try json.decode(GameEvent.Kind.self, from: Data(payload))
    }

    /// The kind a flat payload describes, or nil when it is not one this reader is sure of.
    static func flat(_ payload: UnsafeRawBufferPointer) -> GameEvent.Kind? {
        var scanner = Scanner(bytes: payload)
        guard let fields = scanner.object() else { return nil }
        var type: String?
        var player: String?
        var move: String?
        var side: String?
        var target: Int?
        for (key, value) in fields {
            switch (key, value) {
            case ("type", .string(let value)) where type == nil: type = value
            case ("player", .string(let value)) where player == nil: player = value
            case ("move", .string(let value)) where move == nil: move = value
            case ("side", .string(let value)) where side == nil: side = value
            case ("target_version", .integer(let value)) where target == nil: target = value
            // Unknown keys are ignored, as JSONDecoder does; known ones of another shape are not ours.
            // A reason (a correction's) is kept by JSONDecoder.
            case ("type", _), ("player", _), ("move", _), ("side", _), ("target_version", _), ("reason", _): return nil
            default: continue
            }
        }
        switch type {
        case "move":
            guard let player, let move = move.flatMap(MoveKind.init(rawValue:)) else { return nil }
            return .move(player: PlayerID(player), move: move)
        case "retraction":
            guard let target else { return nil }
            return .retraction(targetVersion: target)
        case "clock_started": return .clockStarted
        case "clock_paused": return .clockPaused
        case "time_expired": return .timeExpired
        case "timeout":
            guard let side = side.flatMap(Side.init(rawValue:)) else { return nil }
            return .timeout(side: side)
        default: return nil
        }
    }

    private enum Value {
        case string(String)
        case integer(Int)
    }

    /// A JSON object of strings without escapes and of integers, and nothing else.
    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func object() -> [(String, Value)]? {
            var fields: [(String, Value)] = []
            guard take(UInt8(ascii: "{")) else { return nil }
            if take(UInt8(ascii: "}")) { return end() ? fields : nil }
            repeat {
                guard let key = string(), take(UInt8(ascii: ":")) else { return nil }
                guard let value = value() else { return nil }
                fields.append((key, value))
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")), end() else { return nil }
            return fields
        }

        private mutating func skipSpace() {
            while offset < bytes.count {
                switch bytes[offset] {
                case 0x20, 0x09, 0x0a, 0x0d: offset += 1
                default: return
                }
            }
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard offset < bytes.count, bytes[offset] == byte else { return false }
            offset += 1
            return true
        }

        private mutating func end() -> Bool {
            skipSpace()
            return offset == bytes.count
        }

        private mutating func value() -> Value? {
            skipSpace()
            guard offset < bytes.count else { return nil }
            if bytes[offset] == UInt8(ascii: "\"") { return string().map(Value.string) }
            return integer().map(Value.integer)
        }

        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = offset
            while offset < bytes.count {
                let byte = bytes[offset]
                // An escape, or a control character (not valid JSON): not ours to read.
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                if byte == UInt8(ascii: "\"") {
                    defer { offset += 1 }
                    return String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
                }
                offset += 1
            }
            return nil
        }

        /// An integer as JSON writes it: an optional minus, then digits without a leading zero.
        private mutating func integer() -> Int? {
            let negative = bytes[offset] == UInt8(ascii: "-")
            if negative { offset += 1 }
            let start = offset
            var value = 0
            while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) {
                let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(Int(bytes[offset] - UInt8(ascii: "0")))
                guard !overflow1, !overflow2 else { return nil }
                value = sum
                offset += 1
            }
            let digits = offset - start
            guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
            // A fraction or an exponent follows: a number JSONDecoder may or may not take as an Int.
            if offset < bytes.count {
                switch bytes[offset] {
                case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
                default: break
                }
            }
            return negative ? -value : value
        }
    }
}
