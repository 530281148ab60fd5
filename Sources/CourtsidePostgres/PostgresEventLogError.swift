/// Why the PostgreSQL event log could not do what was asked. (The server's own errors come as
/// postgres-nio's `PSQLError`.)
public struct PostgresEventLogError: Error, CustomStringConvertible, Sendable {
    enum Code: String, Sendable {
        case closed
        case passwordFile = "password_file"
        case noHost = "no_host"
        case newerSchema = "newer_schema"
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

    /// The stable string of this error's kind.
    public var codeString: String { code.rawValue }
}
