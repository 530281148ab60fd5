import CourtsideModel
import GRDB

/// The keys of the events after the last filed run, as the next run files them: each game's
/// sequences, and each event's command as a hash of its client and command ids.
///
/// The log writer keeps it in memory and adds each commit's events to it, so a run is a row a
/// game (a JSON array of its sequences) and a row an event keyed by its command's hash, sorted
/// here, written in the commit that makes the run due. Filed as two rows an event keyed by their
/// texts and sorted by SQLite (`INSERT … SELECT … ORDER BY`), a run of 4,096 events took about
/// 4 ms of the writer's thread, 17% of it at 16 keepers x 32 in flight, most of it SQLite's
/// sorter (docs/FIGURES.md, "The SQLite log").
struct SQLiteEventKeyRun {
    /// The last run's sequence: every event up to it has its keys filed.
    private(set) var filedThrough: Int64
    /// The last sequence added; `filedThrough` while none is.
    private(set) var last: Int64
    /// The games met since the last run, each numbered in the order met, and their ids.
    private var gameNumbers: [String: Int32] = [:]
    private var gameIDs: [String] = []
    /// For each event after `filedThrough`, in sequence order: its sequence, its game's number
    /// and its command's hash. Flat rather than an array a game, which every run allocated and
    /// grew again, a game at a time.
    private var eventSequences: [Int64] = []
    private var eventGames: [Int32] = []
    private var eventCommands: [Int64] = []

    /// An empty run after `filedThrough`.
    init(after filedThrough: Int64) {
        self.filedThrough = filedThrough
        last = filedThrough
    }

    /// Whether `keyRun` events or more wait to be filed.
    var isDue: Bool { last - filedThrough >= SQLiteEventLog.keyRun }

    /// Adds the keys of `events`, which follow those added before in sequence order.
    mutating func add(_ events: borrowing [GameEvent]) {
        // Through a buffer pointer: the array's subscript copies each event for the calls on it.
        events.withUnsafeBufferPointer { events in
            for index in events.indices {
                add(
                    sequence: events[index].sequence, game: events[index].gameID.rawValue,
                    command: Self.commandHash(events[index].origin))
            }
        }
    }

    private mutating func add(sequence: Int64, game: String, command: Int64) {
        let number: Int32
        if let known = gameNumbers[game] {
            number = known
        } else {
            number = Int32(gameIDs.count)
            gameNumbers[game] = number
            gameIDs.append(game)
        }
        eventSequences.append(sequence)
        eventGames.append(number)
        eventCommands.append(command)
        last = sequence
    }

