import Logging
import PostgresNIO

// The log's tables, made and upgraded as the SQLite log's migrator does: ordered steps, each
// applied once, in a transaction with the `schema_version` row that records it. An advisory lock
// keeps two daemons opening one database at once from applying a step twice.

extension PostgresEventLog {
    /// One step of the schema: its name, for the logs, and its statements, one per query (the
    /// extended protocol that postgres-nio speaks takes a single statement at a time).
    struct Migration {
        var name: String
        var statements: [String]
    }

    /// Every step, in order: a log's `schema_version` is how many of them it has.
    static let migrations: [Migration] = [
        Migration(
            name: "v1: events",
            statements: [
                """
                CREATE TABLE events (
                    sequence bigint PRIMARY KEY,
                    game_id text NOT NULL,
                    version bigint NOT NULL,
                    recorded_at bigint NOT NULL,
                    client_id text NOT NULL,
                    command_id text NOT NULL,
                    kind text NOT NULL,
                    payload bytea NOT NULL,
                    UNIQUE (game_id, version)
                )
                """,
                // A retry from beyond the retry window is told from a new command by a look-up here.
                "CREATE INDEX events_by_command ON events (client_id, command_id)",
                """
                CREATE FUNCTION courtside_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION '% is append-only', TG_TABLE_NAME; END $$
                """,
                // History is never rewritten: retractions are events of their own.
                """
                CREATE TRIGGER events_are_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON events
                FOR EACH STATEMENT EXECUTE FUNCTION courtside_append_only()
                """,
            ]),
        // Refusals have no version or sequence: they change no game. One per command and game,
        // in the order they were written.
        Migration(
            name: "v2: refusals",
            statements: [
                """
                CREATE TABLE refusals (
                    position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                    game_id text NOT NULL,
                    client_id text NOT NULL,
                    command_id text NOT NULL,
                    recorded_at bigint NOT NULL,
                    code text NOT NULL,
                    message text NOT NULL,
                    UNIQUE (game_id, client_id, command_id)
                )
                """,
                "CREATE INDEX refusals_by_command ON refusals (client_id, command_id)",
                """
                CREATE TRIGGER refusals_are_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON refusals
                FOR EACH STATEMENT EXECUTE FUNCTION courtside_append_only()
                """,
            ]),
        // Derived rows, never data: a checkpoint writes a row for each game changed since the
        // previous one, keyed by game and sequence, possibly over several transactions, then moves
        // the header row to its sequence; a reader takes each game's newest row no newer than it.
        Migration(
            name: "v3: checkpoints",
            statements: [
                """
                CREATE TABLE checkpoint_games (
                    game_id text NOT NULL,
                    sequence bigint NOT NULL,
                    state bytea NOT NULL,
                    PRIMARY KEY (game_id, sequence)
                )
                """,
                "CREATE INDEX checkpoint_games_by_sequence ON checkpoint_games (sequence)",
                """
                CREATE TABLE checkpoint (
                    id integer PRIMARY KEY CHECK (id = 0),
                    sequence bigint NOT NULL,
                    format integer NOT NULL,
                    games bigint NOT NULL
                )
                """,
            ]),
        // One row: which courtsided may commit (see `PostgresEventLog+Lease.swift`). Its term only
        // grows; its expiry is on the database's clock, so no daemon's clock decides who is active.
        Migration(
            name: "v4: lease",
            statements: [
                """
                CREATE TABLE lease (
                    id integer PRIMARY KEY CHECK (id = 0),
                    term bigint NOT NULL,
                    holder text NOT NULL,
                    endpoint text,
                    expires_at timestamptz NOT NULL
                )
                """,
                "INSERT INTO lease (id, term, holder, expires_at) VALUES (0, 0, '', '-infinity')",
            ]),
        // An append as one call: the lease's renewal (when a term is given), then the events and
        // the refusals, only if it renewed. A function, since its statements keep their plans for
        // the session, where a statement sent whole is parsed and planned at every commit (about a
        // tenth of a lone keeper's round trip: docs/FIGURES.md, "PostgreSQL").
        Migration(
            name: "v5: append function",
            statements: [
                """
                CREATE FUNCTION courtside_append(
                    lease_term bigint, lease_seconds double precision,
                    event_sequences bigint[], event_games text[], event_versions bigint[], event_times bigint[],
                    event_clients text[], event_commands text[], event_kinds text[], event_payloads bytea[],
                    refusal_games text[], refusal_clients text[], refusal_commands text[], refusal_times bigint[],
                    refusal_codes text[], refusal_messages text[]
                ) RETURNS boolean LANGUAGE plpgsql AS $$
                BEGIN
                    IF lease_term IS NOT NULL THEN
                        UPDATE lease SET expires_at = clock_timestamp() + make_interval(secs => lease_seconds)
                        WHERE id = 0 AND term = lease_term;
                        -- Another daemon took the lease: this one's commit writes nothing.
                        IF NOT FOUND THEN RETURN false; END IF;
                    END IF;
                    INSERT INTO events (sequence, game_id, version, recorded_at, client_id, command_id, kind, payload)
                    SELECT * FROM UNNEST(event_sequences, event_games, event_versions, event_times, event_clients,
                        event_commands, event_kinds, event_payloads);
                    -- In order; one already there (a retry's) is left as it was: a retry never fails a commit.
                    INSERT INTO refusals (game_id, client_id, command_id, recorded_at, code, message)
                    SELECT r.game_id, r.client_id, r.command_id, r.recorded_at, r.code, r.message
                    FROM UNNEST(refusal_games, refusal_clients, refusal_commands, refusal_times, refusal_codes,
                        refusal_messages) WITH ORDINALITY AS r (game_id, client_id, command_id, recorded_at, code, message, position)
                    ORDER BY r.position
                    ON CONFLICT DO NOTHING;
                    RETURN true;
                END $$
                """
            ]),
    ]

