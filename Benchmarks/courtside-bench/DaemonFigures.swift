import Foundation

/// One run of `courtside-bench daemon` (a storage, a security mode, a number of keepers), for
/// the table that sets the runs side by side at the end.
struct DaemonFigures {
    var storage: String
    var security: String
    var keepers: Int
    var window: Int
    /// The keepers' round trip, in microseconds.
    var p50: Double
    var p99: Double
    /// The raw libzmq round trip and the log's own commit, measured before the run.
    var zmqP50: Double
    var zmqP99: Double
    var commit: CommitLimit
    var movesPerSecond: Double

    /// The round trip's p50 over the least an acknowledged move can cost (a raw libzmq round trip
    /// plus one commit): the goal is at most 2 (issue 10 on SQLite, issue 32 on PostgreSQL).
    var p50Ratio: Double { p50 / (zmqP50 + commit.p50) }
    var p99Ratio: Double { p99 / (zmqP99 + commit.p99) }

    /// Prints `runs` as one table.
    static func report(_ runs: [DaemonFigures]) {
        print(
            "summary: the round trip against limit = raw zmq round trip + one commit of the log (fdatasync for sqlite, PostgreSQL's own one-row synchronous commit for postgresql and postgresql-pair), all in us; goal p50/limit <= 2"
        )
        print(
            "storage          security   keepers  window  p50_us  p99_us  zmq_p50  commit     commit_p50  commit_p99  p50/limit  p99/limit  within_2x  moves/s"
        )
        for run in runs {
            print(
                run.storage.padding(toLength: 15, withPad: " ", startingAt: 0) + "  "
                    + run.security.padding(toLength: 9, withPad: " ", startingAt: 0)
                    + String(
                        format: "  %7d  %6d  %6.0f  %6.0f  %7.0f  ", run.keepers, run.window, run.p50, run.p99, run.zmqP50)
                    + run.commit.name.padding(toLength: 9, withPad: " ", startingAt: 0)
                    + String(
                        format: "  %10.0f  %10.0f  %9.2f  %9.2f  ", run.commit.p50, run.commit.p99, run.p50Ratio, run.p99Ratio)
                    + (run.p50Ratio <= 2 ? "yes" : "no").padding(toLength: 9, withPad: " ", startingAt: 0)
                    + String(format: "  %7.0f", run.movesPerSecond))
        }
    }
}
