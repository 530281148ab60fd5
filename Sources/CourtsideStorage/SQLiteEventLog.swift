public import CourtsideModel
public import Foundation
import GRDB

/// The embedded default ``EventLog``: one SQLite database file in a data directory, written
/// through GRDB in WAL mode with `synchronous=FULL`.
///
/// The `events` and `refusals` tables are append-only: triggers refuse every UPDATE and
/// DELETE, so a bug can never rewrite history. Retractions are events of their own.
public final class SQLiteEventLog: EventLog {
    /// The database file's name inside the data directory.
    public static let fileName = "courtside.sqlite"

    private let pool: DatabasePool
    /// Where the database lives.
    public let path: String

    /// Opens (creating if needed) the log in `directory`.
    public init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent(Self.fileName).path
        var configuration = Configuration()
        configuration.label = "courtside.events"
        pool = try DatabasePool(path: path, configuration: configuration)
        // GRDB opens WAL databases with synchronous=NORMAL, which may lose the last commits on
        // power loss. An acknowledged move must survive, so the writer connection uses FULL.
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        try Self.migrator.migrate(pool)
    }

    /// The writer connection's `PRAGMA synchronous` (2 means FULL).
    public func synchronousLevel() throws -> Int {
        try pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
    }

    public func readAll() throws -> [GameEvent] {
        try pool.read { db in try Self.events(db, sql: "SELECT * FROM events ORDER BY sequence") }
    }

    public func events(ofGame game: GameID) async throws -> [GameEvent] {
        try await pool.read { db in
            try Self.events(db, sql: "SELECT * FROM events WHERE game_id = ? ORDER BY sequence", arguments: [game.rawValue])
        }
    }

    private static func events(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [GameEvent] {
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        let decoder = JSONDecoder()
        var events: [GameEvent] = []
        while let row = try rows.next() {
            let payload: Data = row["payload"]
            events.append(
                GameEvent(
                    gameID: GameID(row["game_id"] as String),
                    version: row["version"],
                    sequence: row["sequence"],
                    at: Timestamp(milliseconds: row["recorded_at"]),
                    origin: CommandOrigin(clientID: row["client_id"], commandID: row["command_id"]),
                    kind: try decoder.decode(GameEvent.Kind.self, from: payload)
                ))
        }
        return events
    }

    public func contains(_ origin: CommandOrigin) async throws -> Bool {
        try await pool.read { db in
            let arguments: StatementArguments = [origin.clientID, origin.commandID]
            return try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM events WHERE client_id = ? AND command_id = ?)
                        OR EXISTS (SELECT 1 FROM refusals WHERE client_id = ? AND command_id = ?)
                    """, arguments: arguments + arguments) ?? false
        }
    }

    public func readRefusals() throws -> [CommandRefusal] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM refusals ORDER BY rowid").map { row in
                CommandRefusal(
                    gameID: GameID(row["game_id"] as String),
                    origin: CommandOrigin(clientID: row["client_id"], commandID: row["command_id"]),
                    at: Timestamp(milliseconds: row["recorded_at"]),
                    error: CourtsideError(CourtsideError.Code(rawValue: row["code"]), row["message"]))
            }
        }
    }

    public func append(_ events: [GameEvent], refusals: [CommandRefusal]) throws {
        guard !events.isEmpty || !refusals.isEmpty else { return }
        // The model's own writer: Foundation's encoder cost more than the insert. (Older rows,
        // written by Foundation with escaped slashes, read back the same.)
        let payloads = events.map { event in
            var writer = JSONWriter(capacity: 256)
            event.kind.writeJSON(to: &writer)
            return Data(writer.bytes)
        }
        try pool.write { db in
            let insertEvent = try db.cachedStatement(
                sql: """
                    INSERT INTO events (sequence, game_id, version, recorded_at, client_id, command_id, kind, payload)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for (event, payload) in zip(events, payloads) {
                try insertEvent.execute(arguments: [
                    event.sequence, event.gameID.rawValue, event.version, event.at.rawValue,
                    event.origin.clientID, event.origin.commandID, event.kind.typeName, payload,
                ])
            }
            guard !refusals.isEmpty else { return }
            let insertRefusal = try db.cachedStatement(
                sql: """
                    INSERT OR IGNORE INTO refusals (game_id, client_id, command_id, recorded_at, code, message)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """)
            for refusal in refusals {
                try insertRefusal.execute(arguments: [
                    refusal.gameID.rawValue, refusal.origin.clientID, refusal.origin.commandID, refusal.at.rawValue,
                    refusal.error.code.rawValue, refusal.error.message,
                ])
            }
        }
    }

    public func close() throws {
        try pool.close()
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: events") { db in
            try db.execute(
                sql: """
                    CREATE TABLE events (
                        sequence INTEGER PRIMARY KEY NOT NULL,
                        game_id TEXT NOT NULL,
                        version INTEGER NOT NULL,
                        recorded_at INTEGER NOT NULL,
                        client_id TEXT NOT NULL,
                        command_id TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        payload BLOB NOT NULL,
                        UNIQUE (game_id, version)
                    );
                    CREATE INDEX events_by_command ON events (client_id, command_id);
                    CREATE TRIGGER events_are_append_only_update BEFORE UPDATE ON events
                    BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
                    CREATE TRIGGER events_are_append_only_delete BEFORE DELETE ON events
                    BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
                    """)
        }
        // Refusals have no version or sequence: they change no game. One per command and game.
        migrator.registerMigration("v2: refusals") { db in
            try db.execute(
                sql: """
                    CREATE TABLE refusals (
                        game_id TEXT NOT NULL,
                        client_id TEXT NOT NULL,
                        command_id TEXT NOT NULL,
                        recorded_at INTEGER NOT NULL,
                        code TEXT NOT NULL,
                        message TEXT NOT NULL,
                        UNIQUE (game_id, client_id, command_id)
                    );
                    CREATE TRIGGER refusals_are_append_only_update BEFORE UPDATE ON refusals
                    BEGIN SELECT RAISE(ABORT, 'refusals are append-only'); END;
                    CREATE TRIGGER refusals_are_append_only_delete BEFORE DELETE ON refusals
                    BEGIN SELECT RAISE(ABORT, 'refusals are append-only'); END;
                    """)
        }
        // A retry from beyond the retry window is told from a new command by a look-up here.
        migrator.registerMigration("v3: refusals by command") { db in
            try db.execute(sql: "CREATE INDEX refusals_by_command ON refusals (client_id, command_id)")
        }
        return migrator
    }
}
