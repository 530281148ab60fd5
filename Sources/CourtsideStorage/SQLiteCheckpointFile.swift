import CourtsideModel
import Foundation
import GRDB

/// The checkpoints of a ``SQLiteEventLog``: a SQLite database of their own, beside the log's.
///
/// Not in the log's file: each part written there went through the log's WAL, about 50 KB,
/// and brought SQLite's automatic checkpoint of that WAL (about 6 ms, holding the log's write
/// lock) every 75 or so parts; every move that met one waited for it. Here the parts take no
/// lock a commit needs, and this file's own WAL is copied back by whoever writes the parts.
///
/// `synchronous=NORMAL`: a part need not survive a power loss (losing the last ones costs a
/// longer replay, never data), so none waits for an fsync; WAL mode keeps the file consistent
/// whatever happens, so the checkpoint in force after a crash is a whole one.
///
/// Its WAL holds one checkpoint's parts (4.4 MB for 10,000 games), copied back once, when the
/// checkpoint is complete. SQLite's own copies wait for 10,000 pages (40 MB, a bound in case
/// that copy keeps failing), not its default 1,000: each copy holds the lock a commit needs, so
/// copies every 1,000 pages, even without an fsync, multiply a lone keeper's p99 while a
/// checkpoint is written (docs/FIGURES.md, "The SQLite log").
///
/// Each checkpoint carries the identity of the log it was taken from: a checkpoint file beside
/// another log (one deleted and started again, say) is never read as that log's.
final class SQLiteCheckpointFile: Sendable {
    private let queue: DatabaseQueue
    /// Why the file found at the start was damaged, when it had to be made again.
    let resetBecause: String?

