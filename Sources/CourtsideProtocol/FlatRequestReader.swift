import CourtsideModel

/// Reads the requests that are one flat JSON object of plain strings and integers, which is
/// nearly all of them, faster than `JSONDecoder` can.
///
/// It accepts a strict subset of JSON and gives up (nil) on anything else: an escape in a
/// string, a nested value, `null`, `true`, a fraction or an exponent, an unknown or repeated
/// key, a value of the wrong type, invalid UTF-8. The caller then decodes with `JSONDecoder`,
/// which reads the rest and explains every error, so both ways give the same request.
enum FlatRequestReader {
    static func read(_ body: [UInt8]) -> WireRequest? {
        fields(body)?.request()
    }

    /// The request, checked, or nil when the body is not such a flat object (the caller then
    /// decodes it with `JSONDecoder`). A move, nearly every request, is made without the wire
    /// request's two dozen fields: filling, checking and dropping those took a third of a move's
    /// decoding in `courtside-bench daemon --keepers 16 --window 32`.
    static func request(_ body: [UInt8]) throws(ProtocolError) -> Request? {
        guard let fields = fields(body) else { return nil }
        if let move = try fields.moveRequest() { return move }
        return try fields.request()?.checked()
    }

    private static func fields(_ body: [UInt8]) -> Fields? {
        body.withUnsafeBufferPointer { bytes in
            var reader = Cursor(bytes: bytes)
            return reader.object()
        }
    }

    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func object() -> Fields? {
            var fields = Fields()
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return nil }
            skipSpace()
            if take(UInt8(ascii: "}")) { return nil }  // no fields: let the decoder say which is missing
            while true {
                skipSpace()
                guard let key = key() else { return nil }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: "\"") {
                    guard let value = string(), fields.set(key, text: value) else { return nil }
                } else {
                    guard let value = integer(), fields.set(key, number: value) else { return nil }
                }
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                guard take(UInt8(ascii: "}")) else { return nil }
                skipSpace()
                return index == bytes.count ? fields : nil
            }
        }

        mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// A key that ``Key`` names, read in place: no string is made for it. Any other key,
        /// escaped ones included, is nil, as ``Fields`` refused them when keys were strings.
        mutating func key() -> Key? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += 1 }
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return Key(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        }

        /// A string without escapes or control characters, in valid UTF-8.
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            var ascii = true
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    defer { index += 1 }
                    // Not String(validating:as:), which looks up its encoding's generic metadata at
                    // every call (2% of the daemon's CPU under load). Decoding repairs invalid
                    // UTF-8, so a string whose bytes are not the input's was not valid.
                    let utf8 = UnsafeBufferPointer(rebasing: bytes[start..<index])
                    let string = String(decoding: utf8, as: UTF8.self)
                    return ascii || string.utf8.elementsEqual(utf8) ? string : nil
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                if byte >= 0x80 { ascii = false }
                index += 1
            }
            return nil
        }

        /// An integer as JSON writes one (no leading zeros), with nothing after it that would
        /// make it a fraction; nil on overflow.
        mutating func integer() -> Int? {
            let negative = take(UInt8(ascii: "-"))
            let start = index
            var value = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                let digit = Int(bytes[index] - UInt8(ascii: "0"))
                let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowSum) =
                    negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
                if overflowTimes || overflowSum { return nil }
                value = sum
                index += 1
            }
            let digits = index - start
            guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
            if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
                return nil
            }
            return value
        }
    }

    /// The keys a flat request may have, told apart by their bytes: made a string first, a key
    /// was then compared with each name in turn (`_findStringSwitchCase`), about 2% of the pool's
    /// samples under `courtside-bench daemon` with the strings' making.
    private enum Key {
        case op, clientID, commandID, game, player, move, action, home, away, court, side, version

        /// The key named exactly `name`, if any.
        init?(_ name: UnsafeBufferPointer<UInt8>) {
            // By length and first byte, then one comparison of the whole name.
            let (key, spelled): (Key, StaticString)
            switch (name.count, name.first ?? 0) {
            case (2, UInt8(ascii: "o")): (key, spelled) = (.op, "op")
            case (9, UInt8(ascii: "c")): (key, spelled) = (.clientID, "client_id")
            case (10, UInt8(ascii: "c")): (key, spelled) = (.commandID, "command_id")
            case (4, UInt8(ascii: "g")): (key, spelled) = (.game, "game")
            case (6, UInt8(ascii: "p")): (key, spelled) = (.player, "player")
            case (4, UInt8(ascii: "m")): (key, spelled) = (.move, "move")
            case (6, UInt8(ascii: "a")): (key, spelled) = (.action, "action")
            case (4, UInt8(ascii: "h")): (key, spelled) = (.home, "home")
            case (4, UInt8(ascii: "a")): (key, spelled) = (.away, "away")
            case (5, UInt8(ascii: "c")): (key, spelled) = (.court, "court")
            case (4, UInt8(ascii: "s")): (key, spelled) = (.side, "side")
            case (7, UInt8(ascii: "v")): (key, spelled) = (.version, "version")
            default: return nil
            }
            guard name.elementsEqual(UnsafeBufferPointer(start: spelled.utf8Start, count: spelled.utf8CodeUnitCount))
            else { return nil }
            self = key
        }
    }

    /// The fields read so far; each may be set once.
    private struct Fields {
        var op, clientID, commandID, game, player, move, action, home, away, court, side: String?
        var version: Int?

        mutating func set(_ key: Key, text: String) -> Bool {
            func once(_ field: inout String?) -> Bool {
                guard field == nil else { return false }
                field = text
                return true
            }
            switch key {
            case .op: return once(&op)
            case .clientID: return once(&clientID)
            case .commandID: return once(&commandID)
            case .game: return once(&game)
            case .player: return once(&player)
            case .move: return once(&move)
            case .action: return once(&action)
            case .home: return once(&home)
            case .away: return once(&away)
            case .court: return once(&court)
            case .side: return once(&side)
            case .version: return false
            }
        }

        mutating func set(_ key: Key, number: Int) -> Bool {
            guard key == .version, version == nil else { return false }
            version = number
            return true
        }

        /// The move these fields are, checked as ``WireRequest/checked()`` checks it; nil when they
        /// are not a move with only a move's fields (the wire request then reads them).
        func moveRequest() throws(ProtocolError) -> Request? {
            guard op == "move", let clientID, let commandID, let game, let player, let move,
                let kind = MoveKind(rawValue: move),
                version == nil, action == nil, home == nil, away == nil, court == nil, side == nil
            else { return nil }
            let origin = try WireRequest.origin(clientID: clientID, commandID: commandID)
            return Request(
                origin: origin, operation: .move(game: GameID(rawValue: game), player: PlayerID(rawValue: player), move: kind))
        }

        /// The wire request, or nil when a value is not one its field takes.
        func request() -> WireRequest? {
            guard let op, let clientID, let commandID else { return nil }
            var wire = WireRequest(op: op, clientID: clientID, commandID: commandID)
            if let move {
                guard let kind = MoveKind(rawValue: move) else { return nil }
                wire.move = kind
            }
            if let side {
                guard let value = Side(rawValue: side) else { return nil }
                wire.side = value
            }
            wire.game = game.map { GameID(rawValue: $0) }
            wire.player = player.map { PlayerID(rawValue: $0) }
            wire.home = home.map { TeamID(rawValue: $0) }
            wire.away = away.map { TeamID(rawValue: $0) }
            (wire.version, wire.action, wire.court) = (version, action, court)
            return wire
        }
    }
}
