import CourtsideModel
import Foundation
import Testing

/// examples/display.py, the display a third party writes from docs/PROTOCOL.md alone, run with
/// python3: it follows the daemons until told a sequence on its standard input, then prints its
/// state as JSON.
enum PythonDisplay {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/display.py")

    /// Its final state, as `--json` prints it (the fields the tests compare).
    struct State: Decodable {
        struct Game: Decodable {
            var version: Int
            var score: SideValues?
        }
        var sequence: Int64
        var resyncs: Int
        var games: [String: Game]
    }

    /// Starts it on `command` and `events` (each may list several, comma-separated); its
    /// standard error goes to `errorLog` when given.
    static func start(command: String, events: String, errorLog: String? = nil) throws -> ChildProcess {
        try ChildProcess(
            "/usr/bin/python3", [script.path, "--command", command, "--events", events, "--until-stdin", "--json"],
            pipeInput: true, output: .capture, error: errorLog.map { .file($0) } ?? .null)
    }

    /// Waits until the display started with `errorLog` says it follows the daemon (its first
    /// snapshot taken), so that what a test does next happens to a display already following.
    static func waitUntilFollowing(errorLog: String, seconds: Double = 20) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if log(errorLog).contains("display.py: following") { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return false
    }

    /// What the display wrote to `errorLog` so far (empty when nothing), for a failure's message.
    static func log(_ errorLog: String) -> String {
        (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
    }

    /// Tells it to stop once it shows `sequence`, and returns what it printed.
    static func finish(_ python: ChildProcess, at sequence: Int64, seconds: Double = 30) -> String {
        python.write("\(sequence)\n")
        return python.readOutput(seconds: seconds)
    }

    /// Tells it to stop once it shows `sequence`, and returns the state it printed; a test
    /// expectation fails, naming what it printed and logged, when it printed none.
    static func finishedState(_ python: ChildProcess, at sequence: Int64, errorLog: String) throws -> State {
        let output = finish(python, at: sequence)
        return try #require(
            output.split(separator: "\n").last.flatMap { try? JSONDecoder().decode(State.self, from: Data($0.utf8)) },
            "\(output)\n\(log(errorLog))")
    }
}
