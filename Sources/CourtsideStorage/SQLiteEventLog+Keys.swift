import CourtsideModel
import GRDB

// The look-ups by game (a display's `log` read) and by command (a retry from beyond the window)
// need the events' keys in order. Kept as SQLite indexes on `events`, they cost every commit a
// page of each index per event: a thousand games and a few dozen keepers put each move on a leaf
// page of its own, about 10 KB written and synced a move (measured with `courtside-bench library`),
// where the rows themselves share the table's last page.
//
// So a commit appends rows alone, and the keys are filed in batches, by the checkpoints: the part
// of a checkpoint that writes a game's state also files the game's events since the last checkpoint
// in force, in the same transaction. A game's keys then touch its own leaf pages once a checkpoint,
// ten or so events at a time. Two watermarks say what is filed:
// - `event_keys_filed`: every event up to its sequence is filed;
// - `event_keys_through`: a game's events up to its sequence are filed.
// A read takes the filed keys up to the watermark and scans the events after it by rowid: at most
// a checkpoint interval of them, and a few milliseconds.
//
// Only this code writes the keys and the watermarks; a build that appends without filing (an older
// one, run on the same file) only leaves more to scan, and the next checkpoint files it.

/// One event's keys, as the checkpoint that files them reads them.
struct UnfiledKey: Sendable {
    var sequence: Int64
    var version: Int
    var clientID: String
    var commandID: String
}

/// The keys of the events a checkpoint files: those after `after` up to `through`, by game.
struct UnfiledKeys: Sendable {
    var after: Int64
    var through: Int64
    var byGame: [String: [UnfiledKey]]
}

extension SQLiteEventLog {
    /// Every event up to this sequence has its keys filed; 0 when none has.
    static func filedThrough(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT sequence FROM event_keys_filed") ?? 0
    }

    /// Every event of `game` up to this sequence has its keys filed.
    static func filedThrough(game: GameID, _ db: Database) throws -> Int64 {
        let own = try Int64.fetchOne(
            db, sql: "SELECT sequence FROM event_keys_through WHERE game_id = ?", arguments: [game.rawValue])
        return max(own ?? 0, try filedThrough(db))
    }

    /// Files the keys of the part's games' events since the last checkpoint filed, up to the
    /// part's sequence. The other events of those games are filed already.
    func fileKeys(of part: CheckpointPart, _ db: Database) throws {
        guard !part.states.isEmpty else { return }
        let after = try Self.filedThrough(db)
        // A checkpoint's parts all file the same span: it is read once, at the first of them.
        let keys = try unfiledKeys.withLock { cached in
            if let cached, cached.after == after, cached.through == part.sequence { return cached.byGame }
            let read = try Self.unfiledKeys(after: after, through: part.sequence, db)
            cached = read
            return read.byGame
        }
        let byGame = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO event_keys_by_game (game_id, version, sequence) VALUES (?, ?, ?)")
        let byCommand = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO event_keys_by_command (client_id, command_id, sequence) VALUES (?, ?, ?)")
        let through = try db.cachedStatement(
            sql: """
                INSERT INTO event_keys_through (game_id, sequence) VALUES (?, ?)
                ON CONFLICT (game_id) DO UPDATE SET sequence = max(sequence, excluded.sequence)
                """)
        for state in part.states {
            let game = state.game.rawValue
            for key in keys[game] ?? [] {
                try byGame.execute(arguments: [game, key.version, key.sequence])
                try byCommand.execute(arguments: [key.clientID, key.commandID, key.sequence])
            }
            try through.execute(arguments: [game, part.sequence])
        }
    }

    /// As the checkpoint of `sequence` is put in force: every event up to it is filed if the
    /// checkpoint wrote every game that changed since the last one filed, which holds when the
    /// checkpoint in force so far is no newer than what is filed (or it writes every game).
    /// Otherwise a checkpoint this code did not file came between, and the rest is filed now.
    func fileKeys(completing sequence: Int64, complete: Bool, _ db: Database) throws {
        let filed = try Self.filedThrough(db)
        guard sequence > filed else { return }
        let inForce = try Int64.fetchOne(db, sql: "SELECT sequence FROM checkpoint")
        if !complete, inForce.map({ $0 > filed }) ?? true {
            try Self.fileAllKeys(after: filed, through: sequence, db)
        }
        try Self.setFiled(through: sequence, db)
        unfiledKeys.withLock { $0 = nil }
    }

    private static func unfiledKeys(after: Int64, through: Int64, _ db: Database) throws -> UnfiledKeys {
        var keys = UnfiledKeys(after: after, through: through, byGame: [:])
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT game_id, version, sequence, client_id, command_id FROM events
                WHERE sequence > ? AND sequence <= ? ORDER BY sequence
                """, arguments: [after, through])
        while let row = try rows.next() {
            keys.byGame[row[0], default: []].append(
                UnfiledKey(sequence: row[2], version: row[1], clientID: row[3], commandID: row[4]))
        }
        return keys
    }

    /// Files every event's keys in the span at once: what a migration does, and a checkpoint
    /// that follows one this code did not file.
    private static func fileAllKeys(after: Int64, through: Int64, _ db: Database) throws {
        let span: StatementArguments = [after, through]
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO event_keys_by_game (game_id, version, sequence)
                SELECT game_id, version, sequence FROM events WHERE sequence > ? AND sequence <= ? ORDER BY game_id, version
                """, arguments: span)
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO event_keys_by_command (client_id, command_id, sequence)
                SELECT client_id, command_id, sequence FROM events WHERE sequence > ? AND sequence <= ?
                ORDER BY client_id, command_id, sequence
                """, arguments: span)
    }

    private static func setFiled(through sequence: Int64, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO event_keys_filed (id, sequence) VALUES (0, ?)
                ON CONFLICT (id) DO UPDATE SET sequence = excluded.sequence
                """, arguments: [sequence])
    }

    /// Migration v5: `events` loses its two indexes (the table is rebuilt: SQLite cannot drop a
    /// UNIQUE constraint), and every event already there is filed.
    static func fileKeysSeparately(_ db: Database) throws {
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
                SELECT sequence, game_id, version, recorded_at, client_id, command_id, kind, payload FROM events ORDER BY sequence;
                DROP TABLE events;
                ALTER TABLE events_appended RENAME TO events;
                CREATE TRIGGER events_are_append_only_update BEFORE UPDATE ON events
                BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
                CREATE TRIGGER events_are_append_only_delete BEFORE DELETE ON events
                BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
                CREATE TABLE event_keys_by_game (
                    game_id TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    sequence INTEGER NOT NULL,
                    PRIMARY KEY (game_id, version)
                ) WITHOUT ROWID;
                CREATE TABLE event_keys_by_command (
                    client_id TEXT NOT NULL,
                    command_id TEXT NOT NULL,
                    sequence INTEGER NOT NULL,
                    PRIMARY KEY (client_id, command_id, sequence)
                ) WITHOUT ROWID;
                CREATE TABLE event_keys_through (
                    game_id TEXT PRIMARY KEY NOT NULL,
                    sequence INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE event_keys_filed (
                    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 0),
                    sequence INTEGER NOT NULL
                );
                """)
        let last = try Int64.fetchOne(db, sql: "SELECT MAX(sequence) FROM events") ?? 0
        try fileAllKeys(after: 0, through: last, db)
        try setFiled(through: last, db)
    }
}
