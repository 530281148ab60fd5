import CourtsideModel
import CourtsideStorage
import Foundation
import GRDBSQLite

#if canImport(Glibc)
    import Glibc
#endif

/// SQLite's own insert rate on this machine: the log's rows, in commits of a given size, from one
/// thread through SQLite's C API, with the log's own insert and nothing of ours around it (the
/// rows' ids are made before the clock starts). The log writes one row an event on one thread,
/// so the library's durable moves a second cannot pass this figure with commits no larger:
/// issue 10's goal 2 reads the library's figure against it.
struct SQLiteLimit {
    var rowsPerSecond: Double
    /// The inserting thread's CPU time, user and system (the fsyncs' share included), a row.
    var cpuMicrosecondsPerRow: Double
    var rows: Int
    var rowsPerCommit: Int
    var directory: String

    /// Inserts about `rows` rows into the `events` table of a new log in `directory` (made by
    /// ``SQLiteEventLog``, so the table is the log's own), `rowsPerCommit` to a transaction, in
    /// WAL mode with `synchronous=FULL` as the log writes. The log is removed afterwards.
    static func measure(directory: URL, rows: Int = 50_000, rowsPerCommit: Int) throws -> SQLiteLimit {
        let logDirectory = directory.appendingPathComponent("bench-sqlite-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: logDirectory) }
        try SQLiteEventLog(directory: logDirectory).close()
        let path = logDirectory.appendingPathComponent(SQLiteEventLog.fileName).path
        var handle: OpaquePointer?
        let opened = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil)
        guard let db = handle else { throw BenchError("open \(path) with SQLite: out of memory") }
        defer { sqlite3_close_v2(db) }
        func failure(_ what: String) -> BenchError { BenchError("\(what): \(String(cString: sqlite3_errmsg(db)))") }
        guard opened == SQLITE_OK else { throw failure("open \(path) with SQLite") }
        func execute(_ sql: String) throws {
            guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw failure(sql) }
        }
        /// The first column of the first row of `sql`, as text.
        func text(_ sql: String) throws -> String {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { throw failure(sql) }
            defer { sqlite3_finalize(statement) }
            guard sqlite3_step(statement) == SQLITE_ROW, let value = sqlite3_column_text(statement, 0) else {
                throw failure(sql)
            }
            return String(cString: value)
        }
        try execute("PRAGMA synchronous = FULL")
        let (mode, synchronous) = (try text("PRAGMA journal_mode"), try text("PRAGMA synchronous"))
        guard mode == "wal", synchronous == "2" else {
            throw BenchError("the log's file is in journal mode \(mode), synchronous \(synchronous); expected wal, 2 (FULL)")
        }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, SQLiteEventLog.insertEventSQL, -1, &statement, nil) == SQLITE_OK,
            let insert = statement
        else { throw failure("prepare the insert") }
        defer { sqlite3_finalize(insert) }

        // Rows shaped as the library bench's moves: 1,000 games, 256 keepers, rebounds.
        let kind = GameEvent.Kind.move(player: PlayerID("p123-1"), move: .rebound)
        var payload = JSONWriter(capacity: 128)
        kind.writeJSON(to: &payload)
        let payloadBytes = payload.withBytes { Array($0) }
        let commits = max(1, rows / rowsPerCommit)
        let inserted = commits * rowsPerCommit
        let games = (0..<1_000).map { "g\($0)" }
        let clients = (0..<256).map { "k\($0)" }
        let commands = (0...(inserted / 256)).map { "\($0)" }
        let kindName = kind.typeName
        let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
        func bind(_ text: String, at index: Int32) {
            var text = text
            text.withUTF8 { _ = sqlite3_bind_text(insert, index, $0.baseAddress, Int32($0.count), transient) }
        }

        let startCPU = cpuSeconds(CLOCK_THREAD_CPUTIME_ID)
        let start = ContinuousClock.now
        for commit in 0..<commits {
            try execute("BEGIN IMMEDIATE")
            for row in 0..<rowsPerCommit {
                let sequence = commit * rowsPerCommit + row + 1
                // A failed bind leaves NULL in a NOT NULL column: the step below fails for it.
                sqlite3_bind_int64(insert, 1, Int64(sequence))
                bind(games[sequence % games.count], at: 2)
                sqlite3_bind_int64(insert, 3, Int64(sequence / games.count + 1))
                sqlite3_bind_int64(insert, 4, 1_800_000_000_000 + Int64(sequence))
                bind(clients[sequence % clients.count], at: 5)
                bind(commands[sequence / clients.count], at: 6)
                bind(kindName, at: 7)
                _ = payloadBytes.withUnsafeBytes {
                    sqlite3_bind_blob(insert, 8, $0.baseAddress, Int32($0.count), transient)
                }
                guard sqlite3_step(insert) == SQLITE_DONE else { throw failure("insert") }
                sqlite3_reset(insert)
            }
            try execute("COMMIT")
        }
        let seconds = (ContinuousClock.now - start).inSeconds
        return SQLiteLimit(
            rowsPerSecond: Double(inserted) / seconds,
            cpuMicrosecondsPerRow: (cpuSeconds(CLOCK_THREAD_CPUTIME_ID) - startCPU) * 1e6 / Double(inserted), rows: inserted,
            rowsPerCommit: rowsPerCommit, directory: directory.path)
    }

    func report() {
        print(
            "machine: SQLite alone, one thread, \(rows) of the log's rows in commits of \(rowsPerCommit) (WAL, synchronous=FULL, \(directory)): \(format(rowsPerSecond)) rows/s, \(String(format: "%.1f", cpuMicrosecondsPerRow)) us CPU a row"
        )
    }
}