    /// Opens the file at `path`, or makes it again when it is damaged (not a database, or
    /// corrupt): it holds only what the log can rebuild, and a damaged one must not keep the log
    /// from opening. Any other error (no space, no permission) is thrown, as the log's own would be.
    init(path: String) throws {
        do {
            queue = try Self.open(path)
            resetBecause = nil
        } catch let error as DatabaseError where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            queue = try Self.open(path)
            resetBecause = "\(error)"
        }
    }

    private static func open(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.label = "courtside.checkpoints"
        configuration.journalMode = .wal
        // Only a reader from outside (sqlite3, a probe) ever holds it up.
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            // A new file's pages (the size of an existing one stays): a game's state, 2 to 3 KB
            // at a few hundred plays, spills from a 4 KB page into overflow pages, and each page
            // is a frame written to the WAL and copied back. In Python's sqlite3, a checkpoint of
            // 1,000 such states cost 14 ms of CPU with 4 KB pages, 9.4 with 16 KB, 10.6 with 64 KB.
            try db.execute(sql: "PRAGMA page_size = 16384")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 10000")
            // A part writes each game's row once and a start reads them once: beyond the index's
            // upper pages, pages kept for reuse would only cost RSS (SQLite's default is 2 MB).
            try db.execute(sql: "PRAGMA cache_size = -512")
        }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try migrator.migrate(queue)
        return queue
    }

    /// The sequence of the checkpoint in force, if one taken from the log `logID` is.
    func sequence(logID: String) throws -> Int64? {
        try queue.read { db in
            try Int64.fetchOne(db, sql: "SELECT sequence FROM checkpoint WHERE log_id = ?", arguments: [logID])
        }
    }

    /// The checkpoint in force, taken from the log `logID`: its sequence and its games, checked
    /// against its own header.
    func read(logID: String) throws -> (sequence: Int64, games: [Game])? {
        try queue.read { db in
            guard let header = try Row.fetchOne(db, sql: "SELECT sequence, format, games, log_id FROM checkpoint") else {
                return nil
            }
            let sequence: Int64 = header[0]
            let format: Int = header[1]
            let count: Int = header[2]
            guard format == CheckpointCoding.format else {
                throw CheckpointError("the checkpoint's format is \(format); this build reads \(CheckpointCoding.format)")
            }
            guard header[3] as String == logID else {
                throw CheckpointError("the checkpoint was taken from another event log (\(header[3] as String), not \(logID))")
            }
            var states = CheckpointStates(expected: count)
            // Each game's newest row as of the checkpoint (SQLite takes the bare column from the
            // row with the maximum); rows of a checkpoint still being written are newer, and left out.
            let rows = try Row.fetchCursor(
                db,
                sql: "SELECT game_id, MAX(sequence), state FROM checkpoint_games WHERE sequence <= ? GROUP BY game_id",
                arguments: [sequence])
            while let row = try rows.next() {
                let id: String = row[0]
                // The blob is copied from SQLite's page in place, without a `Data` of its own.
                let found = try row.withUnsafeData(atIndex: 2) { state in
                    state.map { data in data.withUnsafeBytes { states.append(id: id, state: $0) } } != nil
                }
                guard found else { throw CheckpointError("game \(id) has no state") }
            }
            let games = try states.decoded()
            guard games.count == count else {
                throw CheckpointError("the checkpoint holds \(games.count) games; it should hold \(count)")
            }
            return (sequence, games)
        }
    }

    /// Writes `part`, of a checkpoint of the log `logID`, in a transaction of its own; the last
    /// part of a checkpoint then copies the WAL into the file, and empties it.
    func write(_ part: CheckpointPart, logID: String) throws {
        try queue.write { db in
            if part.first && part.complete {
                try db.execute(sql: "DELETE FROM checkpoint_games WHERE sequence >= ?", arguments: [part.sequence])
            }
            let insert = try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO checkpoint_games (game_id, sequence, state) VALUES (?, ?, ?)")
            // A game's rows older than the one in force are dropped as its new one is written: a
            // game keeps at most the row in force and the new one, and putting a checkpoint in
            // force deletes nothing (thousands of rows at once would make that part a long one).
            let dropSuperseded = try db.cachedStatement(
                sql: """
                    DELETE FROM checkpoint_games WHERE game_id = ?1 AND sequence < (
                        SELECT MAX(sequence) FROM checkpoint_games
                        WHERE game_id = ?1 AND sequence <= (SELECT sequence FROM checkpoint))
                    """)
            for state in part.states {
                try insert.execute(arguments: [state.game.rawValue, part.sequence, Data(state.bytes)])
                try dropSuperseded.execute(arguments: [state.game.rawValue])
            }
            if let gameCount = part.completion {
                try db.execute(
                    sql: """
                        INSERT INTO checkpoint (id, sequence, format, games, log_id) VALUES (0, ?, ?, ?, ?)
                        ON CONFLICT (id) DO UPDATE SET sequence = excluded.sequence, format = excluded.format,
                            games = excluded.games, log_id = excluded.log_id
                        """, arguments: [part.sequence, CheckpointCoding.format, gameCount, logID])
                // One of every game also drops every other row.
                if part.complete {
                    try db.execute(sql: "DELETE FROM checkpoint_games WHERE sequence <> ?", arguments: [part.sequence])
                }
            }
        }
        if part.completion != nil {
            // The checkpoint is in force already: a copy that fails (an outside reader holding the
            // WAL past the busy timeout) leaves the WAL for the next checkpoint's copy.
            _ = try? queue.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        }
    }

    func close() throws {
        try queue.close()
    }

    // A checkpoint writes a row for each game changed since the previous one, keyed by game and
    // sequence, possibly over several transactions, then moves the header row to its sequence;
    // until then the previous checkpoint stays whole, and a reader takes each game's newest row
    // no newer than the header.
    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: checkpoints") { db in
            try db.execute(
                sql: """
                    CREATE TABLE checkpoint_games (
                        game_id TEXT NOT NULL,
                        sequence INTEGER NOT NULL,
                        state BLOB NOT NULL,
                        PRIMARY KEY (game_id, sequence)
                    );
                    CREATE INDEX checkpoint_games_by_sequence ON checkpoint_games (sequence);
                    CREATE TABLE checkpoint (
                        id INTEGER PRIMARY KEY NOT NULL CHECK (id = 0),
                        sequence INTEGER NOT NULL,
                        format INTEGER NOT NULL,
                        games INTEGER NOT NULL,
                        log_id TEXT NOT NULL
                    );
                    """)
        }
        return migrator
    }
}
