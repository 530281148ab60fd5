public import CourtsideModel
public import Foundation
import GRDB
import Synchronization

/// The embedded default ``EventLog``: one SQLite database file in a data directory, written
/// through GRDB in WAL mode with `synchronous=FULL`, and the checkpoints in a second one.
///
/// The `events` and `refusals` tables are append-only: triggers refuse every UPDATE and
/// DELETE, so a bug can never rewrite history. Retractions are events of their own.
///
/// A commit appends to `events` alone, at the end of its rowid order: its rows share the table's
/// last pages. The look-ups by game and by command go through keys filed in runs of thousands
/// of events (see `SQLiteEventLog+Keys.swift`), and through the events after the last run.
public final class SQLiteEventLog: EventLog {
    /// The database file's name inside the data directory.
    public static let fileName = "courtside.sqlite"
    /// The checkpoints' database file's name, beside the log's (see ``SQLiteCheckpointFile``).
    public static let checkpointFileName = "checkpoints.sqlite"

    private let pool: DatabasePool
    private let checkpoints: SQLiteCheckpointFile
    /// This log's identity, made once when it is created: what its checkpoints are tied to.
    private let identity: String
    /// The keys of the events after the last run, as the writer groups them (nil until its
    /// first commit reads them, and after a commit that failed).
    private let unfiled = Mutex<SQLiteEventKeyRun?>(nil)
    /// Where the database lives.
    public let path: String

    /// Opens (creating if needed) the log in `directory`.
    public init(directory: URL) throws {
        try DurableDirectory.create(directory)
        path = directory.appendingPathComponent(Self.fileName).path
        var configuration = Configuration()
        configuration.label = "courtside.events"
        configuration.prepareDatabase { db in
            // Readers look up one command or read one game's events (a start reads everything
            // once): SQLite's default 2 MB page cache each, up to six of them, would only cost RSS.
            // The writer appends at the end of `events` and files a run of keys every 4,096
            // events (about 1 MB of rows, read once): 1 MB holds that, where the default 2 MB
            // only kept pages no commit reads again in the RSS (docs/FIGURES.md, "Memory and restart").
            try db.execute(sql: db.configuration.readonly ? "PRAGMA cache_size = -256" : "PRAGMA cache_size = -1024")
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        // GRDB opens WAL databases with synchronous=NORMAL, which may lose the last commits on
        // power loss. An acknowledged move must survive, so the writer connection uses FULL.
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        try Self.migrator.migrate(pool)
        // On the writer's connection: a reader opened here for nothing could be the last to
        // close, and a read-only connection leaves the WAL behind.
        identity = try pool.writeWithoutTransaction { db in try String.fetchOne(db, sql: "SELECT id FROM identity") ?? "" }
        checkpoints = try SQLiteCheckpointFile(path: directory.appendingPathComponent(Self.checkpointFileName).path)
        // The log's files are new entries of the directory: synced before the first commit is acknowledged.
        try DurableDirectory.sync(directory)
    }

    /// How many events an existing log in `directory` holds when opening it will first upgrade
    /// its format (a migration rewrites them: seconds for a long log, once); nil when nothing
    /// needs upgrading or there is no log yet. Lets the daemon say so before it opens the log.
    public static func eventsToUpgrade(in directory: URL) throws -> Int64? {
        let path = directory.appendingPathComponent(fileName).path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            guard try db.tableExists("events"), try !migrator.hasCompletedMigrations(db) else { return nil }
            return try Int64.fetchOne(db, sql: "SELECT MAX(sequence) FROM events") ?? 0
        }
    }

    /// The writer connection's `PRAGMA synchronous` (2 means FULL).
    public func synchronousLevel() throws -> Int {
        try pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
    }

    public func readAll() throws -> [GameEvent] {
        try pool.read { db in try Self.events(db) }
    }

    public func readEvents(after sequence: Int64) throws -> [GameEvent] {
        try pool.read { db in try Self.events(db, where: "sequence > ?", arguments: [sequence]) }
    }

    public func events(ofGame game: GameID) async throws -> [GameEvent] {
        try await pool.read { db in try Self.events(db, ofGame: game) }
    }

    public func readEvents(ofGame game: GameID) throws -> [GameEvent] {
        try pool.read { db in try Self.events(db, ofGame: game) }
    }

    private static func events(_ db: Database, ofGame game: GameID) throws -> [GameEvent] {
        let filed = try filedThrough(db)
        return try events(
            db,
            sql: """
                SELECT e.game_id, e.version, e.sequence, e.recorded_at, e.client_id, e.command_id, e.payload
                FROM event_runs_by_game k, json_each(k.sequences) j JOIN events e ON e.sequence = j.value
                WHERE k.run IN (SELECT run FROM event_key_runs) AND k.game_id = ? ORDER BY e.sequence
                """, arguments: [game.rawValue])
            + events(db, where: "sequence > ? AND game_id = ?", arguments: [filed, game.rawValue])
    }

