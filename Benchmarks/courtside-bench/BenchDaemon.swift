import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The teams and games of a benchmark's config: game gN is team t(2N) against t(2N+1), each
/// team with one player pN of the same number.
func benchRoster(games: Int) -> String {
    var text = "teams:\n"
    for team in 0..<games * 2 { text += "  - { id: t\(team), name: T\(team), players: [{id: p\(team), name: P}] }\n" }
    text += "games:\n"
    for game in 0..<games { text += "  - { id: g\(game), home: t\(2 * game), away: t\(2 * game + 1) }\n" }
    return text
}

/// A courtsided that a benchmark starts on its own config, and stops with SIGTERM.
struct BenchDaemon {
    let process: Process

    /// Writes `config` into `directory` and starts the daemon on it (the binary next to this
    /// one unless `executable` names another).
    init(config: String, in directory: URL, executable: String?, logLevel: String = "warning") throws {
        let path = directory.appendingPathComponent("bench.yaml").path
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL =
            executable.map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("courtsided")
        process.arguments = ["--config", path, "--log-level", logLevel]
        try process.run()
    }

    var processIdentifier: Int32 { process.processIdentifier }

    func stop() {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }
}
