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
    /// Autocommit INSERTs of one row, each followed by a `SELECT 1` chained on the
    /// connection's thread, in microseconds, sorted: the limit. The INSERT's answer comes before
    /// its commit (made when the server reads the Sync that follows it); the empty query's comes
    /// once that commit is flushed, as in the log.
    var autocommit: [Double]
    /// BEGIN, the same INSERT, COMMIT (durable when COMMIT answers), in microseconds, sorted:
    /// the shape of the log's commits before they became one statement, two more round trips.
    var transaction: [Double]
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
        defer { try? run("DROP TABLE commit_probe") }
        let payload = ByteBuffer(repeating: UInt8(ascii: "x"), count: MachineLimits.recordSize)
        var id = 0
        func insert() throws {
            id += 1
            try run("INSERT INTO commit_probe (id, payload) VALUES (\(id), \(payload))")
        }
        func durableInsert() throws {
            id += 1
            let inserted = connection.query("INSERT INTO commit_probe (id, payload) VALUES (\(id), \(payload))", logger: logger)
            _ = try inserted.flatMap { _ in connection.query("SELECT 1", logger: logger) }.wait()
        }
        func timed(_ commit: () throws -> Void) throws -> [Double] {
            for _ in 0..<10 { try commit() }
            return try (0..<commits).map { _ in
                let start = ContinuousClock.now
                try commit()
                return (ContinuousClock.now - start).inSeconds * 1e6
            }.sorted()
        }
        let autocommit = try timed(durableInsert)
        let transaction = try timed {
            try run("BEGIN")
            try insert()
            try run("COMMIT")
        }
        return PostgresCommitLimit(
            autocommit: autocommit, transaction: transaction,
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
            "machine: PostgreSQL one-row commit us (synchronous_commit=on, postgres-nio, \(autocommit.count) times): autocommit INSERT + empty query \(figures(autocommit)) (the limit); BEGIN/INSERT/COMMIT \(figures(transaction)); the log's append of one event (lease renewed inside) \(figures(logAppend))"
        )
    }
}
