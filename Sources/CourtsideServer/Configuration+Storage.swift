import CourtsidePostgres
import Foundation

extension RawConfiguration {
    /// `storage:`, where the event log lives: absent, the embedded SQLite log in `data_dir`.
    struct RawStorage: Decodable {
        var postgresql: RawPostgres?

        enum CodingKeys: String, CodingKey, CaseIterable { case postgresql }
    }

    /// `storage.postgresql:`. The password is never in the file: `password_file` names a file
    /// that holds it (systemd's LoadCredential= puts one in $CREDENTIALS_DIRECTORY).
    struct RawPostgres: Decodable {
        var hosts: [String]
        var database: String
        var user: String
        var passwordFile: String?
        var tls: String?
        var leaseMs: Int?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case hosts, database, user, tls
            case passwordFile = "password_file"
            case leaseMs = "lease_ms"
        }

        /// The lease when `lease_ms` is not given: how soon a standby daemon takes over.
        static let defaultLeaseMilliseconds = 2000
    }
}

extension RawConfiguration.RawPostgres {
    /// The log's configuration, or the key that is wrong. `folder` is the config file's: a
    /// relative password file is found beside it.
    func checked(file: String, folder: String) throws(ConfigurationError) -> PostgresLogConfiguration {
        func fail(_ key: String, _ problem: String) -> ConfigurationError {
            ConfigurationError(file: file, key: "storage.postgresql.\(key)", problem: problem)
        }
        if hosts.isEmpty { throw fail("hosts", "name at least one server, as host or host:port") }
        var parsed: [PostgresLogConfiguration.Host] = []
        for (index, entry) in hosts.enumerated() {
            let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), !parts[0].isEmpty else {
                throw fail("hosts.\(index)", "\"\(entry)\" is not host or host:port")
            }
            var port = 5432
            if parts.count == 2 {
                guard let number = Int(parts[1]), (1...65535).contains(number) else {
                    throw fail("hosts.\(index)", "\"\(parts[1])\" is not a port")
                }
                port = number
            }
            parsed.append(PostgresLogConfiguration.Host(String(parts[0]), port: port))
        }
        if database.isEmpty { throw fail("database", "must not be empty") }
        if user.isEmpty { throw fail("user", "must not be empty") }
        guard let tls = PostgresLogConfiguration.TLS(rawValue: tls ?? "disable") else {
            throw fail("tls", "must be disable, prefer or require")
        }
        var password = passwordFile
        // systemd's LoadCredential= puts the file in a directory it names in the environment.
        let credentials = "${CREDENTIALS_DIRECTORY}"
        if let path = password, path.hasPrefix(credentials) {
            guard let directory = ProcessInfo.processInfo.environment["CREDENTIALS_DIRECTORY"] else {
                throw fail(
                    "password_file", "names ${CREDENTIALS_DIRECTORY}, which is set only under systemd with LoadCredential=")
            }
            password = directory + path.dropFirst(credentials.count)
        }
        password = password.map { path in
            path.hasPrefix("/") || folder.isEmpty ? path : (folder as NSString).appendingPathComponent(path)
        }
        if let password, !FileManager.default.isReadableFile(atPath: password) {
            throw fail("password_file", "\(password) cannot be read")
        }
        let lease = leaseMs ?? Self.defaultLeaseMilliseconds
        // Under 200 ms a busy moment's renewal could miss; over a minute a venue waits too long.
        guard (200...60_000).contains(lease) else { throw fail("lease_ms", "must be between 200 and 60000") }
        return PostgresLogConfiguration(
            hosts: parsed, database: database, user: user, passwordFile: password, tls: tls, lease: .milliseconds(lease))
    }
}
