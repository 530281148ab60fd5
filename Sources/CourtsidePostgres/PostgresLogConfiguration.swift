import Foundation

/// Where the PostgreSQL event log lives and how to reach it.
///
/// The password is read from a file (``passwordFile``), never written in a configuration file
/// itself. courtsided reads it from its config's `storage.postgresql` section.
public struct PostgresLogConfiguration: Sendable, Equatable {
    /// A server to try, in order: the first that answers is used.
    public struct Host: Sendable, Equatable {
        public var host: String
        public var port: Int

        public init(_ host: String, port: Int = 5432) {
            self.host = host
            self.port = port
        }
    }

    /// Whether the connections use TLS.
    public enum TLS: String, Sendable, Equatable {
        /// Plain TCP: a server on the same machine or a private network.
        case disable
        /// TLS when the server offers it, plain TCP otherwise.
        case prefer
        /// TLS or no connection.
        case require
    }

    /// The servers to try, in order.
    public var hosts: [Host]
    public var database: String
    public var user: String
    /// A file holding the password (a trailing newline is ignored); nil for a server that asks none.
    public var passwordFile: String?
    public var tls: TLS
    /// How long the active daemon's lease lasts without a renewal: how soon a standby daemon
    /// takes over from one that died, paused or lost the database.
    public var lease: Duration

    public init(
        hosts: [Host], database: String, user: String, passwordFile: String? = nil, tls: TLS = .disable,
        lease: Duration = .seconds(2)
    ) {
        self.hosts = hosts
        self.database = database
        self.user = user
        self.passwordFile = passwordFile
        self.tls = tls
        self.lease = lease
    }

    /// The password from ``passwordFile``; nil when there is none.
    func password() throws -> String? {
        guard let passwordFile else { return nil }
        let contents: String
        do {
            contents = try String(contentsOfFile: passwordFile, encoding: .utf8)
        } catch {
            throw PostgresEventLogError(.passwordFile, "the password file \(passwordFile) could not be read: \(error)")
        }
        var password = Substring(contents)
        while password.last?.isNewline == true { password.removeLast() }
        return String(password)
    }
}
