import CourtsideModel
public import CourtsidePostgres
public import CourtsideStorage
import Foundation
public import Logging

/// Where an event log is, as an operator names it to `courtside-admin`: a SQLite data directory,
/// or a PostgreSQL database (written out, or the one a courtsided config's `storage.postgresql`
/// names).
public enum LogLocation: Sendable, Equatable, CustomStringConvertible {
    /// The embedded log in a data directory (its `courtside.sqlite`).
    case sqlite(directory: String)
    case postgresql(PostgresLogConfiguration)

    /// Reads `sqlite:DIR` or `postgresql://USER@HOST[:PORT][,HOST[:PORT]...]/DATABASE`, with an
    /// optional `?sslmode=disable|prefer|require` (the config's `tls`; disable by default).
    /// A PostgreSQL password comes from `passwordFile`, never from the address.
    public static func parse(_ text: String, passwordFile: String? = nil) throws(LogLocationError) -> LogLocation {
        if text.hasPrefix("sqlite:") {
            let directory = String(text.dropFirst("sqlite:".count))
            guard !directory.isEmpty else {
                throw LogLocationError(.unknownForm, "\(text): name the data directory, as sqlite:/var/lib/courtside")
            }
            return .sqlite(directory: directory)
        }
        for scheme in ["postgresql://", "postgres://"] where text.hasPrefix(scheme) {
            return .postgresql(try postgres(text, rest: text.dropFirst(scheme.count), passwordFile: passwordFile))
        }
        throw LogLocationError(
            .unknownForm, "\(text) is neither sqlite:DIR nor postgresql://USER@HOST:PORT/DATABASE")
    }

    /// The PostgreSQL database of a courtsided config file's `storage.postgresql` section, its
    /// password from the section's `password_file`. The file is checked as courtsided checks it.
    public static func postgresql(configFile path: String) throws -> LogLocation {
        guard let postgresql = try DaemonConfiguration.load(path: path).postgresql else {
            throw LogLocationError(
                .noPostgres,
                "\(path) has no storage.postgresql section (its daemon keeps the SQLite log in its data directory: "
                    + "name that one as sqlite:DIR)")
        }
        return .postgresql(postgresql)
    }

    /// Opens the log for an operator's tool, while no daemon may use it. With `mustExist`, a data
    /// directory without a log is an error rather than a new, empty log: what is read must be
    /// there. A PostgreSQL log's lease is taken and kept until the log closes, so that no
    /// courtsided becomes active meanwhile; a daemon that holds it already is an error. Blocks
    /// while PostgreSQL connects: call it from a thread of the caller's, not the cooperative pool.
    public func open(mustExist: Bool, logger: Logger) throws -> any EventLog {
        switch self {
        case .sqlite(let directory):
            let url = URL(fileURLWithPath: directory, isDirectory: true)
            if mustExist, !FileManager.default.fileExists(atPath: url.appendingPathComponent(SQLiteEventLog.fileName).path) {
                throw LogLocationError(.noLog, "\(directory) holds no event log (\(SQLiteEventLog.fileName))")
            }
            return try SQLiteEventLog(directory: url)
        case .postgresql(let configuration):
            let log = try PostgresEventLog(configuration: configuration, logger: logger)
            do {
                // A holder of its own each time: never a daemon's, nor the other side's of one copy.
                let claim = LeaseClaim(
                    holder: "courtside-admin:\(ProcessInfo.processInfo.hostName):\(UUID().uuidString.prefix(8))",
                    endpoint: nil, duration: configuration.lease)
                if case .held(let term, let endpoint, let expiresIn) = try log.acquireLease(claim) {
                    throw LogLocationError(
                        .daemonActive,
                        "\(self) is in use: an active courtsided (or another courtside-admin) holds its lease, in term \(term)"
                            + (endpoint.map { " at \($0)" } ?? "")
                            + ", for \(expiresIn.inMilliseconds) ms more unless renewed. Stop every courtsided of the tournament first"
                    )
                }
                // Kept while the tool works (a copy of a long log outlasts many leases), until the log closes.
                _ = log.keepLease()
            } catch {
                try? log.close()
                throw error
            }
            return log
        }
    }

    /// The location as it is written, without a password: `sqlite:DIR` or `postgresql://USER@HOSTS/DATABASE`.
    public var description: String {
        switch self {
        case .sqlite(let directory):
            return "sqlite:\(directory)"
        case .postgresql(let configuration):
            let hosts = configuration.hosts.map { "\($0.host):\($0.port)" }.joined(separator: ",")
            return "postgresql://\(configuration.user)@\(hosts)/\(configuration.database)"
        }
    }

    /// The rest of a `postgresql://` address, checked as courtsided checks `storage.postgresql`.
    private static func postgres(_ text: String, rest: Substring, passwordFile: String?) throws(LogLocationError)
        -> PostgresLogConfiguration
    {
        func bad(_ problem: String) -> LogLocationError {
            LogLocationError(.badAddress, "\(text): \(problem) (postgresql://USER@HOST:PORT/DATABASE)")
        }
        guard let at = rest.firstIndex(of: "@") else { throw bad("name the user, as USER@HOST") }
        let user = rest[..<at]
        guard !user.contains(":") else {
            throw LogLocationError(
                .passwordInAddress, "\(text): the password belongs in a file (--password-file), not in the address")
        }
        var hostsAndDatabase = rest[rest.index(after: at)...]
        var tls: String?
        if let question = hostsAndDatabase.firstIndex(of: "?") {
            for parameter in hostsAndDatabase[hostsAndDatabase.index(after: question)...].split(separator: "&") {
                guard parameter.hasPrefix("sslmode=") else { throw bad("\(parameter) is not sslmode=...") }
                tls = String(parameter.dropFirst("sslmode=".count))
            }
            hostsAndDatabase = hostsAndDatabase[..<question]
        }
        guard let slash = hostsAndDatabase.firstIndex(of: "/") else { throw bad("name the database, as HOST/DATABASE") }
        let hosts = hostsAndDatabase[..<slash].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let raw = RawConfiguration.RawPostgres(
            hosts: hosts == [""] ? [] : hosts,
            database: String(hostsAndDatabase[hostsAndDatabase.index(after: slash)...]).removingPercentEncoding ?? "",
            user: String(user).removingPercentEncoding ?? "", passwordFile: passwordFile, tls: tls)
        do throws(ConfigurationError) {
            return try raw.checked(file: text, folder: "")
        } catch {
            // The section's key, said as the part of the address it came from.
            let key = error.key.replacingOccurrences(of: "storage.postgresql.", with: "")
            let part = key == "tls" ? "sslmode" : key == "password_file" ? "--password-file" : key
            throw bad("\(part) \(error.problem)")
        }
    }
}
