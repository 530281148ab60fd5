import CourtsideModel
import CourtsideProtocol

/// What the publisher keeps of each game it has published: its version, the beats it still
/// owes, whether it has started, and its event topic while it is busy, in one table of rows.
///
/// A game takes about 90 bytes here, its row and its place in the index by id, where a
/// dictionary of versions, another of changes, a set of started games, the order of the beats
/// and a dictionary of topics take 180 (10,000 games at rest: 0.9 MB against 1.8; docs/FIGURES.md, "Memory and
/// restart").
struct PublishedGames {
    /// A game's row: its place in the round of beats.
    typealias Row = Int32

    private var rows: [GameID: Row] = [:]
    /// Every game in the order the round of beats visits them.
    private(set) var ids: [GameID] = []
    private var versions: [Int] = []
    /// The beats a game still owes since its last change (one at each heartbeat) in the low
    /// bits, and whether it has started in the high one.
    private var marks: [UInt8] = []
    /// Each game's event topic while it owes beats, made at its first event and dropped with
    /// its last beat: a topic made per event is an allocation on the pool and a free on the
    /// I/O thread for every move, and one kept for good 64 bytes a game at rest.
    private var topics: [[UInt8]] = []
    /// The rows that owe beats.
    private var owing: [Row] = []
    /// Where the round of beats is.
    private var cursor = 0

    private static let startedMark: UInt8 = 0x80

    /// The games of a snapshot, with their versions and whether each has started.
    init(_ games: [Game]) {
        rows.reserveCapacity(games.count)
        ids.reserveCapacity(games.count)
        versions.reserveCapacity(games.count)
        marks.reserveCapacity(games.count)
        topics.reserveCapacity(games.count)
        for game in games {
            let row = add(game.id, version: game.version)
            if game.hasStarted { marks[Int(row)] |= Self.startedMark }
        }
    }

    private mutating func add(_ game: GameID, version: Int) -> Row {
        let row = Row(ids.count)
        rows[game] = row
        ids.append(game)
        versions.append(version)
        marks.append(0)
        topics.append([])
        return row
    }

    /// The topic of `game`'s events, kept while it owes beats.
    mutating func topic(of game: GameID) -> [UInt8] {
        guard let row = rows[game].map(Int.init) else { return Topic.events(of: game) }
        if topics[row].isEmpty { topics[row] = Topic.events(of: game) }
        return topics[row]
    }

    /// Records `game`'s event at `version`, which owes beats from now; its row.
    mutating func changed(_ game: GameID, version: Int) -> Row {
        let row = rows[game] ?? add(game, version: version)
        let index = Int(row)
        versions[index] = version
        if marks[index] & ~Self.startedMark == 0 { owing.append(row) }
        marks[index] = marks[index] & Self.startedMark | UInt8(ProtocolVersion.beatsAfterChange)
        return row
    }

    /// Marks `row`'s game started; whether it was not before.
    mutating func start(_ row: Row) -> Bool {
        let index = Int(row)
        guard marks[index] & Self.startedMark == 0 else { return false }
        marks[index] |= Self.startedMark
        return true
    }

    /// The games to beat now, by id, with their versions: those that owe beats, and the round's
    /// next share of the rest; `dropping` is left out, if it is among them (a failure drill).
    mutating func takeBeats(dropping: inout GameID?) -> [(GameID, Int)] {
        var due = Set(owing)
        owing.removeAll { row in
            let index = Int(row)
            marks[index] -= 1
            guard marks[index] & ~Self.startedMark == 0 else { return false }
            topics[index] = []
            return true
        }
        let share = (ids.count + ProtocolVersion.beatCycleHeartbeats - 1) / ProtocolVersion.beatCycleHeartbeats
        for _ in 0..<share {
            due.insert(Row(cursor % ids.count))
            cursor = (cursor + 1) % ids.count
        }
        if let game = dropping, let row = rows[game], due.remove(row) != nil { dropping = nil }
        return due.map { (ids[Int($0)], versions[Int($0)]) }.sorted { $0.0 < $1.0 }
    }
}
