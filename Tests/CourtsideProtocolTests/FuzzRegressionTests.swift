import CourtsideModel
import CourtsideProtocol
import CourtsideServer
import Foundation
import Testing

/// Inputs the fuzzers (scripts/fuzz.sh) found or were seeded with, kept in Fuzz/Regressions: each
/// must be answered with a typed error or a value, never a crash, a trap or a hang.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let regressions = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions")

    /// The names of the inputs in `Fuzz/Regressions/<folder>`, the README aside.
    /// Inputs are parsed as if they were this file, as the fuzzer does: the certificates a
    /// `security:` section names (`server.key_secret`, `client.key`) are in this folder.
    static let configPath = regressions.deletingLastPathComponent().appendingPathComponent("Certificates/fuzz.yaml").path

    static func inputs(_ folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: regressions.appendingPathComponent(folder).path)) ?? []
        return names.filter { !$0.hasPrefix("README") && !$0.hasPrefix(".") }.sorted()
    }

    static func contents(_ folder: String, _ name: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: regressions.appendingPathComponent(folder).appendingPathComponent(name)))
    }

    @Test("both folders hold inputs (so that a moved folder fails instead of testing nothing)")
    func foldersExist() {
        #expect(Self.inputs("request").count > 0, "no inputs in \(Self.regressions.path)/request")
        #expect(Self.inputs("config").count > 0, "no inputs in \(Self.regressions.path)/config")
    }

    @Test(
        "every kept request body decodes, or is refused with a documented code", .timeLimit(.minutes(1)),
        arguments: inputs("request"))
    func request(_ name: String) throws {
        let body = try Self.contents("request", name)
        do {
            let request = try Request.decode(body)
            // What the reference client would send for it decodes to the same request.
            let encoded = request.encoded()
            if encoded.count <= ProtocolLimits.maxRequestBytes {
                let again = try Request.decode(encoded)
                #expect(again.operation == request.operation && again.origin == request.origin)
            }
        } catch {
            #expect([.badRequest, .unknownOperation, .messageTooLarge].contains(error.code), "\(error)")
        }
    }

    @Test(
        "every kept config file loads, or is refused with a ConfigurationError", .timeLimit(.minutes(1)),
        arguments: inputs("config"))
    func config(_ name: String) throws {
        let bytes = try Self.contents("config", name)
        let path = Self.regressions.appendingPathComponent("config").appendingPathComponent(name).path
        // As courtsided reads it (a file that is not UTF-8 is refused before parsing) ...
        do {
            _ = try DaemonConfiguration.load(path: path)
        } catch {
            #expect(!error.file.isEmpty && !error.problem.isEmpty)
        }
        // ... and as the fuzzer feeds it to the parser (invalid UTF-8 repaired).
        do {
            _ = try DaemonConfiguration.parse(String(decoding: bytes, as: UTF8.self), file: Self.configPath)
        } catch {
            #expect(!error.file.isEmpty && !error.problem.isEmpty)
        }
    }

    @Test("no seed of the config fuzzer has a key the config does not know, which would stop it at the first check")
    func configSeedKeys() throws {
        let corpus = Self.regressions.deletingLastPathComponent().appendingPathComponent("Corpus/config")
        let seeds = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasSuffix(".yaml") }
        #expect(seeds.count >= 8)
        for seed in seeds {
            let text = try String(contentsOf: corpus.appendingPathComponent(seed), encoding: .utf8)
            do {
                _ = try DaemonConfiguration.parse(text, file: Self.configPath)
            } catch {
                // Some seeds hold bounds on purpose (linger_ms: 10000); none may hold a stray key.
                #expect(!error.problem.hasPrefix("unknown key"), "\(seed): \(error)")
            }
        }
    }

    @Test("the fuzzer's security seed loads with the throwaway certificates, so the fuzzer reaches the clients")
    func securitySeed() throws {
        let seed = Self.regressions.deletingLastPathComponent().appendingPathComponent("Corpus/config/security.yaml")
        let text = try String(contentsOf: seed, encoding: .utf8)
        let configuration = try DaemonConfiguration.parse(text, file: Self.configPath)
        #expect(configuration.security?.clients.count == 4)
    }

    @Test(
        "a YAML base-60 number too large for a whole number is refused, not a trap",
        arguments: [
            ("rules: { target_score: 9223372036854775807:1 }\n", "rules.target_score"),
            ("transport: { linger_ms: 1:0:0:0:0:0:0:0:0:0:0 }\n", "transport.linger_ms"),
            ("rules: { time_limit: { milliseconds: -153722867280912930:59:59 } }\n", "rules.time_limit.milliseconds"),
            ("tournament: 9223372036854775807:1\n", "tournament"),
        ])
    func base60Overflow(_ prefix: String, _ key: String) {
        let text = prefix + "teams:\n  - { id: a, name: A, players: [{ id: p, name: P }] }\n"
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.parse(text, file: "t.yaml") }
        do {
            _ = try DaemonConfiguration.parse(text, file: "t.yaml")
        } catch {
            #expect(error.key == key && error.problem.contains("base-60"), "\(error)")
        }
    }

    @Test("small base-60 numbers and quoted times still read as before")
    func base60Small() throws {
        let configuration = try DaemonConfiguration.parse(
            "rules: { target_score: 1:0, win_by: 1_0 }\nteams:\n  - { id: a, name: A, players: [{ id: p, name: P }] }\n"
                + "games: [{ id: g, home: a, away: a, start: 10:30 }]\n",
            file: "t.yaml")
        #expect(configuration.tournament.rules.targetScore == 60 && configuration.tournament.rules.winBy == 10)
        #expect(configuration.tournament.schedule.games.first?.start == "10:30")
    }

    @Test("aliases and merge keys that expand to a huge tree are refused", .timeLimit(.minutes(1)))
    func expansionBombs() throws {
        let team = "teams:\n  - { id: a, name: A, players: [{ id: p, name: P }] }\n"
        var merge = "m0: &m0 { k0: 0, k1: 1, k2: 2, k3: 3 }\n"
        for level in 1...13 {
            let parents = Array(repeating: "*m\(level - 1)", count: 4).joined(separator: ", ")
            merge += "m\(level): &m\(level) { <<: [\(parents)] }\n"
        }
        var laughs = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            let children = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
            laughs += "a\(level): &a\(level) [\(children)]\n"
        }
        for text in [merge + "rules: { <<: *m13 }\n" + team, laughs + "courts: *a9\n" + team] {
            do {
                _ = try DaemonConfiguration.parse(text, file: "t.yaml")
                Issue.record("a bomb was accepted")
            } catch {
                #expect(error.key == "" && error.problem.contains("YAML nodes"), "\(error)")
            }
        }
        // Aliases as people use them are fine.
        // (An anchor is set where it is first used: a key the config does not know is refused.)
        let configuration = try DaemonConfiguration.parse(
            "rules: &rules { target_score: 11 }\n" + team
                + "games: [{ id: g, home: a, away: a, rules: { <<: *rules, win_by: 1 } }]\n", file: "t.yaml")
        let rules = configuration.tournament.schedule.games.first?.rules
        #expect(rules?.targetScore == 11 && rules?.winBy == 1)
    }
}
