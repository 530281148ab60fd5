import CourtsideModel
import GRDB

/// Writes a commit's events as rows of `events`, several rows a statement.
///
/// A statement's step has a cost of its own beside its rows' (SQLite readies the program, opens
/// the table's cursor, halts, resets and clears the bindings): with one row a step, that was
/// about two fifths of an event's insert on the log writer. A commit under load is dozens of
/// events, so they go `rowsPerStatement` to a multi-row INSERT.
///
/// The rows' texts and payloads are copied into one buffer first and bound from it without
/// SQLite copying them (`SQLITE_STATIC` until the step): SQLite's own copy was a malloc and a
/// free a value.
enum SQLiteEventRows {
    /// Rows a statement at most: 16 rows of 8 columns stay far below SQLite's limit on bound
    /// values, and the rest of a statement's cost is then a sixteenth an event.
    static let rowsPerStatement = 16

    /// The texts and payloads of one statement's rows, kept from statement to statement, and
    /// where each row's game id, client id, command id, kind and payload are in them.
    private struct Scratch {
        var bytes: [UInt8] = []
        var spans: [Range<Int>] = []

        mutating func append(_ text: String) {
            let start = bytes.count
            bytes.append(contentsOf: text.utf8)
            spans.append(start..<bytes.count)
        }

        mutating func append(_ payload: UnsafeRawBufferPointer) {
            let start = bytes.count
            bytes.append(contentsOf: payload)
            spans.append(start..<bytes.count)
        }

        /// The bytes of span `index`, inside `bytes`, which must be this scratch's.
        func span(_ index: Int, in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: bytes[spans[index]])
        }
    }

    /// Inserts `events`, in order, through `db`'s cached statements.
    static func insert(_ events: [GameEvent], _ db: Database) throws {
        var scratch = Scratch()
        scratch.bytes.reserveCapacity(min(events.count, rowsPerStatement) * 256)
        scratch.spans.reserveCapacity(rowsPerStatement * 5)
        var payload = JSONWriter(capacity: 256)
        // Through a buffer pointer: a call on an event read through the array's subscript (its
        // kind's JSON) copies it first, retaining and releasing each of its strings.
        try events.withUnsafeBufferPointer { events in
            var start = 0
            while start < events.count {
                let rows = start..<min(start + rowsPerStatement, events.count)
                try insert(events, rows, db, &scratch, &payload)
                start = rows.upperBound
            }
        }
    }

    /// The insert of `rows` rows, each row's columns bound in this order: sequence, game id,
    /// version, time, client id, command id, kind, payload.
    static func insertSQL(rows: Int) -> String {
        let row = "(?, ?, ?, ?, ?, ?, ?, ?)"
        return """
            INSERT INTO events (sequence, game_id, version, recorded_at, client_id, command_id, kind, payload)
            VALUES \(repeatElement(row, count: rows).joined(separator: ", "))
            """
    }

    /// The statements' texts by their number of rows, made once.
    private static let statements = (0...rowsPerStatement).map { insertSQL(rows: $0) }

    private static func insert(
        _ events: UnsafeBufferPointer<GameEvent>, _ rows: Range<Int>, _ db: Database, _ scratch: inout Scratch,
        _ payload: inout JSONWriter
    ) throws {
        scratch.bytes.removeAll(keepingCapacity: true)
        scratch.spans.removeAll(keepingCapacity: true)
        for index in rows {
            scratch.append(events[index].gameID.rawValue)
            scratch.append(events[index].origin.clientID)
            scratch.append(events[index].origin.commandID)
            scratch.append(events[index].kind.typeName)
            payload.reset()
            events[index].kind.writeJSON(to: &payload)
            payload.withBytes { scratch.append($0) }
        }
        let statement = SQLiteStatementBinding(try db.cachedStatement(sql: statements[rows.count]), in: db)
        try scratch.bytes.withUnsafeBytes { bytes in
            for (row, index) in rows.enumerated() {
                let (first, texts) = (Int32(row * 8), row * 5)
                try statement.bind(events[index].sequence, at: first + 1)
                try statement.bind(text: scratch.span(texts, in: bytes), at: first + 2)
                try statement.bind(events[index].version, at: first + 3)
                try statement.bind(events[index].at.rawValue, at: first + 4)
                try statement.bind(text: scratch.span(texts + 1, in: bytes), at: first + 5)
                try statement.bind(text: scratch.span(texts + 2, in: bytes), at: first + 6)
                try statement.bind(text: scratch.span(texts + 3, in: bytes), at: first + 7)
                try statement.bind(blob: scratch.span(texts + 4, in: bytes), at: first + 8)
            }
            // Every binding points into `bytes`: stepped, and the bindings cleared, before they go.
            try statement.step()
        }
    }
}
