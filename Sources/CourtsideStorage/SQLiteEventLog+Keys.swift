import GRDB

// The look-ups by game (a display's `log` read) and by command (a retry from beyond the window)
// need the events' keys in order. Kept as SQLite indexes on `events`, they cost every commit a
// page of each index per event: a thousand games and a few dozen keepers put each move on leaf
// pages of its own, ten times the bytes of its rows written and synced (docs/FIGURES.md, "The
// SQLite log"), where the rows themselves share the table's last page.
//
// So a commit appends rows alone, and every `keyRun` events the log files their keys at once, as
// a run keyed by the run first, so that the run is written at the end of each key table, on
// pages of its own, once: a row for each game with a JSON array of its sequences, and a row for
// each event keyed by a hash of its command (``SQLiteEventKeyRun``), where rows keyed by the
// texts had SQLite sort them. A look-up seeks its game's row or its hash in each run (a few dozen
// in a long tournament), and scans the events after the last run by rowid: fewer than `keyRun`.

extension SQLiteEventLog {
    /// Events between two runs of keys: what a look-up scans at most, and what the commit that
    /// files a run waits for, so not more: twice as many doubled that commit's wait, and the p99 of
    /// 256 keepers with it (docs/FIGURES.md, "The SQLite log"). A million events make 244 runs,
    /// each a seek per look-up.
    static let keyRun: Int64 = 4_096

    /// Every event up to this sequence has its keys filed; 0 when none has.
    static func filedThrough(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(run) FROM event_key_runs")) ?? 0
    }

    /// Files the keys of the events after `after` up to `through` as one run of migration v5's
    /// tables, a row an event keyed by its texts, which v7 files anew.
    private static func fileKeysOneByOne(after: Int64, through: Int64, _ db: Database) throws {
        let span: StatementArguments = [through, after, through]
        try db.cachedStatement(
            sql: """
                INSERT INTO event_keys_by_game (run, game_id, version, sequence)
                SELECT ?, game_id, version, sequence FROM events WHERE sequence > ? AND sequence <= ?
                ORDER BY game_id, version
                """
        ).execute(arguments: span)
        try db.cachedStatement(
            sql: """
                INSERT INTO event_keys_by_command (run, client_id, command_id, sequence)
                SELECT ?, client_id, command_id, sequence FROM events WHERE sequence > ? AND sequence <= ?
                ORDER BY client_id, command_id, sequence
                """
        ).execute(arguments: span)
        try db.cachedStatement(sql: "INSERT INTO event_key_runs (run) VALUES (?)").execute(arguments: [through])
    }

    /// Migration v5: `events` loses its two indexes (the table is rebuilt: SQLite cannot drop a
    /// UNIQUE constraint), and the events already there are filed as one run.
    static func fileKeysInRuns(_ db: Database) throws {
        try db.execute(
            sql: """
                DROP TRIGGER events_are_append_only_update;
                DROP TRIGGER events_are_append_only_delete;
                CREATE TABLE events_appended (
                    sequence INTEGER PRIMARY KEY NOT NULL,
                    game_id TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    recorded_at INTEGER NOT NULL,
                    client_id TEXT NOT NULL,
                    command_id TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    payload BLOB NOT NULL
                );
                INSERT INTO events_appended
                SELECT sequence, game_id, version, recorded_at, client_id, command_id, kind, payload FROM events
                ORDER BY sequence;
                DROP TABLE events;
                ALTER TABLE events_appended RENAME TO events;
                CREATE TRIGGER events_are_append_only_update BEFORE UPDATE ON events
                BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
                CREATE TRIGGER events_are_append_only_delete BEFORE DELETE ON events
                BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
                CREATE TABLE event_keys_by_game (
                    run INTEGER NOT NULL,
                    game_id TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    sequence INTEGER NOT NULL,
                    PRIMARY KEY (run, game_id, version)
                ) WITHOUT ROWID;
                CREATE TABLE event_keys_by_command (
                    run INTEGER NOT NULL,
                    client_id TEXT NOT NULL,
                    command_id TEXT NOT NULL,
                    sequence INTEGER NOT NULL,
                    PRIMARY KEY (run, client_id, command_id, sequence)
                ) WITHOUT ROWID;
                CREATE TABLE event_key_runs (run INTEGER PRIMARY KEY NOT NULL);
                """)
        if let last = try Int64.fetchOne(db, sql: "SELECT MAX(sequence) FROM events") {
            try fileKeysOneByOne(after: 0, through: last, db)
        }
    }

    /// Migration v7: each run filed so far is filed anew, a row a game and a row an event keyed
    /// by its command's hash, read from the events it spans; the tables keyed by texts go.
    static func fileKeyRunsAnew(_ db: Database) throws {
        try db.execute(
            sql: """
                DROP TABLE event_keys_by_game;
                DROP TABLE event_keys_by_command;
                CREATE TABLE event_runs_by_game (
                    run INTEGER NOT NULL,
                    game_id TEXT NOT NULL,
                    sequences TEXT NOT NULL,
                    PRIMARY KEY (run, game_id)
                ) WITHOUT ROWID;
                CREATE TABLE event_runs_by_command (
                    run INTEGER NOT NULL,
                    command_hash INTEGER NOT NULL,
                    sequence INTEGER NOT NULL,
                    PRIMARY KEY (run, command_hash, sequence)
                ) WITHOUT ROWID;
                """)
        let runs = try Int64.fetchAll(db, sql: "SELECT run FROM event_key_runs ORDER BY run")
        try db.execute(sql: "DELETE FROM event_key_runs")
        var after: Int64 = 0
        for run in runs {
            var keys = try SQLiteEventKeyRun.read(after: after, through: run, db)
            try keys.file(db)
            after = run
        }
    }
}
