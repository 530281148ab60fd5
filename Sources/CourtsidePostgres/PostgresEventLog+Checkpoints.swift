import CourtsideModel
public import CourtsideStorage
import PostgresNIO

// Checkpoints as the SQLite log keeps them in its checkpoint file (`SQLiteCheckpointFile`), in
// the log's own database: the tables of migration v3, written on a connection of their own so
// that parts and commits never wait for each other. Each part's transaction sets
// synchronous_commit off: a lost part costs a longer replay, never data, so none waits for the
// server's fsync. Being in the log's database, a checkpoint cannot be another log's.

extension PostgresEventLog {
    /// The checkpoint in force, checked against the log: the log must hold its sequence's
    /// event, and that event's game must be at that event's version in it.
    public func readCheckpoint() throws -> Checkpoint? {
        let connection = try connections().checkpoints
        return try checkpointing.withLock { _ in
            try PostgresEventLogError.server("reading the checkpoint") {
                try Self.transaction(on: connection, logger: logger) {
                    try Self.readCheckpoint(on: connection, logger: logger)
                }
            }
        }
    }

    private static func readCheckpoint(on connection: LogConnection, logger: Logger) throws -> Checkpoint? {
        guard
            let header = try connection.query("SELECT sequence, format, games FROM checkpoint", logger: logger).wait().first
        else { return nil }
        let (sequence, format, count) = try header.decode((Int64, Int, Int).self)
        guard format == CheckpointCoding.format else {
            throw CheckpointError("the checkpoint's format is \(format); this build reads \(CheckpointCoding.format)")
        }
        // Each game's newest row as of the checkpoint; rows of one still being written are newer.
        let rows = try connection.query(
            """
            SELECT DISTINCT ON (game_id) game_id, state FROM checkpoint_games WHERE sequence <= \(sequence)
            ORDER BY game_id, sequence DESC
            """, logger: logger
        ).wait()
        var games: [Game] = []
        games.reserveCapacity(count)
        for row in rows {
            let (id, state) = try row.decode((String, ByteBuffer).self)
            let game = try state.withUnsafeReadableBytes { bytes throws(CheckpointError) in try CheckpointCoding.decode(bytes) }
            guard game.id == GameID(id) else { throw CheckpointError("the state of game \(id) is game \(game.id)'s") }
            games.append(game)
        }
        guard games.count == count else {
            throw CheckpointError("the checkpoint holds \(games.count) games; it should hold \(count)")
        }
        guard
            let event = try connection.query(
                "SELECT recorded_at, game_id, version FROM events WHERE sequence = \(sequence)", logger: logger
            ).wait().first
        else { throw CheckpointError("the checkpoint is of sequence \(sequence), which the log does not hold") }
        let (at, game, version) = try event.decode((Int64, String, Int).self)
        guard let held = games.first(where: { $0.id == GameID(game) }), held.version == version else {
            throw CheckpointError("event \(sequence) made game \(game) version \(version); the checkpoint does not have it so")
        }
        return Checkpoint(sequence: sequence, at: Timestamp(milliseconds: at), games: games)
    }

    /// Writes `part` in a transaction of its own, on the checkpoints' connection: it may be
    /// called from another thread than the appends, and never waits for them, nor they for it.
    public func writeCheckpoint(_ part: CheckpointPart) throws {
        // Among several daemons, only the active one: one that stepped down could otherwise
        // drop the rows of the newer one's checkpoint (derived rows: a loss costs a longer replay).
        guard holdsLease else { throw PostgresEventLogError(.fenced, "not writing a checkpoint: this courtsided holds no lease") }
        let connection = try connections().checkpoints
        try checkpointing.withLock { _ in
            try PostgresEventLogError.server("writing a checkpoint") {
                try Self.transaction(on: connection, logger: logger) {
                    try Self.write(part, on: connection, logger: logger)
                }
            }
        }
    }

    private static func write(_ part: CheckpointPart, on connection: LogConnection, logger: Logger) throws {
        try run("SET LOCAL synchronous_commit = off", on: connection, logger: logger)
        if part.first && part.complete {
            _ = try connection.query("DELETE FROM checkpoint_games WHERE sequence >= \(part.sequence)", logger: logger).wait()
        }
        if !part.states.isEmpty {
            let games = part.states.map(\.game.rawValue)
            let states = part.states.map { ByteBuffer(bytes: $0.bytes) }
            _ = try connection.query(
                """
                INSERT INTO checkpoint_games (game_id, sequence, state)
                SELECT game_id, \(part.sequence), state FROM UNNEST(\(games)::text[], \(states)::bytea[]) AS s (game_id, state)
                ON CONFLICT (game_id, sequence) DO UPDATE SET state = excluded.state
                """, logger: logger
            ).wait()
            // A game's rows older than the one in force go as its new one is written: a game keeps
            // at most the row in force and the new one, and putting a checkpoint in force deletes
            // nothing (thousands of rows at once would make that part a long one).
            _ = try connection.query(
                """
                DELETE FROM checkpoint_games c WHERE c.game_id = ANY(\(games)::text[]) AND c.sequence < (
                    SELECT MAX(d.sequence) FROM checkpoint_games d
                    WHERE d.game_id = c.game_id AND d.sequence <= (SELECT sequence FROM checkpoint))
                """, logger: logger
            ).wait()
        }
        if let gameCount = part.completion {
            _ = try connection.query(
                """
                INSERT INTO checkpoint (id, sequence, format, games) VALUES (0, \(part.sequence), \(CheckpointCoding.format), \(gameCount))
                ON CONFLICT (id) DO UPDATE SET sequence = excluded.sequence, format = excluded.format, games = excluded.games
                """, logger: logger
            ).wait()
            // One of every game also drops every other row.
            if part.complete {
                _ = try connection.query("DELETE FROM checkpoint_games WHERE sequence <> \(part.sequence)", logger: logger).wait()
            }
        }
    }
}
