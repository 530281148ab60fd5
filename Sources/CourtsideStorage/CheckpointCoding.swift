public import CourtsideModel

/// The compact binary form of a ``Game`` in a checkpoint.
///
/// Written by hand rather than through `Codable`: a start decodes every game of the tournament
/// before it serves, and at 10,000 games Foundation's JSON (or any `Codable` coder, which pays
/// for keys and containers per field) takes a large share of the second a restart may take;
/// `courtside-bench restart` prints the figures. Integers are LEB128 varints (signed ones
/// zigzagged), strings are length-prefixed UTF-8, and players are named by their place in the
/// roster. Any change to the layout, or to the fields of the model's types, bumps ``format``:
/// a checkpoint of another format is not used, and the log is replayed instead. The tests hold
/// a tripwire on the number of fields of every encoded type.
public enum CheckpointCoding {
    /// The layout's version, stored with each checkpoint.
    public static let format = 3

    public static func encode(_ game: Game) -> [UInt8] {
        var writer = Writer(capacity: 256 + 8 * game.plays.count)
        writer.game(game)
        return writer.finish()
    }

    public static func decode(_ bytes: UnsafeRawBufferPointer) throws(CheckpointError) -> Game {
        var reader = Reader(bytes: bytes)
        do {
            let game = try reader.game()
            guard reader.offset == bytes.count else { throw reader.corrupt("end (\(bytes.count - reader.offset) bytes left)") }
            return game
        } catch let error as CheckpointError {
            throw error
        } catch {
            throw CheckpointError("\(error)")
        }
    }

    public static func decode(_ bytes: [UInt8]) throws(CheckpointError) -> Game {
        let result = bytes.withUnsafeBytes { buffer in Result { () throws(CheckpointError) in try decode(buffer) } }
        return try result.get()
    }
}

// MARK: - Writing

/// A growing buffer written through its pointer.
///
/// An array's `append` checks its room and that it is the buffer's only owner at every byte,
/// and a checkpoint encodes every play of each changed game: at 16 keepers over 1,000 games
/// the encoding was about 40% of the checkpoint thread's CPU (docs/FIGURES.md). Here a write
/// checks only its room, and a play's fixed bytes none: it makes room for its largest form first.
private struct Writer: ~Copyable {
    /// The most bytes a varint takes.
    static let varint = 10
    /// The most bytes a play takes but a player named by id: its head, three varints and a
    /// player's place.
    static let play = 4 * varint + 1

    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, Self.play)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    /// The bytes written.
    consuming func finish() -> [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }

    /// Makes room for `more` bytes after those written.
    mutating func reserve(_ more: Int) {
        guard count + more > capacity else { return }
        let grown = max(2 * capacity, count + more)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.initialize(from: start, count: count)
        start.deallocate()
        start = moved
        capacity = grown
    }

    /// Writes a byte where room was made for it.
    private mutating func put(_ byte: UInt8) {
        start[count] = byte
        count += 1
    }

    mutating func byte(_ byte: UInt8) {
        reserve(1)
        put(byte)
    }

    mutating func unsigned(_ value: UInt64) {
        reserve(Self.varint)
        var value = value
        while value >= 0x80 {
            put(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        put(UInt8(value))
    }

    mutating func int(_ value: Int64) { unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63))) }
    mutating func int(_ value: Int) { int(Int64(value)) }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            unsigned(UInt64(utf8.count))
            reserve(utf8.count)
            if let base = utf8.baseAddress { (start + count).initialize(from: base, count: utf8.count) }
            count += utf8.count
        }
    }

    /// 0 for nil, 1 and the value otherwise.
    mutating func optional<Value>(_ value: Value?, _ write: (inout Writer, Value) -> Void) {
        guard let value else { return byte(0) }
        byte(1)
        write(&self, value)
    }

    mutating func sides(_ values: SideValues) {
        int(values.home)
        int(values.away)
    }

    mutating func game(_ game: Game) {
        let setup = game.setup
        string(setup.id.rawValue)
        team(setup.home)
        team(setup.away)
        rules(setup.rules)
        optional(setup.court) { $0.string($1) }
        let roster = Roster(setup)

        int(game.version)
        sides(game.score)
        unsigned(UInt64(game.counts.count))
        for (player, counts) in game.counts {
            self.player(player, roster)
            for kind in MoveKind.allCases { int(counts[kind]) }
        }
        int(game.clock.accumulated)
        optional(game.clock.runningSince) { $0.int($1.rawValue) }
        byte(Tags.status(game.status))
        optional(game.winner) { $0.byte(Tags.side($1)) }
        optional(game.endReason) { $0.byte(Tags.endReason($1)) }
        byte(game.timeExpired ? 1 : 0)
        optional(game.overtimeTargets) { $0.sides($1) }
        // Plays are most of a long game: a head byte (``PlayHead``), the version only when it is
        // not the one after the play before's, the time as its difference from the play before's
        // (a byte or two), the player, and a retraction's version as its distance from the play's.
        unsigned(UInt64(game.plays.count))
        var previous = (version: 0, at: Int64(0))
        for play in game.plays {
            // Room for the whole play at once; only a player named by id makes more.
            reserve(Self.play)
            let next = play.version == previous.version &+ 1
            put(PlayHead(play, versionIsNext: next).byte)
            if !next { int(play.version &- previous.version) }
            int(play.at.rawValue &- previous.at)
            previous = (play.version, play.at.rawValue)
            player(play.player, roster)
            if let retraction = play.retractedBy { int(retraction &- play.version) }
        }
        sides(game.teamFouls)
        sides(game.timeoutsUsed)
        optional(game.startedAt) { $0.int($1.rawValue) }
        optional(game.endedAt) { $0.int($1.rawValue) }
    }

    mutating func team(_ team: Team) {
        string(team.id.rawValue)
        string(team.name)
        unsigned(UInt64(team.players.count))
        for player in team.players {
            string(player.id.rawValue)
            string(player.name)
        }
    }

    mutating func rules(_ rules: RuleSet) {
        int(rules.targetScore)
        int(rules.winBy)
        optional(rules.hardCap) { $0.int($1) }
        optional(rules.timeLimit) { writer, limit in
            writer.int(limit.milliseconds)
            writer.byte(Tags.atTime(limit.atTime))
            writer.int(limit.overtimePoints)
        }
        optional(rules.teamFouls) { writer, fouls in
            writer.int(fouls.freeThrowsFrom)
            writer.int(fouls.possessionFrom)
        }
        optional(rules.shotClockSeconds) { $0.int($1) }
        optional(rules.timeoutsPerTeam) { $0.int($1) }
        optional(rules.forfeitScore) { $0.int($1) }
        optional(rules.preset) { $0.string($1) }
    }

    /// A rostered player as 1 + its place in the roster (home, then away); anyone else as 0
    /// and the id.
    mutating func player(_ player: PlayerID, _ roster: Roster) {
        if let index = roster.index(of: player) {
            unsigned(UInt64(index + 1))
        } else {
            unsigned(0)
            string(player.rawValue)
        }
    }
}

