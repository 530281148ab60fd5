import GRDB
import GRDBSQLite

/// Binds values to one of GRDB's cached statements and steps it through SQLite's C API.
///
/// Only for the log writer's inserts of events (``SQLiteEventRows``). GRDB's `execute(arguments:)` boxes every value
/// as an existential, converts it to a `DatabaseValue` and checks the arguments against the
/// statement before binding: under 256 keepers that took about a fifth of the writer thread, the
/// thread every commit goes through, where SQLite's own work on the row took less.
///
/// What this skips of GRDB: its transaction observers never hear of these rows (the log
/// registers none; one added later must not expect to), and a failed statement stays in GRDB's
/// cache, reset, which SQLite allows.
struct SQLiteStatementBinding {
    private let statement: Statement
    private let connection: SQLiteConnection?

    init(_ statement: Statement, in db: Database) {
        self.statement = statement
        connection = db.sqliteConnection
    }

    private var handle: SQLiteStatement { statement.sqliteStatement }

    func bind(_ value: Int64, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    func bind(_ value: Int, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, Int64(value)))
    }

    /// Binds the UTF-8 text in `bytes`, which must stay valid until the next ``step()``, without
    /// SQLite copying it (``step()`` clears every binding, so no later step can read bytes that
    /// are gone). SQLite's copy (`SQLITE_TRANSIENT`) was a malloc and a free a value, five an
    /// event on the writer thread. The protocol refuses ids with control characters, NUL
    /// included, so what is bound is what GRDB, which binds up to the first NUL, reads back and
    /// looks up.
    func bind(text bytes: UnsafeRawBufferPointer, at index: Int32) throws {
        // A nil pointer would bind NULL, so an empty text binds an empty literal.
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            return try check(sqlite3_bind_text(handle, index, "", 0, Self.transient))
        }
        try check(
            sqlite3_bind_text(handle, index, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), Self.static))
    }

    /// Binds `bytes`, which must stay valid until the next ``step()``, without SQLite copying them.
    func bind(blob bytes: UnsafeRawBufferPointer, at index: Int32) throws {
        // An empty blob is still a blob: a nil pointer would bind NULL.
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            return try check(sqlite3_bind_zeroblob(handle, index, 0))
        }
        try check(sqlite3_bind_blob(handle, index, base, Int32(bytes.count), Self.static))
    }

    /// Runs the statement once, resets it and clears its bindings for the next row, and throws
    /// SQLite's error as GRDB would (a full disk is `SQLITE_FULL` either way).
    func step() throws {
        let code = sqlite3_step(handle)
        // Bound bytes that SQLite did not copy are gone once their caller returns.
        defer { sqlite3_clear_bindings(handle) }
        guard code == SQLITE_DONE else {
            let error = self.error(code)
            sqlite3_reset(handle)
            throw error
        }
        sqlite3_reset(handle)
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw error(code) }
    }

    private func error(_ code: Int32) -> DatabaseError {
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
        return DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
    }

    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
    /// SQLITE_STATIC: the bytes outlive their use, so SQLite need not copy them.
    private static let `static`: sqlite3_destructor_type? = nil
}
