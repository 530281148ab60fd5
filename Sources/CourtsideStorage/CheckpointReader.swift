import CourtsideModel

/// Reads a game in ``CheckpointCoding``'s binary form, refusing whatever it does not hold.
struct CheckpointReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    func corrupt(_ what: String) -> CheckpointError { CheckpointError("bad \(what) at byte \(offset)") }

    mutating func byte() throws -> UInt8 {
        guard offset < bytes.count else { throw corrupt("end") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func unsigned() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try byte()
            guard shift < 64 else { throw corrupt("varint") }
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    mutating func int64() throws -> Int64 {
        let raw = try unsigned()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    mutating func int() throws -> Int { Int(try int64()) }

    /// A count of things that each take at least a byte: never more than the bytes left.
    mutating func count() throws -> Int {
        let count = try unsigned()
        guard count <= UInt64(bytes.count - offset) else { throw corrupt("count") }
        return Int(count)
    }

    mutating func string() throws -> String {
        let length = try count()
        let utf8 = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length])
        guard let string = String(validating: utf8, as: UTF8.self) else { throw corrupt("string") }
        offset += length
        return string
    }

    mutating func optional<Value>(_ read: (inout CheckpointReader) throws -> Value) throws -> Value? {
        switch try byte() {
        case 0: return nil
        case 1: return try read(&self)
        default: throw corrupt("optional")
        }
    }

    mutating func tag<Value>(_ decode: (UInt8) -> Value?, _ what: String) throws -> Value {
        guard let value = decode(try byte()) else { throw corrupt(what) }
        return value
    }

    /// A side's value is held in 32 bits: one past them is a corrupt checkpoint, not a trap.
    mutating func sides() throws -> SideValues {
        let (home, away) = (try int(), try int())
        guard Int32(exactly: home) != nil, Int32(exactly: away) != nil else { throw corrupt("side value") }
        return SideValues(home: home, away: away)
    }

    mutating func game() throws -> Game {
        let setup = GameSetup(
            id: GameID(try string()), home: try team(), away: try team(), rules: try rules(),
            court: try optional { r in try r.string() })
        let roster = CheckpointRoster(setup)
        var game = Game(setup: setup)
        game.version = try int()
        game.score = try sides()
        let players = try count()
        var counts = PlayerCounts(minimumCapacity: players)
        for _ in 0..<players {
            let player = try player(roster)
            var moves = MoveCounts()
            for kind in MoveKind.allCases { moves[kind] = try int() }
            counts[player] = moves
        }
        game.counts = counts
        game.clock = GameClock(
            accumulated: try int64(), runningSince: try optional { r in Timestamp(milliseconds: try r.int64()) })
        game.status = try tag(CheckpointTags.status, "status")
        game.winner = try optional { r in try r.tag(CheckpointTags.side, "side") }
        game.endReason = try optional { r in try r.tag(CheckpointTags.endReason, "end reason") }
        game.timeExpired = try tag({ $0 <= 1 ? $0 == 1 : nil }, "flag")
        game.overtimeTargets = try optional { r in try r.sides() }
        let plays = try count()
        game.plays.reserveCapacity(plays)
        var previous = (version: 0, at: Int64(0))
        for _ in 0..<plays {
            guard let head = PlayHead(byte: try byte()) else { throw corrupt("play") }
            let version = head.versionIsNext ? previous.version &+ 1 : previous.version &+ (try int())
            let at = previous.at &+ (try int64())
            previous = (version, at)
            game.plays.append(
                Play(
                    version: version, at: Timestamp(milliseconds: at), player: try player(roster), side: head.side,
                    move: head.move, retractedBy: head.retracted ? version &+ (try int()) : nil))
        }
        game.teamFouls = try sides()
        game.timeoutsUsed = try sides()
        game.startedAt = try optional { r in Timestamp(milliseconds: try r.int64()) }
        game.endedAt = try optional { r in Timestamp(milliseconds: try r.int64()) }
        return game
    }

    mutating func team() throws -> Team {
        let id = TeamID(try string())
        let name = try string()
        let count = try count()
        var players: [Player] = []
        players.reserveCapacity(count)
        for _ in 0..<count { players.append(Player(id: PlayerID(try string()), name: try string())) }
        return Team(id: id, name: name, players: players)
    }

    mutating func rules() throws -> RuleSet {
        RuleSet(
            targetScore: try int(), winBy: try int(), hardCap: try optional { r in try r.int() },
            timeLimit: try optional { r in
                TimeLimit(
                    milliseconds: try r.int64(), atTime: try r.tag(CheckpointTags.atTime, "at_time"), overtimePoints: try r.int())
            },
            teamFouls: try optional { r in
                TeamFoulRules(freeThrowsFrom: try r.int(), possessionFrom: try r.int())
            },
            shotClockSeconds: try optional { r in try r.int() },
            timeoutsPerTeam: try optional { r in try r.int() }, forfeitScore: try optional { r in try r.int() },
            preset: try optional { r in try r.string() })
    }

    mutating func player(_ roster: CheckpointRoster) throws -> PlayerID {
        let place = try unsigned()
        if place == 0 { return PlayerID(try string()) }
        guard place <= UInt64(roster.players.count), let player = roster.player(at: Int(place - 1)) else {
            throw corrupt("player")
        }
        return player
    }
}