    private static func events(_ db: Database, where condition: String = "1", arguments: StatementArguments = []) throws
        -> [GameEvent]
    {
        try events(
            db,
            sql: """
                SELECT game_id, version, sequence, recorded_at, client_id, command_id, payload FROM events
                WHERE \(condition) ORDER BY sequence
                """, arguments: arguments)
    }

    /// The events of `sql`, whose columns must be those of `events(_:where:arguments:)`, in its order.
    private static func events(_ db: Database, sql: String, arguments: StatementArguments) throws -> [GameEvent] {
        // Columns by place, not by name, and payloads read in place: a replay reads every row.
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        let decoder = EventPayloadDecoder()
        var events: [GameEvent] = []
        while let row = try rows.next() {
            let kind = try row.withUnsafeData(atIndex: 6) { payload in
                try (payload ?? Data()).withUnsafeBytes { try decoder.decode($0) }
            }
            events.append(
                GameEvent(
                    gameID: GameID(row[0] as String), version: row[1], sequence: row[2], at: Timestamp(milliseconds: row[3]),
                    origin: CommandOrigin(clientID: row[4], commandID: row[5]), kind: kind))
        }
        return events
    }

    public func contains(_ origin: CommandOrigin) async throws -> Bool {
        try await pool.read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (
                            SELECT 1 FROM event_runs_by_command k JOIN events e ON e.sequence = k.sequence
                            WHERE k.run IN (SELECT run FROM event_key_runs) AND k.command_hash = ?4
                                AND e.client_id = ?1 AND e.command_id = ?2)
                        OR EXISTS (
                            SELECT 1 FROM events WHERE sequence > ?3 AND client_id = ?1 AND command_id = ?2)
                        OR EXISTS (SELECT 1 FROM refusals WHERE client_id = ?1 AND command_id = ?2)
                    """,
                arguments: [
                    origin.clientID, origin.commandID, try Self.filedThrough(db), SQLiteEventKeyRun.commandHash(origin),
                ]) ?? false
        }
    }

    public func readRefusals() throws -> [CommandRefusal] {
        try pool.read { db in try Self.refusals(db) }
    }

    private static func refusals(_ db: Database) throws -> [CommandRefusal] {
        try Row.fetchAll(db, sql: "SELECT * FROM refusals ORDER BY rowid").map { row in
            CommandRefusal(
                gameID: GameID(row["game_id"] as String),
                origin: CommandOrigin(clientID: row["client_id"], commandID: row["command_id"]),
                at: Timestamp(milliseconds: row["recorded_at"]),
                error: CourtsideError(CourtsideError.Code(rawValue: row["code"]), row["message"]))
        }
    }

    public func forEachAnswer(_ body: (LoggedAnswer) throws -> Void) throws {
        try pool.read { db in
            let refusals = try Self.refusals(db)
            // Only the columns that answer a retry: the payloads, most of each row, stay unread.
            let rows = try Row.fetchCursor(
                db, sql: "SELECT sequence, game_id, version, recorded_at, client_id, command_id FROM events ORDER BY sequence")
            let next = {
                try rows.next().map { row in
                    LoggedAnswer(
                        origin: CommandOrigin(clientID: row[4], commandID: row[5]), at: Timestamp(milliseconds: row[3]),
                        outcome: .event(game: GameID(row[1] as String), version: row[2], sequence: row[0]))
                }
            }
            try LoggedAnswer.merge(nextEvent: next, refusals: refusals, body)
        }
    }

    // MARK: - Checkpoints

    /// Reads the checkpoint in force from the checkpoint file, and checks it against the log:
    /// it must have been taken from this log (a file left beside a log started again is not),
    /// the log must hold its sequence's event, and that event's game must be at that event's
    /// version in it.
    public func checkpointSequence() throws -> Int64? {
        checkpoints.resetBecause == nil ? try checkpoints.sequence(logID: identity) : nil
    }

    public func readCheckpoint() throws -> Checkpoint? {
        if let reason = checkpoints.resetBecause {
            throw CheckpointError("the checkpoint file could not be opened, and was made again: \(reason)")
        }
        guard let (sequence, games) = try checkpoints.read(logID: identity) else { return nil }
        let event = try pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT recorded_at, game_id, version FROM events WHERE sequence = ?", arguments: [sequence])
        }
        guard let event else { throw CheckpointError("the checkpoint is of sequence \(sequence), which the log does not hold") }
        let game = GameID(event[1] as String)
        let version: Int = event[2]
        guard let held = games.first(where: { $0.id == game }), held.version == version else {
            throw CheckpointError("event \(sequence) made game \(game) version \(version); the checkpoint does not have it so")
        }
        return Checkpoint(sequence: sequence, at: Timestamp(milliseconds: event[0]), games: games)
    }

    /// Writes `part` into the checkpoint file: it may be called from another thread than the
    /// appends, and never waits for them, nor they for it.
    public func writeCheckpoint(_ part: CheckpointPart) throws {
        try checkpoints.write(part, logID: identity)
    }

    public func append(_ events: [GameEvent], refusals: [CommandRefusal]) throws {
        guard !events.isEmpty || !refusals.isEmpty else { return }
        // The keys are held through the commit and kept only once it is in: a rolled-back one
        // filed nothing, and the next commit reads them from the log again.
        try unfiled.withLock { unfiled in
            var keys = unfiled.take()
            try Self.transaction(in: pool) { db in
                // From the log after a start or a failed commit, or if these events do not follow
                // the keys held (the sequence is gapless, so that would be a bug); read before
                // these events are in. Taken out of `keys`, so that adding to it copies nothing.
                var run: SQLiteEventKeyRun?
                if let first = events.first?.sequence {
                    run = keys?.last == first - 1 ? keys.take() : try SQLiteEventKeyRun.read(after: Self.filedThrough(db), db)
                }
                // The payloads are the model's own JSON writer's (``SQLiteEventRows``): Foundation's
                // encoder cost more than the insert. (Older rows, written by Foundation with escaped
                // slashes, read back the same.)
                try SQLiteEventRows.insert(events, db)
                if !refusals.isEmpty {
                    let insertRefusal = try db.cachedStatement(
                        sql: """
                            INSERT OR IGNORE INTO refusals (game_id, client_id, command_id, recorded_at, code, message)
                            VALUES (?, ?, ?, ?, ?, ?)
                            """)
                    for refusal in refusals {
                        try insertRefusal.execute(arguments: [
                            refusal.gameID.rawValue, refusal.origin.clientID, refusal.origin.commandID,
                            refusal.at.rawValue, refusal.error.code.rawValue, refusal.error.message,
                        ])
                    }
                }
                guard var held = run.take() else { return }
                held.add(events)
                if held.isDue { try held.file(db) }
                keys = held
            }
            unfiled = keys
        }
    }

    /// The insert of one event's row (`courtside-bench` measures SQLite's own rate with it); a
    /// commit's inserts repeat its row (``SQLiteEventRows``).
    package static let insertEventSQL = SQLiteEventRows.insertSQL(rows: 1)

    public func close() throws {
        try pool.close()
        try checkpoints.close()
    }

    /// Runs `body` in an immediate transaction, as `pool.write` does, with BEGIN and COMMIT
    /// prepared once: `write` has SQLite parse both at every commit.
    private static func transaction<T>(in pool: DatabasePool, _ body: (Database) throws -> T) throws -> T {
        try pool.writeWithoutTransaction { db in
            try db.cachedStatement(sql: "BEGIN IMMEDIATE").execute()
            do {
                let result = try body(db)
                try db.cachedStatement(sql: "COMMIT").execute()
                return result
            } catch {
                // SQLite may have rolled back already (a full disk, say); GRDB's write does the same.
                if db.isInsideTransaction { try? db.rollback() }
                throw error
            }
        }
    }

    static var migrator: DatabaseMigrator {
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
        // Checkpoints were kept here until they moved to a file of their own (v6): logs made
        // since create no tables for them, and older ones drop theirs.
        migrator.registerMigration("v4: checkpoints") { _ in }
        migrator.registerMigration("v5: keys filed in runs") { db in try Self.fileKeysInRuns(db) }
        // Derived rows only: the first start after it replays the whole log, once, and writes
        // a checkpoint into the new file.
        migrator.registerMigration("v6: checkpoints in their own file") { db in
            try db.execute(sql: "DROP TABLE IF EXISTS checkpoint_games; DROP TABLE IF EXISTS checkpoint")
            try db.execute(
                sql: """
                    CREATE TABLE identity (id TEXT NOT NULL);
                    INSERT INTO identity (id) VALUES (?)
                    """, arguments: [UUID().uuidString])
        }
        migrator.registerMigration("v7: a run's keys a row a game and a row an event by its command's hash") { db in
            try Self.fileKeyRunsAnew(db)
        }
        return migrator
    }
}
