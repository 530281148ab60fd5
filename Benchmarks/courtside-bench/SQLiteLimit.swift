import CourtsideModel
import CourtsideStorage
import Foundation
import GRDBSQLite

#if canImport(Glibc)
    import Glibc
#endif

/// SQLite's own insert rate on this machine: the log's rows, in commits of a given size, from one
/// thread through SQLite's C API, with nothing of ours around them. The log writes one row an
/// event on one thread, so the library's durable moves a second cannot pass this figure however
/// its own work is arranged: issue 10's goal 2 reads the library's figure against it.
struct SQLiteLimit {
    var rowsPerSecond: Double
    /// The inserting thread's CPU time, user and system (the fsyncs' share included), a row.
    var cpuMicrosecondsPerRow: Double
    var rows: Int
    var rowsPerCommit: Int
    var directory: String

    /// Inserts `rows` rows into the `events` table of a new log in `directory` (made by
    /// ``SQLiteEventLog``, so the table is the log's own), `rowsPerCommit` to a transaction, in
    /// WAL mode with `synchronous=FULL` as the log writes. The log is removed afterwards.
    static func measure(directory: URL, rows: Int = 50_000, rowsPerCommit: Int = 200) throws -> SQLiteLimit {
        let logDirectory = directory.appendingPathComponent("bench-sqlite-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: logDirectory) }
        try SQLiteEventLog(directory: logDirectory).close()
        let path = logDirectory.appendingPathComponent(SQLiteEventLog.fileName).path
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let db else {
            throw BenchError("open \(path) with SQLite failed")
        }
        defer { sqlite3_close_v2(db) }
        func execute(_ sql: String) throws {
            guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
                throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(db)))")
            }
        }
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = FULL")
        var insert: OpaquePointer?
        let sql = """
            INSERT INTO events (sequence, game_id, version, recorded_at, client_id, command_id, kind, payload)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """
        guard sqlite3_prepare_v2(db, sql, -1, &insert, nil) == SQLITE_OK, let insert else {
            throw BenchError("prepare the insert: \(String(cString: sqlite3_errmsg(db)))")
        }
        defer { sqlite3_finalize(insert) }
        // A rebound's payload, as the log writes it; ids shaped as the library bench's.
        var payload = JSONWriter(capacity: 128)
        GameEvent.Kind.move(player: PlayerID("p123-1"), move: .rebound).writeJSON(to: &payload)
        let payloadBytes = payload.withBytes { Array($0) }
        let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
        func bind(_ text: String, at index: Int32) {
            var text = text
            text.withUTF8 { _ = sqlite3_bind_text(insert, index, $0.baseAddress, Int32($0.count), transient) }
        }
        let commits = max(1, rows / rowsPerCommit)
        let startCPU = threadCPUSeconds()
        let start = ContinuousClock.now
        for commit in 0..<commits {
            try execute("BEGIN IMMEDIATE")
            for row in 0..<rowsPerCommit {
                let sequence = commit * rowsPerCommit + row + 1
                sqlite3_bind_int64(insert, 1, Int64(sequence))
                bind("g\(sequence % 1000)", at: 2)
                sqlite3_bind_int64(insert, 3, Int64(sequence / 1000 + 1))
                sqlite3_bind_int64(insert, 4, 1_800_000_000_000 + Int64(sequence))
                bind("k\(sequence % 256)", at: 5)
                bind("\(sequence / 256)", at: 6)
                bind("move", at: 7)
                _ = payloadBytes.withUnsafeBytes {
                    sqlite3_bind_blob(insert, 8, $0.baseAddress, Int32($0.count), transient)
                }
                guard sqlite3_step(insert) == SQLITE_DONE else {
                    throw BenchError("insert: \(String(cString: sqlite3_errmsg(db)))")
                }
                sqlite3_reset(insert)
            }
            try execute("COMMIT")
        }
        let seconds = (ContinuousClock.now - start).inSeconds
        let inserted = commits * rowsPerCommit
        return SQLiteLimit(
            rowsPerSecond: Double(inserted) / seconds,
            cpuMicrosecondsPerRow: (threadCPUSeconds() - startCPU) * 1e6 / Double(inserted), rows: inserted,
            rowsPerCommit: rowsPerCommit, directory: directory.path)
    }

    func report() {
        print(
            "machine: SQLite alone, one thread, \(rows) of the log's rows in commits of \(rowsPerCommit) (WAL, synchronous=FULL, \(directory)): \(format(rowsPerSecond)) rows/s, \(String(format: "%.1f", cpuMicrosecondsPerRow)) us CPU a row"
        )
    }

    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
