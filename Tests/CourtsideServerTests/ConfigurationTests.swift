import CourtsideServer
import Foundation
import Testing
import ZeroMQ

/// The config checks that keep a venue's mistakes from becoming a restart loop or an open door.
@Suite("the config file's checks")
struct ConfigurationTests {
    static let teams = """
        teams:
          - { id: a, name: A, players: [{id: p, name: P}] }
          - { id: b, name: B, players: [{id: q, name: Q}] }
          - { id: c, name: C, players: [{id: r, name: R}] }

        """

    func problem(_ text: String, file: String = "t.yaml") -> String? {
        do {
            _ = try DaemonConfiguration.parse(text, file: file)
            return nil
        } catch {
            return error.description
        }
    }

    @Test(
        "bad endpoints are config errors naming the key",
        arguments: [
            ("tcp://no such host:x", "port must be 1 to 65535"), ("tcp://127.0.0.1:99999", "port must be"),
            ("udp://1.2.3.4:5", "should be tcp://HOST:PORT"), ("tcp://127.0.0.1", "has no port"),
            ("tcp://bad host!:5555", "is not an address"), ("ipc://", "has no path"),
        ])
    func endpoints(endpoint: String, expected: String) {
        let message = problem("endpoints: { command: \"\(endpoint)\" }\n" + Self.teams)
        #expect(message?.hasPrefix("t.yaml: endpoints.command: ") == true, "\(message ?? "accepted")")
        #expect(message?.contains(expected) == true, "\(message ?? "accepted")")
        #expect(DaemonConfiguration.endpointProblem(endpoint) != nil)
    }

    @Test(
        "good endpoints pass",
        arguments: ["tcp://0.0.0.0:5555", "tcp://*:5555", "tcp://eth0:1", "tcp://[::1]:5555", "ipc:///run/c.sock"])
    func goodEndpoints(endpoint: String) {
        #expect(DaemonConfiguration.endpointProblem(endpoint) == nil)
    }

    @Test("which endpoints other machines could reach")
    func exposure() throws {
        var configuration = try DaemonConfiguration.parse(Self.teams, file: "t.yaml")
        #expect(configuration.exposedEndpoints.isEmpty)
        for endpoint in ["tcp://0.0.0.0:1", "tcp://*:1", "tcp://eth0:1", "tcp://192.168.1.5:1", "tcp://127.0.0.1.evil.com:1"] {
            configuration.commandEndpoint = endpoint
            #expect(configuration.exposedEndpoints == [endpoint])
        }
        for endpoint in ["tcp://127.0.0.1:1", "tcp://127.1.2.3:1", "tcp://localhost:1", "tcp://[::1]:1", "ipc:///tmp/x"] {
            configuration.commandEndpoint = endpoint
            #expect(configuration.exposedEndpoints.isEmpty, "\(endpoint)")
        }
    }

    @Test(
        "winner_of and loser_of cycles of any length are refused",
        arguments: [
            "  - { id: g1, home: {winner_of: g1}, away: b }\n",
            "  - { id: g1, home: {winner_of: g2}, away: a }\n  - { id: g2, home: {loser_of: g1}, away: b }\n",
            "  - { id: g1, home: {winner_of: g3}, away: a }\n  - { id: g2, home: {winner_of: g1}, away: b }\n"
                + "  - { id: g3, home: {loser_of: g2}, away: c }\n",
        ])
    func cycles(games: String) {
        let message = problem(Self.teams + "games:\n" + games)
        #expect(message?.contains("wait on each other") == true, "\(message ?? "accepted")")
    }

    @Test("a game that takes its own group's ranking waits on itself")
    func groupCycle() {
        let message = problem(
            Self.teams
                + "groups:\n  - { id: A, teams: [a, b] }\ngames:\n  - { id: g1, home: {group: A, rank: 1}, away: c, group: A }\n")
        #expect(message?.contains("wait on each other") == true, "\(message ?? "accepted")")
    }

    @Test("linger_ms must fit in the 2 s stop")
    func linger() {
        #expect(problem("transport: { linger_ms: 5000 }\n" + Self.teams)?.contains("transport.linger_ms") == true)
        #expect(problem("transport: { linger_ms: 500 }\n" + Self.teams) == nil)
        #expect(problem("transport: { linger_ms: 501 }\n" + Self.teams) != nil)
    }

