import PostgresNIO

/// Why the PostgreSQL event log could not do what was asked. (The server's own errors come as
/// postgres-nio's `PSQLError`.)
public struct PostgresEventLogError: Error, CustomStringConvertible, Sendable {
    enum Code: String, Sendable {
        case closed
        case passwordFile = "password_file"
        case noHost = "no_host"
        case newerSchema = "newer_schema"
        case server
        /// Another courtsided took the lease: this one's commit was not made, and it must step down.
        case fenced
        /// Every server that answered is a standby (in recovery): none takes writes.
        case noPrimary = "no_primary"
    }

    let code: Code
    /// What went wrong, in words.
    public let message: String
    /// Where the error was made.
    public let file: String
    /// The line where the error was made.
    public let line: Int

    init(_ code: Code, _ message: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
    }

    public var description: String { "\(code.rawValue): \(message) (\(file):\(line))" }

    /// Runs `body`, giving a failure of the server or the connection in words: postgres-nio's
    /// `PSQLError` describes itself only when reflected, and the library logs what a commit threw.
    static func server<T>(_ doing: String, file: String = #fileID, line: Int = #line, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PSQLError {
            throw PostgresEventLogError(.server, "\(doing): \(String(reflecting: error))", file: file, line: line)
        }
    }

    /// ``server(_:file:line:_:)`` for async work.
    static func server<T>(_ doing: String, file: String = #fileID, line: Int = #line, _ body: () async throws -> T)
        async throws -> T
    {
        do {
            return try await body()
        } catch let error as PSQLError {
            throw PostgresEventLogError(.server, "\(doing): \(String(reflecting: error))", file: file, line: line)
        }
    }

    /// The stable string of this error's kind.
    public var codeString: String { code.rawValue }
}
