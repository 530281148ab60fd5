import CourtsideModel
import GRDB

/// The keys of the events after the last filed run, grouped as the next run files them: each
/// game's sequences, and each client's command ids, in the order they were appended.
///
/// The log writer keeps it in memory and adds each commit's events to it, so a run is a row a
/// game and a row a client, written in the commit that makes the run due. Filed as a row an
/// event, sorted by SQLite (`INSERT … SELECT … ORDER BY`), a run of 4,096 events took about 4 ms
/// of the writer's thread, 17% of it at 16 keepers x 32 in flight, most of it SQLite's sorter
/// (docs/FIGURES.md, "The SQLite log").
struct SQLiteEventKeyRun {
    /// The last run's sequence: every event up to it has its keys filed.
    private(set) var filedThrough: Int64
    /// The last sequence added; `filedThrough` while none is.
    private(set) var last: Int64
    /// The games and the clients met since the last run, each numbered in the order met.
    private var games = Numbering()
    private var clients = Numbering()
    /// For each event after `filedThrough`, in sequence order: its sequence, its game's and its
    /// client's numbers and its command id. Flat rather than an array a game, which every run
    /// allocated and grew again, a game at a time.
    private var eventSequences: [Int64] = []
    private var eventGames: [Int32] = []
    private var eventClients: [Int32] = []
    private var eventCommands: [String] = []

    /// Ids numbered in the order they are met.
    private struct Numbering {
        var numbers: [String: Int32] = [:]
        var ids: [String] = []

        mutating func number(of id: String) -> Int32 {
            if let number = numbers[id] { return number }
            let number = Int32(ids.count)
            numbers[id] = number
            ids.append(id)
            return number
        }

        /// The numbers in the order of their ids: SQLite's tree then takes a run's rows page after page.
        var inKeyOrder: [Int] { ids.indices.sorted { ids[$0] < ids[$1] } }
    }

    /// An empty run after `filedThrough`.
    init(after filedThrough: Int64) {
        self.filedThrough = filedThrough
        last = filedThrough
        let room = Int(SQLiteEventLog.keyRun) + 256
        eventSequences.reserveCapacity(room)
        eventGames.reserveCapacity(room)
        eventClients.reserveCapacity(room)
        eventCommands.reserveCapacity(room)
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
                    client: events[index].origin.clientID, command: events[index].origin.commandID)
            }
        }
    }

    private mutating func add(sequence: Int64, game: String, client: String, command: String) {
        eventSequences.append(sequence)
        eventGames.append(games.number(of: game))
        eventClients.append(clients.number(of: client))
        eventCommands.append(command)
        last = sequence
    }

    /// The keys of the log's events after `filedThrough`, up to `through` (all when nil), read
    /// from the log: after a start, and by the migration that groups the runs filed before.
    static func read(after filedThrough: Int64, through: Int64? = nil, _ db: Database) throws -> SQLiteEventKeyRun {
        var run = SQLiteEventKeyRun(after: filedThrough)
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT sequence, game_id, client_id, command_id FROM events
                    WHERE sequence > ? AND sequence <= ? ORDER BY sequence
                    """), arguments: [filedThrough, through ?? Int64.max])
        while let row = try rows.next() {
            run.add(sequence: row[0], game: row[1], client: row[2], command: row[3])
        }
        return run
    }

    /// Files the keys added as one run, named by its last sequence, and empties this run to
    /// follow it. In the transaction that appended the last of them.
    mutating func file(_ db: Database) throws {
        guard last > filedThrough else { return }
        try fileRows(Self.gameInserts, games, eventGames, db) { json, events in
            for event in events { json.value(eventSequences[Int(event)]) }
        }
        try fileRows(Self.clientInserts, clients, eventClients, db) { json, events in
            var previous: Int32 = -1
            for event in events {
                // A command's events are consecutive: its id once is enough for a look-up.
                if previous < 0 || eventCommands[Int(event)] != eventCommands[Int(previous)] {
                    json.value(eventCommands[Int(event)])
                }
                previous = event
            }
        }
        try db.cachedStatement(sql: "INSERT INTO event_key_runs (run) VALUES (?)").execute(arguments: [last])
        self = SQLiteEventKeyRun(after: last)
    }

    /// Rows a statement at most, as ``SQLiteEventRows`` writes events: a statement's own cost
    /// (readying, halting, resetting) was about two fifths of a one-row insert.
    private static let rowsPerStatement = 16

    /// The inserts of 0 to `rowsPerStatement` rows into each table, by their number of rows.
    private static let gameInserts = inserts(into: "event_runs_by_game (run, game_id, sequences)")
    private static let clientInserts = inserts(into: "event_runs_by_client (run, client_id, commands)")

    private static func inserts(into table: String) -> [String] {
        (0...rowsPerStatement).map { rows in
            "INSERT INTO \(table) VALUES \(repeatElement("(?, ?, ?)", count: rows).joined(separator: ", "))"
        }
    }

    /// Inserts a row for each id of `numbering`, in key order, through `inserts` (by their number
    /// of rows): the run, the id, and the JSON array that `write` writes of the events numbered
    /// with it (`numbers[event]`).
    private func fileRows(
        _ inserts: [String], _ numbering: Numbering, _ numbers: [Int32], _ db: Database,
        write: (inout JSONWriter, ArraySlice<Int32>) -> Void
    ) throws {
        let grouped = Self.grouped(numbers, count: numbering.ids.count)
        let order = numbering.inKeyOrder
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
            for number in rows {
                let idStart = ids.count
                ids.append(contentsOf: numbering.ids[number].utf8)
                idSpans.append(idStart..<ids.count)
                json.startNextValue()
                let jsonStart = json.byteCount
                json.beginArray()
                write(&json, grouped.events[grouped.starts[number]..<grouped.starts[number + 1]])
                json.endArray()
                jsonSpans.append(jsonStart..<json.byteCount)
            }
            let insert = SQLiteStatementBinding(try db.cachedStatement(sql: inserts[rows.count]), in: db)
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
