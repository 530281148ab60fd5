public import ArgumentParser
import CourtsideServer
import CourtsideStorage
import Foundation
public import Logging

/// The courtside-admin executable: an operator's tools for a stopped tournament's event log.
@main
struct CourtsideAdmin: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courtside-admin",
        abstract: "Operator tools for Courtside's event log: move a tournament between SQLite and PostgreSQL.",
        discussion: """
            A log is named in one of three ways:
              sqlite:DIR
                  the SQLite log in a data directory (its courtside.sqlite)
              postgresql://USER@HOST:PORT/DATABASE
                  a PostgreSQL database: HOST:PORT may be a comma-separated list,
                  ?sslmode=disable|prefer|require may follow, and the password is
                  read from the file --password-file names (never the address)
              --from-config FILE, --to-config FILE
                  the database of a courtsided config's storage.postgresql
                  section, the password from the section's password_file (one
                  under systemd's ${CREDENTIALS_DIRECTORY}: set that variable to
                  the folder LoadCredential= reads it from, as /etc/courtside)

            Stop every courtsided that uses either log first: both logs must be
            still while they are read. On PostgreSQL courtside-admin holds the
            lease while it runs, and refuses to start while a daemon holds it;
            a SQLite log has no such guard.

            Exit status: 0 done; 1 the logs differ; 2 any other problem (a log
            that cannot be opened or read, a target that is not empty, a copy
            that failed); 64 wrong arguments.
            """,
        subcommands: [CopyCommand.self, VerifyCommand.self]
    )
}

/// The two logs a command works on, as the operator names them.
struct LogPair: ParsableArguments {
    @Option(help: ArgumentHelp("The log to read: sqlite:DIR or postgresql://USER@HOST:PORT/DATABASE.", valueName: "log"))
    var from: String?

    @Option(
        help: ArgumentHelp("Read the PostgreSQL log of this courtsided config file (its storage.postgresql).", valueName: "file"))
    var fromConfig: String?

    @Option(
        help: ArgumentHelp(
            "The log to copy into, or to compare with: sqlite:DIR or postgresql://USER@HOST:PORT/DATABASE.", valueName: "log"))
    var to: String?

    @Option(
        help: ArgumentHelp("Copy into, or compare with, the PostgreSQL log of this courtsided config file.", valueName: "file"))
    var toConfig: String?

    @Option(
        help: ArgumentHelp(
            "A file holding the password of a postgresql:// log (a trailing newline is ignored).", valueName: "file"))
    var passwordFile: String?

    @Option(
        help: ArgumentHelp("Lowest level logged.", valueName: "level"))
    var logLevel: Logger.Level = .info

    func validate() throws {
        guard (from == nil) != (fromConfig == nil) else { throw ValidationError("name the source once: --from or --from-config") }
        guard (to == nil) != (toConfig == nil) else { throw ValidationError("name the target once: --to or --to-config") }
        if passwordFile != nil, ![from, to].contains(where: { $0?.hasPrefix("postgres") == true }) {
            throw ValidationError(
                "--password-file is for a postgresql:// log; a config's storage.postgresql names its own password_file")
        }
    }

    /// A log named by the operator, open.
    struct Opened {
        var location: LogLocation
        var log: any EventLog
    }

    /// Opens the source (which must hold a log) and the target, runs `body` with them and closes
    /// both. Any failure is said on standard error, and exits 1 when the logs differ, 2 otherwise.
    func withLogs(targetMustExist: Bool, _ body: (_ source: Opened, _ target: Opened, _ logger: Logger) throws -> Void)
        throws
    {
        let logger = logger()
        func location(_ address: String?, config: String?) throws -> LogLocation {
            if let config { return try LogLocation.postgresql(configFile: config) }
            return try LogLocation.parse(address ?? "", passwordFile: passwordFile)
        }
        try Self.orExit {
            let (source, target) = (try location(from, config: fromConfig), try location(to, config: toConfig))
            let from = try source.open(mustExist: true, logger: logger)
            defer { try? from.close() }
            let to = try target.open(mustExist: targetMustExist, logger: logger)
            defer { try? to.close() }
            try body(Opened(location: source, log: from), Opened(location: target, log: to), logger)
        }
    }

    /// A logger to standard error at `--log-level`. Not bootstrapped: this one logger is all there is.
    private func logger() -> Logger {
        var logger = Logger(label: "courtside-admin") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = logLevel
        return logger
    }

    /// Runs `body`; a failure is said on standard error and exits 1 when the logs differ, 2 otherwise.
    private static func orExit(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as EventLogCopyError where error.codeString == "logs_differ" {
            say(error.message)
            throw ExitCode(1)
        } catch let error as EventLogCopyError {
            say("\(error.codeString): \(error.message)")
            throw ExitCode(2)
        } catch {
            say("\(error)")
            throw ExitCode(2)
        }
    }

    static func say(_ line: String) {
        FileHandle.standardError.write(Data("courtside-admin: \(line)\n".utf8))
    }
}

extension EventLogCopy.Report {
    /// The counts in words: "1200 events of 14 games and the tournament, 3 refusals".
    var counts: String {
        let games = "\(self.games) game\(self.games == 1 ? "" : "s")\(tournamentStream ? " and the tournament's own stream" : "")"
        return "\(events) events (\(games)) and \(refusals) refusals"
    }

    /// The time taken in seconds, to a tenth.
    var seconds: String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.1f s", Double(seconds) + Double(attoseconds) / 1e18)
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
