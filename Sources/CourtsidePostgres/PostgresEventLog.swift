public import CourtsideModel
public import CourtsideStorage
import Foundation
public import Logging
import PostgresNIO
import Synchronization

/// The ``EventLog`` in a PostgreSQL database, beside the embedded SQLite one: the same events,
/// refusals and look-ups, through postgres-nio.
///
/// `events` and `refusals` are append-only, as in the SQLite log: triggers refuse every UPDATE,
/// DELETE and TRUNCATE. An ``append(_:refusals:)`` is one transaction: the events in one batch
/// insert (arrays unnested), the refusals in another that keeps the first of each (a retry must
/// never fail a commit). PostgreSQL's own `synchronous_commit` makes it durable when it returns.
///
/// Checkpoints are kept in the same database, written through a connection of their own (see
/// `PostgresEventLog+Checkpoints.swift`).
///
/// The protocol's calls are synchronous, and the game library makes them from threads of its
/// own, never from Swift's cooperative pool: so they block on postgres-nio's futures, which its
/// event loop threads fulfil. Do not call them from an event loop. Appends go through one
/// connection, one at a time; reads through a second one, so that they never wait for a commit.
public final class PostgresEventLog: EventLog {
    struct Connections {
        var writer: LogConnection
        var reader: LogConnection
        /// The checkpoints' own: a part never waits for a commit, nor a commit for a part.
        var checkpoints: LogConnection
    }

    private enum State {
        case open(Connections)
        case closed
    }

    private let state: Mutex<State>
    /// Held for a whole append: one transaction at a time on the writer's connection.
    let appending = Mutex(())
    /// Held while a checkpoint is written or read, on the checkpoints' connection.
    let checkpointing = Mutex(())
    /// The lease, when this log's daemon runs among several (see `PostgresEventLog+Lease.swift`):
    /// here, since every commit renews it and reports to it.
    let lease = Mutex(LeaseStateMachine.standalone)
    /// The lease's keeping, while ``keepLease(reporting:)`` keeps it.
    let keeping = Mutex(LeaseKeepingState())
    /// Where the keeper runs: an event loop thread of postgres-nio's, never Swift's cooperative
    /// pool, which a busy daemon (or a test blocking it) may hold for longer than a lease.
    let keeperLoop = PostgresConnection.defaultEventLoopGroup.any()
    let logger: Logger
    /// How many events a long read fetches at a time: a replay of millions never holds every
    /// row the server sent beside every event decoded from them.
    private let pageSize: Int

    /// Connects to the first of `configuration`'s hosts that answers, and brings the schema up
    /// to date. Blocks until then: call it from a thread of the caller's, not the cooperative pool.
    ///
    /// `answerWithin` bounds the wait for each connection and for each statement of the opening
    /// (a standby's, which must not hang on a server gone silent); nil waits as long as the
    /// server and postgres-nio take. Once open, statements wait as long as the server takes: a
    /// commit may wait for a synchronous standby, and a standby's taking of the lease too.
    public convenience init(configuration: PostgresLogConfiguration, logger: Logger, answerWithin: Duration? = nil) throws {
        try self.init(configuration: configuration, logger: logger, pageSize: 10_000, answerWithin: answerWithin)
    }

    /// ``init(configuration:logger:answerWithin:)`` reading the log in pages of `pageSize` events (tests page by a few).
    package init(configuration: PostgresLogConfiguration, logger: Logger, pageSize: Int, answerWithin: Duration? = nil)
        throws
    {
        self.logger = logger
        self.pageSize = max(1, pageSize)
        var opened: [LogConnection] = []
        do {
            opened.append(try Self.connect(configuration, logger: logger, answerWithin: answerWithin))
            try PostgresEventLogError.server("preparing the writer") {
                // An acknowledged move must survive: whatever the server's or the database's
                // default, the writer's commits wait for the WAL's flush (and for synchronous
                // standbys, where there are any).
                try Self.run("SET synchronous_commit = on", on: opened[0], logger: logger)
                // Never cancelled: a commit cancelled while it waits for a synchronous standby is
                // reported committed, with only a notice that postgres-nio drops.
                try Self.run("SET statement_timeout = 0", on: opened[0], logger: logger)
                try Self.migrate(opened[0], logger: logger)
            }
            opened.append(try Self.connect(configuration, logger: logger, answerWithin: answerWithin))
            opened.append(try Self.connect(configuration, logger: logger, answerWithin: answerWithin))
            for connection in opened { connection.answerWithin(nil) }
            state = Mutex(.open(Connections(writer: opened[0], reader: opened[1], checkpoints: opened[2])))
        } catch {
            for connection in opened { try? connection.close().wait() }
            throw error
        }
    }

