import CourtsidePostgresTesting
import Foundation
import Testing

/// Every benchmark alive: each `courtside-bench` subcommand, and `scripts/goals.sh`, run at tiny
/// sizes (`--smoke`) on the debug build, so that a benchmark that breaks fails `swift test`.
/// Only that each runs to its end and prints its figures is checked, never their values: a
/// debug build on a shared machine measures nothing. Full size: docs/FIGURES.md.
@Suite("benchmarks at tiny sizes", .serialized, .timeLimit(.minutes(2)))
struct BenchSmokeTests {
    /// The debug-built courtside-bench beside this test binary, as courtsided is.
    static let bench = DaemonProcess.executable.deletingLastPathComponent().appendingPathComponent("courtside-bench").path

    /// One smoke run: the subcommand and its arguments (`--smoke` added), and a text its output
    /// must hold (a line of its figures).
    struct Run: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var figures: [String]
        var testDescription: String { (arguments + ["--smoke"]).joined(separator: " ") }
    }

    /// Runs `arguments` with `--smoke` (at most `seconds`); its output, once it has exited 0 and
    /// printed each of `figures`.
    @discardableResult
    static func smoke(_ arguments: [String], figures: [String], seconds: Double = 60) async throws -> String {
        let started = ContinuousClock.now
        let (status, output) = try await ChildProcess.outcome(
            of: bench, arguments + ["--smoke"], mergeError: true, seconds: seconds)
        let took = ContinuousClock.now - started
        #expect(status == 0, "\(arguments.joined(separator: " ")) --smoke exited \(status) after \(took):\n\(output)")
        for figure in figures {
            #expect(output.contains(figure), "no \"\(figure)\" in the output of \(arguments.joined(separator: " ")):\n\(output)")
        }
        return output
    }

    @Test(
        "each subcommand runs to its end and prints its figures",
        arguments: [
            Run(arguments: ["library", "--keepers", "1,16", "--log", "sqlite,flat"], figures: ["\nsqlite ", "\nflat "]),
            Run(
                arguments: ["daemon", "--keepers", "1,4", "--window", "4", "--security", "plaintext,curve"],
                figures: [
                    "acknowledged moves/s:", "events/s at one subscriber:", "by thread (CPU, voluntary switches): ",
                ]),
            Run(arguments: ["log"], figures: ["commit us: p50", "commit over fdatasync:"]),
            Run(arguments: ["fanout", "--subscribers", "1,10"], figures: ["summary (delivered per second"]),
            Run(arguments: ["reads"], figures: ["resync storm of", "while the same storm was served"]),
            Run(arguments: ["restart"], figures: ["checkpoint + ", "full replay (no checkpoint)", "in one go"]),
            Run(arguments: ["encode"], figures: ["reply, snapshot"]),
            Run(arguments: ["abuse"], figures: ["keepers' p99 during the flood / quiet:"]),
            Run(arguments: ["plan"], figures: ["teams courts games", "\n    8      2"]),
        ])
    func subcommand(_ run: Run) async throws {
        try await Self.smoke(run.arguments, figures: run.figures)
    }

    @Test(
        "the daemon bench on PostgreSQL, alone and with a synchronous standby, with a takeover each",
        .enabled(if: TestPostgresServer.isInstalled, "\(TestPostgresServer.notInstalled)"))
    func daemonOnPostgres() async throws {
        try await Self.smoke(
            ["daemon", "--keepers", "1", "--security", "plaintext", "--storage", "postgresql,postgresql-pair"],
            figures: ["storage=postgresql-pair", "takeover (postgresql, two daemons", "takeover (postgresql-pair, two daemons"])
    }

    @Test(
        "replication-trials: one synchronous trial and one asynchronous",
        .enabled(if: TestPostgresServer.isInstalled, "\(TestPostgresServer.notInstalled)"))
    func replicationTrials() async throws {
        try await Self.smoke(["replication-trials"], figures: ["synchronous: 1 trials", "asynchronous: 1 trials"])
    }

    @Test("scripts/goals.sh --smoke prints a row of every goal")
    func goals() async throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/goals.sh")
        let started = ContinuousClock.now
        let (status, output) = try await ChildProcess.outcome(
            of: "/bin/bash", [script.path, "--smoke", "--bin", DaemonProcess.executable.deletingLastPathComponent().path],
            mergeError: true, seconds: 90)
        #expect(status == 0, "goals.sh --smoke exited \(status) after \(ContinuousClock.now - started):\n\(output)")
        // The table: a row for each goal, each figure found in its benchmark's output ("?" is one
        // that was not: a line the benchmark no longer prints as goals.sh reads it).
        let rows = output.split(separator: "\n").drop { !$0.hasPrefix("goal ") }.dropFirst()
        for goal in 1...7 {
            #expect(rows.contains { $0.hasPrefix("\(goal) ") }, "no row of goal \(goal):\n\(output)")
        }
        for row in rows where row.contains("?") {
            Issue.record("a figure goals.sh did not find: \(row)\n\(output)")
        }
    }
}
