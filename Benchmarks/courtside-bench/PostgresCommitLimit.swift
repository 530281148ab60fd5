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

    var p50: Double { percentile(autocommit, 0.5) }
    var p99: Double { percentile(autocommit, 0.99) }

    /// Times `commits` commits of each kind, after 10 unmeasured ones, in a table made for it in
    /// `database` and dropped afterwards.
    static func measure(_ database: PostgresLogConfiguration, commits: Int = 300) throws -> PostgresCommitLimit {
        let logger = Logger(label: "courtside-bench")
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
        return PostgresCommitLimit(autocommit: autocommit, transaction: transaction)
    }

    func report() {
        print(
            "machine: PostgreSQL one-row commit us (synchronous_commit=on, postgres-nio, \(autocommit.count) times): autocommit INSERT p50 \(format(p50))  p99 \(format(p99)); BEGIN/INSERT/COMMIT p50 \(format(percentile(transaction, 0.5)))  p99 \(format(percentile(transaction, 0.99)))"
        )
    }
}