    private static func connect(_ configuration: PostgresLogConfiguration, logger: Logger, answerWithin: Duration?) throws
        -> LogConnection
    {
        let password = try configuration.password()
        let tls: PostgresConnection.Configuration.TLS
        switch configuration.tls {
        case .disable: tls = .disable
        case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        var failures: [String] = []
        var standbys: [String] = []
        for (index, host) in configuration.hosts.enumerated() {
            var connection = PostgresConnection.Configuration(
                host: host.host, port: host.port, username: configuration.user, password: password,
                database: configuration.database, tls: tls)
            // pg_stat_activity then says which daemon each session is.
            connection.options.additionalStartupParameters = [("application_name", Self.applicationName)]
            // postgres-nio's timeout covers the whole start-up, not only TCP's connect.
            if let answerWithin { connection.options.connectTimeout = .nanoseconds(answerWithin.nanoseconds) }
            do {
                let connection = LogConnection(
                    try PostgresConnection.connect(
                        on: PostgresConnection.defaultEventLoopGroup.any(), configuration: connection, id: index, logger: logger
                    ).wait(), answerWithin: answerWithin)
                // postgres-nio has no multi-host connection string: the primary is the one not
                // replaying another's WAL. After a promotion it is another host of the list.
                let inRecovery = try connection.query("SELECT pg_is_in_recovery()", logger: logger).wait().first?
                    .decode(Bool.self)
                if inRecovery == false { return connection }
                try? connection.close().wait()
                standbys.append("\(host.host):\(host.port)")
            } catch {
                logger.warning(
                    "an event log server did not answer",
                    metadata: ["postgres_log.host": "\(host.host):\(host.port)", "error": "\(String(reflecting: error))"])
                failures.append("\(host.host):\(host.port): \(String(reflecting: error))")
            }
        }
        if !standbys.isEmpty {
            throw PostgresEventLogError(
                .noPrimary,
                "no server of the event log takes writes: \(standbys.joined(separator: ", ")) \(standbys.count == 1 ? "is a standby" : "are standbys") (in recovery)"
                    + (failures.isEmpty ? "" : "; \(failures.joined(separator: "; "))"))
        }
        throw PostgresEventLogError(
            .noHost,
            "no server of the event log answered: \(failures.isEmpty ? "none configured" : failures.joined(separator: "; "))")
    }

    /// The name this process's sessions carry in `pg_stat_activity`: `courtsided[PID]`.
    public static let applicationName = "courtsided[\(ProcessInfo.processInfo.processIdentifier)]"

    func connections() throws -> Connections {
        try state.withLock { state in
            guard case .open(let connections) = state else {
                throw PostgresEventLogError(.closed, "the event log is closed")
            }
            return connections
        }
    }

    private func rows(_ query: PostgresQuery) throws -> PostgresQueryResult {
        let reader = try connections().reader
        return try PostgresEventLogError.server("reading") { try reader.query(query, logger: logger).wait() }
    }

    private func rows(_ query: PostgresQuery) async throws -> PostgresQueryResult {
        let result: EventLoopFuture<PostgresQueryResult> = try connections().reader.query(query, logger: logger)
        return try await PostgresEventLogError.server("reading") { try await result.get() }
    }

    /// The writer connection's `synchronous_commit` (`on` is what the log sets).
    public func synchronousCommit() throws -> String {
        let writer = try connections().writer
        return try appending.withLock { _ in
            try PostgresEventLogError.server("reading synchronous_commit") {
                try writer.query("SHOW synchronous_commit", logger: logger).wait().first?.decode(String.self) ?? ""
            }
        }
    }

    // MARK: - Writing

    public func append(_ events: [GameEvent], refusals: [CommandRefusal]) throws {
        guard !events.isEmpty || !refusals.isEmpty else { return }
        let lease = try leaseTerm()
        let call = Self.append(events, refusals, lease: lease)
        try appending.withLock { _ in
            let writer = try connections().writer
            let sent = ContinuousClock.now
            let renewed = try PostgresEventLogError.server("appending") {
                try Self.durably(call, on: writer, logger: logger).wait().first?.decode(Bool.self)
            }
            guard lease != nil else { return }
            // A renewal that matched no row inserted nothing either: the term has moved on.
            guard renewed == true else { throw fenced() }
            noteRenewed(sent: sent)
        }
    }

    /// Runs `statement` on its own (its own transaction) and answers once it is durable.
    ///
    /// The statement and this wait are two round trips, where BEGIN, each insert and COMMIT took
    /// one each. A statement outside BEGIN commits only when the server reads the Sync that
    /// postgres-nio sends with it, *after* it has answered the statement, and postgres-nio hands
    /// that answer over at once: so a `SELECT 1` follows, chained on the connection's own thread, and the server answers it only once that
    /// commit is flushed (and on the synchronous standbys). Only then may anything be acknowledged.
    static func durably(_ statement: PostgresQuery, on connection: LogConnection, logger: Logger)
        -> EventLoopFuture<PostgresQueryResult>
    {
        connection.query(statement, logger: logger).flatMap { result in
            connection.query("SELECT 1", logger: logger).map { _ in result }
        }
    }

    /// The call of an append (migration v5's `courtside_append`): the lease's renewal when one
    /// is held, then the events and the refusals, only if it renewed; it answers whether it did.
    /// Events and refusals go as arrays, one per column, unnested into rows.
    static func append(_ events: [GameEvent], _ refusals: [CommandRefusal], lease: (term: Int64, seconds: Double)?)
        -> PostgresQuery
    {
        // The model's own JSON writer, as the SQLite log writes its payloads: the same bytes.
        var writer = JSONWriter(capacity: 256)
        let payloads = events.map { event in
            writer.reset()
            event.kind.writeJSON(to: &writer)
            return writer.withBytes { ByteBuffer(bytes: $0) }
        }
        return """
            SELECT courtside_append(\(lease?.term)::bigint, \(lease?.seconds)::double precision,
                \(events.map(\.sequence))::bigint[], \(events.map(\.gameID.rawValue))::text[], \(events.map(\.version))::bigint[],
                \(events.map(\.at.rawValue))::bigint[], \(events.map(\.origin.clientID))::text[],
                \(events.map(\.origin.commandID))::text[], \(events.map(\.kind.typeName))::text[], \(payloads)::bytea[],
                \(refusals.map(\.gameID.rawValue))::text[], \(refusals.map(\.origin.clientID))::text[],
                \(refusals.map(\.origin.commandID))::text[], \(refusals.map(\.at.rawValue))::bigint[],
                \(refusals.map(\.error.code.rawValue))::text[], \(refusals.map(\.error.message))::text[])
            """
    }

    public func close() throws {
        let connections = try state.withLock { state in
            guard case .open(let connections) = state else {
                throw PostgresEventLogError(.closed, "the event log is closed")
            }
            state = .closed
            return connections
        }
        // An append in flight finishes first: closing waits for the writer. A lease still held
        // is handed back, so that a standby takes over at once rather than when it runs out.
        try appending.withLock { _ in
            releaseLease(on: connections.writer)
            try connections.writer.close().wait()
        }
        try connections.reader.close().wait()
        try checkpointing.withLock { _ in try connections.checkpoints.close().wait() }
    }

    // MARK: - Reading

    private static let eventColumns = "sequence, game_id, version, recorded_at, client_id, command_id, payload"

    private static func events(_ result: PostgresQueryResult) throws -> [GameEvent] {
        let decoder = EventPayloadDecoder()
        return try result.map { row in
            let (sequence, game, version, at, client, command, payload) = try row.decode(
                (Int64, String, Int, Int64, String, String, ByteBuffer).self)
            let kind = try payload.withUnsafeReadableBytes { try decoder.decode($0) }
            return GameEvent(
                gameID: GameID(game), version: version, sequence: sequence, at: Timestamp(milliseconds: at),
                origin: CommandOrigin(clientID: client, commandID: command), kind: kind)
        }
    }

    public func readAll() throws -> [GameEvent] {
        try readEvents(after: 0)
    }

    public func readEvents(after sequence: Int64) throws -> [GameEvent] {
        let nextPage = try pages(after: sequence, columns: Self.eventColumns)
        var events: [GameEvent] = []
        while let page = try nextPage() { events += try Self.events(page) }
        return events
    }

    /// The events after `after`, up to the last one committed now (a commit has every sequence
    /// before its own), a page of ``pageSize`` at each call, nil once all are read: each page a
    /// range of the primary key. `columns` must begin with `sequence`.
    private func pages(after: Int64, columns: String) throws -> () throws -> PostgresQueryResult? {
        let last = try rows("SELECT COALESCE(MAX(sequence), 0)::bigint FROM events").first?.decode(Int64.self) ?? 0
        var after = after
        return { [self] in
            guard after < last else { return nil }
            var query = PostgresQuery(
                unsafeSQL: "SELECT \(columns) FROM events WHERE sequence > $1 AND sequence <= $2 ORDER BY sequence LIMIT $3")
            query.binds.append(after)
            query.binds.append(last)
            query.binds.append(pageSize)
            let page = try rows(query)
            guard !page.isEmpty, let final = page[page.index(page.startIndex, offsetBy: page.count - 1)].first else {
                return nil
            }
            after = try final.decode(Int64.self)
            return page
        }
    }

    public func readEvents(ofGame game: GameID) throws -> [GameEvent] {
        try Self.events(rows(Self.events(ofGame: game)))
    }

    public func events(ofGame game: GameID) async throws -> [GameEvent] {
        try Self.events(await rows(Self.events(ofGame: game)))
    }

    private static func events(ofGame game: GameID) -> PostgresQuery {
        var query = PostgresQuery(unsafeSQL: "SELECT \(eventColumns) FROM events WHERE game_id = $1 ORDER BY version")
        query.binds.append(game.rawValue)
        return query
    }

    public func contains(_ origin: CommandOrigin) async throws -> Bool {
        let result = try await rows(
            """
            SELECT EXISTS (SELECT 1 FROM events WHERE client_id = \(origin.clientID) AND command_id = \(origin.commandID))
                OR EXISTS (SELECT 1 FROM refusals WHERE client_id = \(origin.clientID) AND command_id = \(origin.commandID))
            """)
        return try result.first?.decode(Bool.self) ?? false
    }

    public func readRefusals() throws -> [CommandRefusal] {
        try rows("SELECT game_id, client_id, command_id, recorded_at, code, message FROM refusals ORDER BY position").map { row in
            let (game, client, command, at, code, message) = try row.decode((String, String, String, Int64, String, String).self)
            return CommandRefusal(
                gameID: GameID(game), origin: CommandOrigin(clientID: client, commandID: command),
                at: Timestamp(milliseconds: at), error: CourtsideError(CourtsideError.Code(rawValue: code), message))
        }
    }

    public func forEachAnswer(_ body: (LoggedAnswer) throws -> Void) throws {
        let refusals = try readRefusals()
        // Only the columns that answer a retry: the payloads, most of each row, stay unread.
        let nextPage = try pages(after: 0, columns: "sequence, game_id, version, recorded_at, client_id, command_id")
        var page: [LoggedAnswer] = []
        var index = 0
        let next = { () throws -> LoggedAnswer? in
            while index == page.count {
                guard let rows = try nextPage() else { return nil }
                page = try rows.map { row in
                    let (sequence, game, version, at, client, command) = try row.decode(
                        (Int64, String, Int, Int64, String, String).self)
                    return LoggedAnswer(
                        origin: CommandOrigin(clientID: client, commandID: command), at: Timestamp(milliseconds: at),
                        outcome: .event(game: GameID(game), version: version, sequence: sequence))
                }
                index = 0
            }
            defer { index += 1 }
            return page[index]
        }
        try LoggedAnswer.merge(nextEvent: next, refusals: refusals, body)
    }
}