    /// The key a command is filed and looked up by: FNV-1a over its client id, a byte no UTF-8
    /// text holds, and its command id. Stable from process to process and build to build, as
    /// Swift's own hashing is not; two commands that share it are told apart by their events.
    static func commandHash(_ origin: CommandOrigin) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        for byte in origin.clientID.utf8 { mix(byte) }
        mix(0xFF)
        for byte in origin.commandID.utf8 { mix(byte) }
        return Int64(bitPattern: hash)
    }

    /// The keys of the log's events after `filedThrough`, up to `through` (all when nil), read
    /// from the log: after a start, and by the migration that files the runs filed before anew.
    static func read(after filedThrough: Int64, through: Int64? = nil, _ db: Database) throws -> SQLiteEventKeyRun {
        var run = SQLiteEventKeyRun(after: filedThrough)
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT sequence, game_id, client_id, command_id FROM events
                    WHERE sequence > ? AND sequence <= ? ORDER BY sequence
                    """), arguments: [filedThrough, through ?? Int64.max])
        while let row = try rows.next() {
            run.add(
                sequence: row[0], game: row[1], command: commandHash(CommandOrigin(clientID: row[2], commandID: row[3])))
        }
        return run
    }

    /// Files the keys added as one run, named by its last sequence, and empties this run to
    /// follow it. In the transaction that appended the last of them.
    mutating func file(_ db: Database) throws {
        guard last > filedThrough else { return }
        try fileGames(db)
        try fileCommands(db)
        try db.cachedStatement(sql: "INSERT INTO event_key_runs (run) VALUES (?)").execute(arguments: [last])
        self = SQLiteEventKeyRun(after: last)
    }

    /// Rows a statement at most, as ``SQLiteEventRows`` writes events: a statement's own cost
    /// (readying, halting, resetting) was about two fifths of a one-row insert. The commands'
    /// rows, three integers each, go 64 to a statement (192 values, far below SQLite's limit).
    private static let rowsPerStatement = 16
    private static let commandRowsPerStatement = 64

    /// The inserts of 0 to the most rows a statement into each table, by their number of rows.
    private static let gameInserts = inserts(into: "event_runs_by_game (run, game_id, sequences)", upTo: rowsPerStatement)
    private static let commandInserts = inserts(
        into: "event_runs_by_command (run, command_hash, sequence)", upTo: commandRowsPerStatement)

    private static func inserts(into table: String, upTo rowsPerStatement: Int) -> [String] {
        (0...rowsPerStatement).map { rows in
            "INSERT INTO \(table) VALUES \(repeatElement("(?, ?, ?)", count: rows).joined(separator: ", "))"
        }
    }

    /// A row a game, in the order of their ids (SQLite's tree then takes the run's rows page
    /// after page): the run, the game's id, and the JSON array of its events' sequences.
    private func fileGames(_ db: Database) throws {
        let grouped = Self.grouped(eventGames, count: gameIDs.count)
        let order = gameIDs.indices.sorted { gameIDs[$0] < gameIDs[$1] }
        // A statement's ids and arrays, one after another, and where each is.
        var ids: [UInt8] = []
        var idSpans: [Range<Int>] = []
        var json = JSONWriter(capacity: 16_384)
        var jsonSpans: [Range<Int>] = []
        var start = 0
        while start < order.count {
            let rows = order[start..<min(start + Self.rowsPerStatement, order.count)]
            ids.removeAll(keepingCapacity: true)
            idSpans.removeAll(keepingCapacity: true)
            jsonSpans.removeAll(keepingCapacity: true)
            json.reset()
            for game in rows {
                let idStart = ids.count
                ids.append(contentsOf: gameIDs[game].utf8)
                idSpans.append(idStart..<ids.count)
                json.startNextValue()
                let jsonStart = json.byteCount
                json.beginArray()
                for event in grouped.events[grouped.starts[game]..<grouped.starts[game + 1]] {
                    json.value(eventSequences[Int(event)])
                }
                json.endArray()
                jsonSpans.append(jsonStart..<json.byteCount)
            }
            let insert = SQLiteStatementBinding(try db.cachedStatement(sql: Self.gameInserts[rows.count]), in: db)
            try ids.withUnsafeBytes { ids in
                try json.withBytes { json in
                    for row in 0..<rows.count {
                        let first = Int32(row * 3)
                        try insert.bind(last, at: first + 1)
                        try insert.bind(text: UnsafeRawBufferPointer(rebasing: ids[idSpans[row]]), at: first + 2)
                        try insert.bind(text: UnsafeRawBufferPointer(rebasing: json[jsonSpans[row]]), at: first + 3)
                    }
                    // Every binding points into `ids` and `json`: stepped, and the bindings cleared, before they go.
                    try insert.step()
                }
            }
            start = rows.endIndex
        }
    }

    /// A row an event, in the order of their commands' hashes: the run, the hash, the sequence.
    private func fileCommands(_ db: Database) throws {
        // By hash alone: events of one hash (one command's, nearly always) need no order, as
        // their sequences set them apart in the key.
        let order = eventCommands.indices.sorted { eventCommands[$0] < eventCommands[$1] }
        var start = 0
        while start < order.count {
            let rows = order[start..<min(start + Self.commandRowsPerStatement, order.count)]
            let insert = SQLiteStatementBinding(try db.cachedStatement(sql: Self.commandInserts[rows.count]), in: db)
            for (row, event) in rows.enumerated() {
                let first = Int32(row * 3)
                try insert.bind(last, at: first + 1)
                try insert.bind(eventCommands[event], at: first + 2)
                try insert.bind(eventSequences[event], at: first + 3)
            }
            try insert.step()
            start = rows.endIndex
        }
    }

    /// The events' places grouped by their number (`numbers[event]`, below `count`), each group
    /// in event order: group `n` is `events[starts[n]..<starts[n + 1]]` (a counting sort).
    private static func grouped(_ numbers: [Int32], count: Int) -> (events: [Int32], starts: [Int]) {
        var starts = [Int](repeating: 0, count: count + 1)
        for number in numbers { starts[Int(number) + 1] += 1 }
        for index in 0..<count { starts[index + 1] += starts[index] }
        var next = starts
        var events = [Int32](repeating: 0, count: numbers.count)
        for (event, number) in numbers.enumerated() {
            events[next[Int(number)]] = Int32(event)
            next[Int(number)] += 1
        }
        return (events, starts)
    }
}
