import CourtsideModel

// What ``CheckpointWriter`` and ``CheckpointReader`` both name a value by: a player's place in the
// roster, a play's head byte and each enum's tag.

/// A game's players, home then away, to name them by place.
struct CheckpointRoster {
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
struct PlayHead {
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
enum CheckpointTags {
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
    subscript(safe tag: UInt8) -> Element? { Int(tag) < count ? self[Int(tag)] : nil }
}
