/// Why a named event log (``LogLocation``) cannot be used.
public struct LogLocationError: Error, CustomStringConvertible, Sendable, Equatable {
    enum Code: String, Sendable {
        /// Neither `sqlite:DIR` nor `postgresql://...`.
        case unknownForm = "unknown_form"
        /// A `postgresql://` address with a part missing or wrong.
        case badAddress = "bad_address"
        /// A password in the address itself: it belongs in a password file.
        case passwordInAddress = "password_in_address"
        /// A config file without `storage.postgresql`.
        case noPostgres = "no_postgresql"
        /// A SQLite data directory that holds no log, where one must be read.
        case noLog = "no_log"
        /// A courtsided holds the PostgreSQL log's lease: it is active, and must be stopped first.
        case daemonActive = "daemon_active"
    }

    let code: Code
    /// What is wrong, in words.
    public let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The stable string of this error's kind.
    public var codeString: String { code.rawValue }

    public var description: String { "\(code.rawValue): \(message)" }
}
