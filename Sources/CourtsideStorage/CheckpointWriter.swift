import CourtsideModel

/// Writes a game in ``CheckpointCoding``'s binary form into a buffer that grows, through its pointer.
///
/// An array's `append` checks its room and that it is the buffer's only owner at every byte,
/// and a checkpoint encodes every play of each changed game: at 16 keepers over 1,000 games
/// the encoding was about 40% of the checkpoint thread's CPU (docs/FIGURES.md). Here a write
/// checks only its room, and a play's fixed bytes none: it makes room for its largest form first.
struct CheckpointWriter: ~Copyable {
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

    /// A copy of the bytes written in `range`.
    func copy(_ range: Range<Int>) -> [UInt8] { Array(UnsafeBufferPointer(start: start + range.lowerBound, count: range.count)) }

    /// Writes bytes another writer wrote.
    mutating func append(_ bytes: [UInt8]) {
        reserve(bytes.count)
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { (start + count).initialize(from: base, count: source.count) }
        }
        count += bytes.count
    }

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
    mutating func optional<Value>(_ value: Value?, _ write: (inout CheckpointWriter, Value) -> Void) {
        guard let value else { return byte(0) }
        byte(1)
        write(&self, value)
    }

    mutating func sides(_ values: SideValues) {
        int(values.home)
        int(values.away)
    }

    /// Writes `game`, its first plays as `prefix` holds them; returns where its plays' bytes are,
    /// and its last play's version and time.
    mutating func game(_ game: Game, reusing prefix: CheckpointCoding.EncodedPlays?) -> (
        bytes: Range<Int>, last: (version: Int, at: Int64)
    ) {
        let setup = game.setup
        string(setup.id.rawValue)
        team(setup.home)
        team(setup.away)
        rules(setup.rules)
        optional(setup.court) { $0.string($1) }
        let roster = CheckpointRoster(setup)

        int(game.version)
        sides(game.score)
        unsigned(UInt64(game.counts.count))
        for (player, counts) in game.counts {
            self.player(player, roster)
            for kind in MoveKind.allCases { int(counts[kind]) }
        }
        int(game.clock.accumulated)
        optional(game.clock.runningSince) { $0.int($1.rawValue) }
        byte(CheckpointTags.status(game.status))
        optional(game.winner) { $0.byte(CheckpointTags.side($1)) }
        optional(game.endReason) { $0.byte(CheckpointTags.endReason($1)) }
        byte(game.timeExpired ? 1 : 0)
        optional(game.overtimeTargets) { $0.sides($1) }
        // Plays are most of a long game: a head byte (``PlayHead``), the version only when it is
        // not the one after the play before's, the time as its difference from the play before's
        // (a byte or two), the player, and a retraction's version as its distance from the play's.
        unsigned(UInt64(game.plays.count))
        let first = count
        var previous = (version: 0, at: Int64(0))
        if let prefix {
            append(prefix.bytes)
            previous = prefix.last
            for index in prefix.count..<game.plays.count { play(game.plays[index], after: &previous, roster) }
        } else {
            for play in game.plays { self.play(play, after: &previous, roster) }
        }
        let plays = first..<count
        sides(game.teamFouls)
        sides(game.timeoutsUsed)
        optional(game.startedAt) { $0.int($1.rawValue) }
        optional(game.endedAt) { $0.int($1.rawValue) }
        return (plays, previous)
    }

    mutating func play(_ play: Play, after previous: inout (version: Int, at: Int64), _ roster: CheckpointRoster) {
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
            writer.byte(CheckpointTags.atTime(limit.atTime))
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
    mutating func player(_ player: PlayerID, _ roster: CheckpointRoster) {
        if let index = roster.index(of: player) {
            unsigned(UInt64(index + 1))
        } else {
            unsigned(0)
            string(player.rawValue)
        }
    }
}
