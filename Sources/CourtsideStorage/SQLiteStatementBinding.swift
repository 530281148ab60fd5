import GRDB
import GRDBSQLite

/// Binds values to one of GRDB's cached statements and steps it through SQLite's C API.
///
/// Only for the log writer's per-event inserts. GRDB's `execute(arguments:)` boxes every value
/// as an existential, converts it to a `DatabaseValue` and checks the arguments against the
/// statement before binding: under 256 keepers that took about a fifth of the writer thread, the
/// thread every commit goes through, where SQLite's own work on the row took less.
struct SQLiteStatementBinding {
    private let statement: Statement
    private let connection: SQLiteConnection?

    init(_ statement: Statement, in db: Database) {
        self.statement = statement
        connection = db.sqliteConnection
    }

    private var handle: SQLiteStatement { statement.sqliteStatement }

    func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(handle, index, value)
    }

    func bind(_ value: Int, at index: Int32) {
        sqlite3_bind_int64(handle, index, Int64(value))
    }

    func bind(_ text: String, at index: Int32) {
        var text = text
        // SQLITE_TRANSIENT: SQLite copies the bytes, which live only inside withUTF8.
        text.withUTF8 { utf8 in
            _ = sqlite3_bind_text(handle, index, utf8.baseAddress, Int32(utf8.count), Self.transient)
        }
    }

    func bind(blob bytes: UnsafeRawBufferPointer, at index: Int32) {
        // An empty blob still binds a blob: a nil pointer would bind NULL.
        let base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)
        sqlite3_bind_blob(handle, index, base, Int32(bytes.count), Self.transient)
    }

    /// Runs the statement once, resets it for the next row, and throws SQLite's error as GRDB
    /// would (a full disk is `SQLITE_FULL` either way).
    func step() throws {
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else {
            let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
        }
    }

    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}
