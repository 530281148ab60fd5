import CourtsideModel
import Foundation

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

    /// Tells it to stop once it shows `sequence`, and returns what it printed.
    static func finish(_ python: ChildProcess, at sequence: Int64, seconds: Double = 30) -> String {
        python.write("\(sequence)\n")
        return python.readOutput(seconds: seconds)
    }
}