    /// Brings the database's schema up to ``migrations``, on `connection`; returns the version it found.
    @discardableResult
    static func migrate(_ connection: LogConnection, logger: Logger) throws -> Int {
        try transaction(on: connection, logger: logger) {
            // Any fixed number: every courtsided that opens this database takes the same lock.
            try run("SELECT pg_advisory_xact_lock(7320032)", on: connection, logger: logger)
            try run("CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)", on: connection, logger: logger)
            let found = try connection.query("SELECT version FROM schema_version", logger: logger).wait()
                .first.map { try $0.decode(Int.self) }
            let version = found ?? 0
            if found == nil { try run("INSERT INTO schema_version (version) VALUES (0)", on: connection, logger: logger) }
            guard version <= migrations.count else {
                throw PostgresEventLogError(
                    .newerSchema,
                    "the log's schema is version \(version); this courtsided knows \(migrations.count): it is older than the log")
            }
            for (index, migration) in migrations.enumerated().dropFirst(version) {
                logger.info("migrating the event log", metadata: ["postgres_log.migration": "\(migration.name)"])
                for statement in migration.statements { try run(statement, on: connection, logger: logger) }
                _ = try connection.query("UPDATE schema_version SET version = \(index + 1)", logger: logger).wait()
            }
            return version
        }
    }

    /// Runs one statement whose rows, if any, are not wanted.
    static func run(_ sql: String, on connection: LogConnection, logger: Logger) throws {
        _ = try connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).wait()
    }

    /// Runs `body` between BEGIN and COMMIT on `connection`, rolling back when it throws.
    static func transaction<T>(on connection: LogConnection, logger: Logger, _ body: () throws -> T) throws -> T {
        try run("BEGIN", on: connection, logger: logger)
        do {
            let result = try body()
            try run("COMMIT", on: connection, logger: logger)
            return result
        } catch {
            // The server may have ended the transaction already (a broken connection, say).
            try? run("ROLLBACK", on: connection, logger: logger)
            throw error
        }
    }
}