    @Test("tournament reads are paced at 24 MB/s unless told otherwise; 0 turns the pace off")
    func tournamentReadsPace() throws {
        #expect(try DaemonConfiguration.parse(Self.teams, file: "t.yaml").tournamentReadsMegabytesPerSecond == 24)
        let off = try DaemonConfiguration.parse("transport: { tournament_reads_mb_per_s: 0 }\n" + Self.teams, file: "t.yaml")
        #expect(off.tournamentReadsMegabytesPerSecond == 0)
        #expect(
            problem("transport: { tournament_reads_mb_per_s: -1 }\n" + Self.teams)?.contains(
                "transport.tournament_reads_mb_per_s") == true)
    }

    @Test("a reload tells which changed settings wait for a restart")
    func restartOnly() throws {
        let before = try DaemonConfiguration.parse(Self.teams, file: "t.yaml")
        let after = try DaemonConfiguration.parse(
            "endpoints: { events: \"tcp://127.0.0.1:6000\" }\ntransport: { heartbeat_ms: 100 }\n" + Self.teams, file: "t.yaml")
        #expect(after.settingsNeedingRestart(comparedWith: before) == ["endpoints.events", "transport.heartbeat_ms"])
    }
}

/// The security section, with real certificate files.
@Suite("the security section")
struct SecurityConfigurationTests {
    let directory: URL
    let organiser: CurveKeyPair

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("courtside-config-\(UUID().uuidString)")
        organiser = try CurveKeyPair.generate()
        _ = try ZMQCertificate.write(
            try CurveKeyPair.generate(), name: "server", directory: directory.appendingPathComponent("keys").path)
        _ = try ZMQCertificate.write(organiser, name: "organiser", directory: directory.appendingPathComponent("keys").path)
    }

    func parse(_ clients: String, anonymous: String = "none", server: String = "keys/server.key_secret") throws
        -> DaemonConfiguration
    {
        try DaemonConfiguration.parse(
            """
            courts: [Court 1]
            security:
              server_certificate: \(server)
              anonymous: \(anonymous)
              clients:
            \(clients)
            """ + "\n" + ConfigurationTests.teams, file: directory.appendingPathComponent("venue.yaml").path)
    }

    @Test("certificates are read relative to the config file, public keys taken as they are")
    func valid() throws {
        let key = try CurveKeyPair.generate().publicKey.z85
        let security = try #require(
            try parse(
                """
                    - { name: organiser, certificate: keys/organiser.key, role: organiser }
                    - { name: court-1, public_key: "\(key)", role: keeper, courts: [Court 1], games: [final] }
                """, anonymous: "display"
            ).security)
        #expect(security.clients.map(\.name) == ["organiser", "court-1"])
        #expect(security.clients.first?.publicKey == organiser.publicKey)
        #expect(security.clients.last?.courts == ["Court 1"])
        #expect(security.anonymousDisplays)
    }

    @Test(
        "mistakes name the key",
        arguments: [
            ("    - { name: x, certificate: keys/organiser.key, role: boss }\n", "security.clients.0.role"),
            ("    - { name: x, role: display }\n", "needs exactly one of certificate"),
            ("    - { name: x, public_key: \"short\", role: display }\n", "security.clients.0.public_key"),
            ("    - { name: x, certificate: keys/organiser.key, role: keeper }\n", "a keeper needs courts or games"),
            ("    - { name: x, certificate: keys/organiser.key, role: keeper, courts: [Court 9] }\n", "unknown court"),
            ("    - { name: anonymous, certificate: keys/organiser.key, role: display }\n", "security.clients.0.name"),
            ("    - { name: a/b, certificate: keys/organiser.key, role: display }\n", "security.clients.0.name"),
            ("    - { name: x, certificate: keys/missing.key, role: display }\n", "security.clients.0.certificate"),
            (
                "    - { name: x, certificate: keys/organiser.key, role: display }\n    - { name: y, certificate: keys/organiser.key, role: display }\n",
                "same key as x"
            ),
            ("    - { name: x, certificate: keys/organiser.key, role: display, courts: [Court 1] }\n", "are for keepers"),
        ])
    func mistakes(clients: String, expected: String) {
        #expect(throws: ConfigurationError.self) { try parse(clients) }
        do {
            _ = try parse(clients)
        } catch {
            #expect("\(error)".contains(expected), "got: \(error)")
        }
    }

    @Test("the daemon needs its secret certificate, not the public one")
    func publicServerCertificate() {
        do {
            _ = try parse("    - { name: o, certificate: keys/organiser.key, role: organiser }\n", server: "keys/server.key")
            Issue.record("accepted a public server certificate")
        } catch {
            #expect("\(error)".contains("security.server_certificate"))
            #expect("\(error)".contains("secret"))
        }
    }
}