/// A game's players, home then away, to name them by place.
private struct Roster {
    let players: [PlayerID]

    init(_ setup: GameSetup) { players = (setup.home.players + setup.away.players).map(\.id) }

    // Rosters are a few players: a scan beats hashing.
    func index(of player: PlayerID) -> Int? { players.firstIndex(of: player) }

    func player(at index: Int) -> PlayerID? { players.indices.contains(index) ? players[index] : nil }
}

/// A play's move, side and flags in one byte: bits 0 to 2 the move's code, bit 3 the side
/// (away), bit 4 retracted, bit 5 the version is the one after the play before's (as a move's
/// nearly always is); the others 0. Most of a play in a byte: a checkpoint writes every play of
/// each changed game, and its bytes are most of what the checkpoint thread's writes cost.
private struct PlayHead {
    let move: MoveKind
    let side: Side
    let retracted: Bool
    let versionIsNext: Bool

    init(_ play: Play, versionIsNext: Bool) {
        (move, side, retracted, self.versionIsNext) = (play.move, play.side, play.retractedBy != nil, versionIsNext)
    }

    init?(byte: UInt8) {
        guard byte & 0b1100_0000 == 0, let move = MoveKind(code: byte & 0b111) else { return nil }
        self.move = move
        side = byte & 0b1000 == 0 ? .home : .away
        retracted = byte & 0b1_0000 != 0
        versionIsNext = byte & 0b10_0000 != 0
    }

    var byte: UInt8 {
        move.code | (side == .away ? 0b1000 : 0) | (retracted ? 0b1_0000 : 0) | (versionIsNext ? 0b10_0000 : 0)
    }
}

/// One byte per enum case. Exhaustive switches: a new case fails to compile here until it has
/// a tag (and ``CheckpointCoding/format`` is bumped).
private enum Tags {
    static func status(_ status: GameStatus) -> UInt8 {
        switch status {
        case .scheduled: 0
        case .running: 1
        case .paused: 2
        case .finished: 3
        }
    }

    static func status(_ tag: UInt8) -> GameStatus? {
        [.scheduled, .running, .paused, .finished][safe: tag]
    }

    static func side(_ side: Side) -> UInt8 {
        switch side {
        case .home: 0
        case .away: 1
        }
    }

    static func side(_ tag: UInt8) -> Side? { [.home, .away][safe: tag] }

    static func endReason(_ reason: EndReason) -> UInt8 {
        switch reason {
        case .score: 0
        case .cap: 1
        case .time: 2
        case .overtime: 3
        case .forfeit: 4
        case .abandoned: 5
        case .noResult: 6
        }
    }

    static func endReason(_ tag: UInt8) -> EndReason? {
        [.score, .cap, .time, .overtime, .forfeit, .abandoned, .noResult][safe: tag]
    }

    static func atTime(_ atTime: TimeLimit.AtTime) -> UInt8 {
        switch atTime {
        case .leaderWins: 0
        case .overtime: 1
        }
    }

    static func atTime(_ tag: UInt8) -> TimeLimit.AtTime? { [.leaderWins, .overtime][safe: tag] }
}

extension Array {
    fileprivate subscript(safe tag: UInt8) -> Element? { Int(tag) < count ? self[Int(tag)] : nil }
}

// MARK: - Reading

private struct Reader {
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

    mutating func optional<Value>(_ read: (inout Reader) throws -> Value) throws -> Value? {
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
        let roster = Roster(setup)
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
        game.status = try tag(Tags.status, "status")
        game.winner = try optional { r in try r.tag(Tags.side, "side") }
        game.endReason = try optional { r in try r.tag(Tags.endReason, "end reason") }
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
                TimeLimit(milliseconds: try r.int64(), atTime: try r.tag(Tags.atTime, "at_time"), overtimePoints: try r.int())
            },
            teamFouls: try optional { r in
                TeamFoulRules(freeThrowsFrom: try r.int(), possessionFrom: try r.int())
            },
            shotClockSeconds: try optional { r in try r.int() },
            timeoutsPerTeam: try optional { r in try r.int() }, forfeitScore: try optional { r in try r.int() },
            preset: try optional { r in try r.string() })
    }

    mutating func player(_ roster: Roster) throws -> PlayerID {
        let place = try unsigned()
        if place == 0 { return PlayerID(try string()) }
        guard place <= UInt64(roster.players.count), let player = roster.player(at: Int(place - 1)) else {
            throw corrupt("player")
        }
        return player
    }
}
