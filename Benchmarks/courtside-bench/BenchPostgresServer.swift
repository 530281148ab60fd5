import CourtsidePostgres
import CourtsidePostgresTesting

/// A PostgreSQL server a benchmark runs its logs on: a lone throwaway one, or a primary with
/// its synchronous streaming standby.
protocol BenchPostgresServer: AnyObject {
    /// How to reach its `postgres` database: every host, the primary first.
    var configuration: PostgresLogConfiguration { get }
    /// Runs `sql` with psql on the primary; returns whether it succeeded.
    func psql(_ sql: String) -> Bool
    /// Stops it and removes its files.
    func stop()
}

extension TestPostgresServer: BenchPostgresServer {}

extension TestPostgresPair: BenchPostgresServer {
    func psql(_ sql: String) -> Bool { (try? query(sql, on: .primary)) != nil }
}
