import CourtsideModel
import CourtsidePostgres
import Foundation
import Logging
import PostgresNIO

/// PostgreSQL's own synchronous commit on this machine: one row of a tiny table at a time,
/// through postgres-nio from one thread that waits on each future, as the event log's writer
/// does, with `synchronous_commit = on` as the log sets it. The least a commit of the
/// PostgreSQL log can cost here: issue 32 reads the daemon's round trip against it plus a raw
/// libzmq round trip.
struct PostgresCommitLimit {
    /// Autocommit INSERTs of one row, in microseconds, sorted: the limit.
    var autocommit: [Double]
    /// BEGIN, the same INSERT, COMMIT, in microseconds, sorted: the log's shape of commit (which
    /// renews its lease inside as well), two more round trips to the server.
    var transaction: [Double]
    /// A lease's renewal and the INSERT in one autocommit statement (the INSERT selects from the
    /// renewal's RETURNING, so a fenced holder inserts nothing), in microseconds, sorted: what a
    /// commit of the log could cost in one round trip, beside its four (BEGIN, renewal, INSERT,
    /// COMMIT).
    var renewAndInsert: [Double]
    /// The log's own append of one event (`PostgresEventLog.append`, holding a lease, so that
    /// the renewal is in each commit as in the daemon's), in microseconds, sorted: between the
    /// limit and the daemon's round trip, it tells the log's share from the daemon's.
    var logAppend: [Double]

    var p50: Double { percentile(autocommit, 0.5) }
    var p99: Double { percentile(autocommit, 0.99) }

    /// Times `commits` commits of each kind, after 10 unmeasured ones, in `database` (an empty one
    /// of its own: the log's tables and lease are made there).
    static func measure(_ database: PostgresLogConfiguration, commits: Int = 300) throws -> PostgresCommitLimit {
        // Quiet: the probe's log says it migrates, among the bench's lines.
        var logger = Logger(label: "courtside-bench")
        logger.logLevel = .warning
        let host = database.hosts[0]
        let connection = try PostgresConnection.connect(
            on: PostgresConnection.defaultEventLoopGroup.any(),
            configuration: .init(
                host: host.host, port: host.port, username: database.user, password: nil, database: database.database,
                tls: .disable),
            id: 0, logger: logger
        ).wait()
        defer { try? connection.close().wait() }
        func run(_ query: PostgresQuery) throws { _ = try connection.query(query, logger: logger).wait() }
        func setting(_ name: String) throws -> String {
            try connection.query(PostgresQuery(unsafeSQL: "SHOW \(name)"), logger: logger).wait().first?.decode(String.self)
                ?? ""
        }
        try run("SET synchronous_commit = on")
        let (synchronous, fsync) = (try setting("synchronous_commit"), try setting("fsync"))
        guard synchronous == "on", fsync == "on" else {
            throw BenchError("the probe's server has synchronous_commit \(synchronous), fsync \(fsync); expected on, on")
        }
        try run("CREATE TABLE commit_probe (id bigint PRIMARY KEY, payload bytea NOT NULL)")
        try run("CREATE TABLE probe_lease (id int PRIMARY KEY, term bigint NOT NULL, expires_at timestamptz NOT NULL)")
        try run("INSERT INTO probe_lease VALUES (0, 1, clock_timestamp() + interval '1 minute')")
        defer { try? run("DROP TABLE commit_probe, probe_lease") }
        let payload = ByteBuffer(repeating: UInt8(ascii: "x"), count: MachineLimits.recordSize)
        var id = 0
        func insert() throws {
            id += 1
            try run("INSERT INTO commit_probe (id, payload) VALUES (\(id), \(payload))")
        }
        func timed(_ commit: () throws -> Void) throws -> [Double] {
            for _ in 0..<10 { try commit() }
            return try (0..<commits).map { _ in
                let start = ContinuousClock.now
                try commit()
                return (ContinuousClock.now - start).inSeconds * 1e6
            }.sorted()
        }
        let autocommit = try timed(insert)
        let transaction = try timed {
            try run("BEGIN")
            try insert()
            try run("COMMIT")
        }
        let renewAndInsert = try timed {
            id += 1
            try run(
                """
                WITH renewed AS (UPDATE probe_lease SET expires_at = clock_timestamp() + interval '2 seconds'
                    WHERE id = 0 AND term = 1 RETURNING term)
                INSERT INTO commit_probe (id, payload) SELECT \(id), \(payload) FROM renewed
                """)
        }
        return PostgresCommitLimit(
            autocommit: autocommit, transaction: transaction, renewAndInsert: renewAndInsert,
            logAppend: try logAppends(database, logger: logger, timed: timed))
    }

    /// Appends of one rebound each through the log, holding a lease (a minute long: no renewal
    /// thread runs, the commits' own renewals keep it).
    private static func logAppends(
        _ database: PostgresLogConfiguration, logger: Logger, timed: (() throws -> Void) throws -> [Double]
    ) throws -> [Double] {
        let log = try PostgresEventLog(configuration: database, logger: logger)
        defer { try? log.close() }
        guard case .acquired = try log.acquireLease(LeaseClaim(holder: "bench", endpoint: nil, duration: .seconds(60))) else {
            throw BenchError("the probe's log could not take its lease")
        }
        var sequence: Int64 = 0
        return try timed {
            sequence += 1
            let event = GameEvent(
                gameID: GameID("g0"), version: Int(sequence), sequence: sequence, at: Timestamp(milliseconds: 1_800_000_000_000),
                origin: CommandOrigin(clientID: "bench", commandID: "\(sequence)"),
                kind: .move(player: PlayerID("p0"), move: .rebound))
            try log.append([event], refusals: [])
        }
    }

    func report() {
        func figures(_ sorted: [Double]) -> String {
            "p50 \(format(percentile(sorted, 0.5)))  p99 \(format(percentile(sorted, 0.99)))"
        }
        print(
            "machine: PostgreSQL one-row commit us (synchronous_commit=on, postgres-nio, \(autocommit.count) times): autocommit INSERT \(figures(autocommit)) (the limit); BEGIN/INSERT/COMMIT \(figures(transaction)); lease renewal + INSERT in one statement \(figures(renewAndInsert)); the log's append of one event (BEGIN, renewal, INSERT, COMMIT) \(figures(logAppend))"
        )
    }
}
