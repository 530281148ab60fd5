import CFuzzDriver
import CourtsideServer
import Foundation

@main
enum FuzzConfigLoader {
    /// libFuzzer's driver over the function below; every libFuzzer flag works (see scripts/fuzz.sh).
    static func main() {
        exit(courtside_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzConfigLoader))
    }
}

/// Where the inputs are parsed as if they were: paths in a `security:` section are relative to the
/// config file's folder, so that `server.key_secret` and `client.key` reach the throwaway
/// certificates in Fuzz/Certificates.
let configPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Certificates/fuzz.yaml").path

/// One fuzz input: a config file as courtsided reads it at start or on SIGHUP.
///
/// `DaemonConfiguration.load` reads the file as UTF-8 and refuses anything else before parsing,
/// so `parse` only ever sees valid strings: invalid bytes are repaired here the same way a
/// lenient reader would, which keeps every input useful.
///
/// A typed `ConfigurationError` is the right answer to a bad file. A finding is anything else: a
/// crash, a Swift runtime trap, an AddressSanitizer report, a timeout or a blown memory limit.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfigLoader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? UnsafeBufferPointer<UInt8>(start: nil, count: 0) : UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    do {
        let configuration = try DaemonConfiguration.parse(text, file: configPath)
        // What the daemon relies on once a config is accepted.
        precondition(configuration.tournament.schedule.problem == nil, "an accepted schedule has a problem")
        precondition((10...1000).contains(configuration.heartbeatMilliseconds), "heartbeat out of range")
        precondition(configuration.tournament.rules.problem == nil, "the tournament's rules are unsound")
        for game in configuration.tournament.schedule.games {
            precondition(game.rules.problem == nil, "game \(game.id) has unsound rules")
        }
        for (name, rules) in configuration.tournament.presets {
            precondition(rules.problem == nil, "accepted preset \(name) is unsound: \(rules.problem ?? "")")
        }
        _ = configuration.tournament.teams.count
    } catch {
        _ = error.description
    }
    return 0
}
