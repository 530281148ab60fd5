import CourtsideModel
import CourtsideProtocol
import Foundation
import Testing
import Yams
import ZeroMQ

@testable import CourtsideServer

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

    @Test(
        "a control character, a bidirectional override, an overlong text or a start that is no time is refused naming the key",
        arguments: [
            (#"teams: [{ id: a, name: "A\0", players: [{id: p, name: P}] }]"#, "teams.0.name: contains U+0000"),
            (#"teams: [{ id: a, name: "\u202EA", players: [{id: p, name: P}] }]"#, "teams.0.name: contains U+202E"),
            (#"teams: [{ id: a, name: A, players: [{id: p, name: "P\u2066"}] }]"#, "teams.0.players.0.name: contains U+2066"),
            (#"teams: [{ id: "a\0", name: A, players: [{id: p, name: P}] }]"#, "teams.0.id: contains U+0000"),
            (#"courts: ["Court\u202E1"]"#, "courts.0: contains U+202E"),
            ("courts: [\(String(repeating: "C", count: 5000))]", "courts.0: is 5000 characters long"),
            (#"games: [{ id: g, home: a, away: b, court: "Court\0 1" }]"#, "games.0.court: contains U+0000"),
            (#"games: [{ id: g, home: a, away: b, start: "25:99" }]"#, "games.0.start: is not a time of day"),
            (#"games: [{ id: g, home: a, away: b, start: "11:00\0" }]"#, "games.0.start: contains U+0000"),
            (#"rounds: [{ name: "Final\tA", games: [] }]"#, "rounds.0.name: contains U+0009"),
            (#"groups: [{ id: A, name: "\u2067A", teams: [a] }]"#, "groups.0.name: contains U+2067"),
            (#"tournament: "Cup\u202D""#, "tournament: contains U+202D"),
            (#"presets: [{ name: "mine\u0085" }]"#, "presets.0.name: contains U+0085"),
        ])
    func text(line: String, expected: String) {
        let teams = line.hasPrefix("teams:") ? "" : Self.teams
        let message = problem(line + "\n" + teams)
        #expect(message?.hasPrefix("t.yaml: \(expected)") == true, "\(message ?? "accepted")")
    }

    @Test("names in every script load: Japanese, Korean, Arabic with its marks, emoji")
    func textInEveryScript() throws {
        let configuration = try DaemonConfiguration.parse(
            """
            tournament: "大会 🏀"
            courts: ["コート 1", "ملعب ٢"]
            teams:
              - { id: a, name: "山田チーム", players: [{id: p, name: "김민준"}] }
              - { id: b, name: "\\u200Fالنسور\\u200F", players: [{id: q, name: "Zoë 👩‍👩‍👧"}] }
            games: [{ id: g, home: a, away: b, court: "コート 1", start: "9:05" }]
            """, file: "t.yaml")
        #expect(configuration.tournament.teams["b"]?.name == "\u{200F}النسور\u{200F}")
        #expect(configuration.tournament.schedule.game("g")?.start == "9:05")
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

    @Test("each setting read only at start is named by its key in the file, a key the file's check knows")
    func restartKeysAreTheFilesOwn() throws {
        let before = try DaemonConfiguration.parse(Self.teams, file: "t.yaml")
        var after = before
        after.dataDirectory = "elsewhere"
        after.commandEndpoint = "tcp://127.0.0.1:7000"
        after.eventEndpoint = "tcp://127.0.0.1:7001"
        after.advertisedEndpoint = "tcp://court.example:7000"
        after.eventHighWaterMark += 1
        after.commandHighWaterMark += 1
        after.lingerMilliseconds -= 1
        after.heartbeatMilliseconds += 1
        after.tournamentReadsMegabytesPerSecond += 1
        // What SIGHUP applies waits for nothing.
        after.tournament.name = "Renamed"
        after.security = nil
        let keys = after.settingsNeedingRestart(comparedWith: before)
        #expect(keys.count == 9, "\(keys)")
        for key in keys {
            var level = ConfigurationKeys.file
            for part in key.split(separator: ".") {
                guard case .mapping(let known) = level, let below = known[String(part)] else {
                    Issue.record("\(key) is not a key of the file")
                    break
                }
                level = below
            }
        }
    }

    @Test(
        "an unknown key at any level is refused with its path and the nearest known key",
        arguments: [
            ("tiebreakers: [points_scored]\n" + teams, "tiebreakers", "tie_breakers"),
            ("endpoints: { comand: \"tcp://127.0.0.1:1\" }\n" + teams, "endpoints.comand", "command"),
            ("transport: { heartbeat: 100 }\n" + teams, "transport.heartbeat", "heartbeat_ms"),
            ("rules: { target: 11 }\n" + teams, "rules.target", "target_score"),
            ("rules: { time_limit: { milliseconds: 1000, at_tme: overtime } }\n" + teams, "rules.time_limit.at_tme", "at_time"),
            ("rules: { team_fouls: { free_throws: 5 } }\n" + teams, "rules.team_fouls.free_throws", "free_throws_from"),
            ("presets: [{ name: x, inherit: fiba3x3 }]\n" + teams, "presets.0.inherit", "inherits"),
            ("teams:\n  - { id: a, name: A, plyers: [{id: p, name: P}] }\n", "teams.0.plyers", "players"),
            ("teams:\n  - { id: a, name: A, players: [{id: p, nmae: P}] }\n", "teams.0.players.0.nmae", "name"),
            ("groups: [{ id: A, team: [a, b] }]\n" + teams, "groups.0.team", "teams"),
            (teams + "games: [{ id: g, home: a, away: b, cort: X }]\n", "games.0.cort", "court"),
            (teams + "games: [{ id: g, home: {winner: g0}, away: b }]\n", "games.0.home.winner", "winner_of"),
            (teams + "games: [{ id: g, home: a, away: {loser_off: g0} }]\n", "games.0.away.loser_off", "loser_of"),
            (teams + "games: [{ id: g, home: {group: A, rnak: 1}, away: b }]\n", "games.0.home.rnak", "rank"),
            (teams + "games: [{ id: g, home: {teams: a}, away: b }]\n", "games.0.home.teams", "team"),
            (teams + "games: [{ id: g, home: a, away: b, rules: { win_bye: 1 } }]\n", "games.0.rules.win_bye", "win_by"),
            (teams + "rounds: [{ nme: R, games: [] }]\n", "rounds.0.nme", "name"),
            (
                teams + "rounds: [{ name: R, games: [{ id: g, home: a, away: b, strat: x }] }]\n", "rounds.0.games.0.strat",
                "start"
            ),
            (teams + "Teams: []\n", "Teams", "teams"),
        ] as [(String, String, String)])
    func unknownKey(text: String, key: String, suggestion: String) {
        let message = problem(text)
        #expect(message == "t.yaml: \(key): unknown key; did you mean \(suggestion)?", "\(message ?? "accepted")")
    }

    @Test("an unknown key in a security client, or merged in with <<, is refused too")
    func unknownKeyInSecurityAndMerges() {
        let security = problem(
            "security: { server_certificate: s, clients: [{ name: c, role: display, rol: x }] }\n" + Self.teams)
        #expect(security == "t.yaml: security.clients.0.rol: unknown key; did you mean role?", "\(security ?? "accepted")")
        let anchored = problem("rules: &r { target_score: 11, hard_capp: 20 }\n" + Self.teams)
        #expect(anchored == "t.yaml: rules.hard_capp: unknown key; did you mean hard_cap?", "\(anchored ?? "accepted")")
        let throughMerge = problem(
            Self.teams + "x-base: &base { court: X }\ngames: [{ <<: *base, id: g, home: a, away: b }]\n")
        #expect(throughMerge?.hasPrefix("t.yaml: x-base: unknown key") == true, "\(throughMerge ?? "accepted")")
        let inMerged = problem(
            "rules: &base { target_score: 11 }\n" + Self.teams
                + "games: [{ id: g, home: a, away: b, rules: { <<: [*base, { win_byy: 1 }] } }]\n")
        #expect(inMerged == "t.yaml: games.0.rules.win_byy: unknown key; did you mean win_by?", "\(inMerged ?? "accepted")")
    }

    @Test("a plain << merges a mapping in; a quoted one is a key like any other")
    func mergeKeys() throws {
        let merged = try DaemonConfiguration.parse(
            Self.teams + "games:\n  - { id: g1, home: a, away: b, rules: &seven { target_score: 7 } }\n"
                + "  - { id: g2, home: a, away: b, rules: { <<: *seven, win_by: 1 } }\n",
            file: "t.yaml")
        #expect(merged.tournament.rules.targetScore != 7)
        #expect(merged.tournament.schedule.game("g2")?.rules.targetScore == 7)
        let quoted = problem(
            "rules: &base { target_score: 11 }\n" + Self.teams
                + "games: [{ id: g, home: a, away: b, rules: { \"<<\": *base } }]\n")
        #expect(quoted?.hasPrefix("t.yaml: games.0.rules.<<: unknown key") == true, "\(quoted ?? "accepted")")
    }

    @Test("a file without settings, or nested deeper than any tournament's, is refused with its reason")
    func emptyAndDeepFiles() {
        let empty = problem("# nothing here yet\n")
        #expect(empty?.contains("the file holds no settings") == true, "\(empty ?? "accepted")")
        let deep = problem(
            "courts: " + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "\n" + Self.teams)
        #expect(deep?.contains("nested more than 64 levels deep") == true, "\(deep ?? "accepted")")
        var aliased = "d0: &d0 [x]\n"
        for level in 1...70 { aliased += "d\(level): &d\(level) [*d\(level - 1)]\n" }
        let throughAliases = problem(aliased + Self.teams)
        #expect(throughAliases?.contains("nested more than 64 levels deep") == true, "\(throughAliases ?? "accepted")")
    }

    @Test("a key nothing known is near gets the list of the known ones, and no guess")
    func unknownKeyWithoutSuggestion() {
        let message = problem("sponsor: ACME\n" + Self.teams)
        #expect(
            message?.hasPrefix("t.yaml: sponsor: unknown key (known here: courts, data_dir, divisions, endpoints,") == true,
            "\(message ?? "accepted")")
        #expect(message?.contains("did you mean") == false)
        let player = problem("teams:\n  - { id: a, name: A, players: [{id: p, name: P, number: 7}] }\n")
        #expect(player == "t.yaml: teams.0.players.0.number: unknown key (known here: id, name)", "\(player ?? "accepted")")
    }

    @Test("every known key at every level loads, merges included")
    func knownKeysLoad() throws {
        let text = """
            tournament: T
            data_dir: d
            endpoints: { command: "tcp://127.0.0.1:1", events: "tcp://127.0.0.1:2" }
            transport:
              { event_high_water_mark: 5, command_high_water_mark: 5, linger_ms: 0, heartbeat_ms: 100, tournament_reads_mb_per_s: 1 }
            rules: &base
              inherits: pickup-15w2
              target_score: 11
              win_by: 1
              hard_cap: 13
              time_limit: { milliseconds: 60000, at_time: overtime, overtime_points: 1 }
              team_fouls: { free_throws_from: 3, possession_from: 4 }
              shot_clock_seconds: 12
              timeouts_per_team: 1
              preset: mine
            presets: [{ name: p1, inherits: fiba3x3, target_score: 9, team_fouls: { free_throws_from: 2, possession_from: 3 } }]
            tie_breakers: [points_scored]
            courts: [X]
            \(Self.teams)groups: [{ id: A, name: Group A, teams: [a, b] }]
            rounds:
              - name: R1
                games:
                  - { id: g1, home: { team: a }, away: b, court: X, group: A, start: "10:00", rules: p1 }
                  - { id: g2, home: { group: A, rank: 1 }, away: c, rules: { <<: *base, win_by: 2 } }
            games:
              - { id: g3, home: { winner_of: g1 }, away: { loser_of: g1 } }
            """
        let configuration = try DaemonConfiguration.parse(text, file: "t.yaml")
        #expect(configuration.tournament.schedule.games.count == 3)
        #expect(configuration.tournament.schedule.tieBreakers == [.pointsScored])
        #expect(configuration.tournament.schedule.game("g2")?.rules.winBy == 2)
    }

    @Test("a reload names each change it does not apply to what exists, and nothing new or unchanged")
    func unappliedChanges() throws {
        let running = try DaemonConfiguration.parse(
            "courts: [X, Y]\n" + Self.teams + "games:\n  - { id: g1, home: a, away: b, court: X, start: \"10:00\" }\n"
                + "  - { id: g2, home: b, away: c }\n",
            file: "t.yaml"
        ).tournament
        #expect(UnappliedChange.between(running: running, file: running).isEmpty)
        let file = try DaemonConfiguration.parse(
            """
            tie_breakers: [points_scored]
            courts: [Y]
            teams:
              - { id: a, name: Aces, players: [{id: p, name: P}, {id: z, name: Zoe}] }
              - { id: b, name: B, players: [{id: q, name: Quinn}] }
              - { id: c, name: C, players: [{id: r, name: R}] }
              - { id: d, name: D, players: [{id: s, name: S}] }
            games:
              - { id: g1, home: a, away: b, court: Y, start: "10:00", rules: fiba3x3 }
              - { id: g3, home: c, away: d }

            """, file: "t.yaml"
        ).tournament
        #expect(
            UnappliedChange.between(running: running, file: file).map(\.description) == [
                "team a: name, players differ from the running tournament (name: A → Aces; added: z); not applied: the log decides",
                "team b: players differ from the running tournament (renamed: q (Q → Quinn)); not applied: the log decides",
                "game g1: court, rules differ from the running tournament (court: X → Y; rules: pickup-15w2 → fiba3x3); "
                    + "not applied: the log decides",
                "game g2: no longer in the file; not applied: the log decides",
                "tournament: tie_breakers, courts differ from the running tournament (tie_breakers: head_to_head, "
                    + "point_difference, points_scored → points_scored; courts: no longer in the file: X); "
                    + "not applied: the log decides",
            ])
        let change = try #require(UnappliedChange.between(running: running, file: file).first)
        #expect(change.metadata["reload.kind"] == "team" && change.metadata["reload.fields"] == "name,players")
    }

    @Test("suggestions: close typos only")
    func nearest() {
        #expect(ConfigurationKeys.nearest(to: "tiebreakers", among: ["tie_breakers", "teams"]) == "tie_breakers")
        #expect(ConfigurationKeys.nearest(to: "tieBreakers", among: ["tie_breakers", "teams"]) == "tie_breakers")
        #expect(ConfigurationKeys.nearest(to: "colour", among: ["court", "group"]) == nil)
        #expect(ConfigurationKeys.nearest(to: "x", among: ["id"]) == nil)
        #expect(ConfigurationKeys.nearest(to: "rnak", among: ["rank", "group"]) == "rank")
        #expect(ConfigurationKeys.nearest(to: "winner", among: ["winner_of", "loser_of"]) == "winner_of")
    }
}

/// The security section, with real certificate files in a directory of each test's own.
@Suite("the security section")
final class SecurityConfigurationTests {
    let directory: URL
    let organiser: CurveKeyPair

    deinit { try? FileManager.default.removeItem(at: directory) }

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

    static let divisions = """
        teams:
          - { id: o1, name: O1, players: [{id: p1, name: P}] }
          - { id: o2, name: O2, players: [{id: p2, name: P}] }
          - { id: w1, name: W1, players: [{id: p3, name: P}] }
          - { id: w2, name: W2, players: [{id: p4, name: P}] }
        divisions:
          - { id: open, name: Open, teams: [o1, o2] }
          - { id: women, name: Women, teams: [w1, w2], tie_breakers: [points_scored] }
        seeds: { o1: 1, o2: 2 }
        groups:
          - { id: OA, teams: [o1, o2] }
        games:
          - { id: oa, home: o1, away: o2, group: OA }
          - { id: wf, home: w1, away: w2 }
          - { id: again, home: { loser_of: oa }, away: { winner_of: oa } }

        """

    @Test("divisions: each group and game takes its division from its teams, groups and slots; seeds are read")
    func divisions() throws {
        let schedule = try DaemonConfiguration.parse(Self.divisions, file: "t.yaml").tournament.schedule
        #expect(schedule.divisions.map(\.name) == ["Open", "Women"])
        #expect(schedule.divisions[1].tieBreakers == [.pointsScored])
        #expect(schedule.groups.map(\.division) == ["open"])
        #expect(schedule.games.map(\.division) == ["open", "women", "open"])
        #expect(schedule.seeds == ["o1": 1, "o2": 2])
    }

    @Test(
        "a tournament with divisions and seeds, written as YAML (tournament plan, dump), starts an equal one, the same bytes each time"
    )
    func writtenSetup() throws {
        let schedule = try DaemonConfiguration.parse(Self.divisions, file: "t.yaml").tournament.schedule
        var written: Set<String> = []
        // Each a new dictionary of seeds: a dictionary's order changes from one to the next.
        for _ in 0..<8 {
            var seeded = schedule
            let seeds = schedule.teams.keys.sorted().enumerated().map { ($0.element, $0.offset + 1) }
            seeded.seeds = Dictionary(uniqueKeysWithValues: seeds.shuffled())
            written.insert(try YAMLEncoder().encode(TournamentSetup(name: "Cup", schedule: seeded, otherGames: [])))
        }
        #expect(written.count == 1, "\(written)")
        let text = try #require(written.first)
        let again = try DaemonConfiguration.parse(text, file: "written.yaml").tournament.schedule
        #expect(again.divisions == schedule.divisions && again.games.map(\.division) == schedule.games.map(\.division))
        #expect(again.groups.map(\.division) == schedule.groups.map(\.division))
    }

    @Test(
        "divisions that do not hold are refused, naming the team, game or key",
        arguments: [
            (
                "  - { id: open, name: Open, teams: [o1, o2] }\n", "  - { id: open, name: Open, teams: [o1, o2, w1] }\n",
                "team w1 is in divisions open and women"
            ),
            (
                "  - { id: women, name: Women, teams: [w1, w2], tie_breakers: [points_scored] }\n",
                "  - { id: women, name: Women, teams: [w1] }\n", "team w2 is in no division"
            ),
            ("{ id: wf, home: w1, away: w2 }", "{ id: wf, home: w1, away: o2 }", "game wf is in division women, its o2 in open"),
            ("{ id: wf, home: w1, away: w2 }", "{ id: wf, home: w1, away: w2, division: u18 }", "game wf: unknown division u18"),
            ("seeds: { o1: 1, o2: 2 }", "seeds: { o1: 1, o9: 2 }", "seeds.o9: unknown team"),
            ("seeds: { o1: 1, o2: 2 }", "seeds: { o1: 0 }", "seeds.o1: a seed is 1"),
            ("{ id: open, name: Open,", "{ id: open, nmae: Open,", "divisions.0.nmae: unknown key; did you mean name?"),
        ])
    func divisionMistakes(original: String, replacement: String, expected: String) {
        let text = Self.divisions.replacingOccurrences(of: original, with: replacement)
        #expect(text != Self.divisions)
        do {
            _ = try DaemonConfiguration.parse(text, file: "t.yaml")
            Issue.record("accepted: \(replacement)")
        } catch {
            #expect(error.description.contains(expected), "got: \(error)")
        }
    }
}
