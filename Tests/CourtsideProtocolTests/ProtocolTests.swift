import CourtsideModel
import CourtsideProtocol
import CourtsideServer
import Foundation
import Testing
import ZeroMQ

@Suite("Requests on the wire")
struct RequestTests {
    func decode(_ json: String) -> Result<Request, CourtsideError> {
        Result { () throws(CourtsideError) in try Request.decode(Array(json.utf8)) }
    }

    @Test("every operation round-trips through its JSON form")
    func roundTrip() throws {
        let origin = CommandOrigin(clientID: "court-1", commandID: "17")
        let operations: [Request.Operation] = [
            .move(game: "g1", player: "ann", move: .twoPoints), .retract(game: "g1", version: 4),
            .clock(game: "g1", command: .startClock), .clock(game: "g1", command: .pauseClock),
            .createGame(game: "g3", home: "lions", away: "bears", court: "Court 3", rules: RuleSet(hardCap: 21)),
            .listGames, .snapshot(game: nil), .snapshot(game: "g2"), .timeout(game: "g1", side: .away), .schedule,
            .standings, .log(game: "g1"), .move(game: "g1", player: "ann", move: .freeThrow),
        ]
        for operation in operations {
            let request = try Request.decode(Request(origin: origin, operation: operation).encoded())
            #expect(request.operation == operation)
            #expect(request.origin == origin)
        }
    }

    @Test("the documented example decodes")
    func documentedExample() throws {
        let request = try decode(
            #"{"op":"move","client_id":"court-1","command_id":"17","game":"g1","player":"ann","move":"two_points"}"#
        ).get()
        #expect(request.operation == .move(game: "g1", player: "ann", move: .twoPoints))
    }

    @Test(
        "malformed requests get bad_request, unknown_operation or message_too_large",
        arguments: [
            ("", "bad_request"), ("[]", "bad_request"), (#"{"op":"move"}"#, "bad_request"),
            (#"{"op":"move","client_id":"k","command_id":"1","game":"g1","player":"ann"}"#, "bad_request"),
            (#"{"op":"move","client_id":"k","command_id":"1","game":"g1","player":"ann","move":"dunk"}"#, "bad_request"),
            (#"{"op":"clock","client_id":"k","command_id":"1","game":"g1","action":"reset"}"#, "bad_request"),
            (#"{"op":"move","client_id":"","command_id":"1"}"#, "bad_request"),
            (#"{"op":"teleport","client_id":"k","command_id":"1"}"#, "unknown_operation"),
            (
                #"{"op":"list_games","client_id":"k","command_id":"1","x":""# + String(repeating: "y", count: 17_000) + "\"}",
                "message_too_large"
            ),
        ])
    func malformed(json: String, code: String) {
        guard case .failure(let error) = decode(json) else {
            Issue.record("accepted \(json.prefix(80))")
            return
        }
        #expect(error.code.rawValue == code)
        #expect(!error.message.isEmpty)
    }

    @Test("a publish_draw may be up to 512 KiB; any other request over 16 KiB, or a draw over 512 KiB, is message_too_large")
    func drawSize() throws {
        var schedule = Schedule(teams: [:], games: [])
        schedule.courts = (0..<1_500).map { "Court \($0)" }
        let draw = PublishedDraw(schedule: schedule, randomSeed: 42, event: "tournament: X\n")
        let request = Request(
            origin: CommandOrigin(clientID: "desk", commandID: "d1"),
            operation: .changeTournament(.drawPublished(draw), reason: nil))
        let body = request.encoded()
        #expect(body.count > ProtocolLimits.maxRequestBytes && body.count < ProtocolLimits.maxDrawBytes)
        #expect(try Request.decode(body).operation == request.operation)
        // A draw's op named inside another request's text does not let it through.
        let other =
            #"{"op":"list_games","client_id":"k","command_id":"1","x":"\"publish_draw\""# + String(repeating: "y", count: 17_000)
            + "\"}"
        #expect(throws: CourtsideError.self) { try Request.decode(Array(other.utf8)) }
        do {
            _ = try Request.decode(Array(other.utf8))
        } catch {
            #expect(error.code == .messageTooLarge, "\(error)")
        }
        schedule.courts = (0..<60_000).map { "Court \($0)" }
        let huge = Request(
            origin: CommandOrigin(clientID: "desk", commandID: "d2"),
            operation: .changeTournament(.drawPublished(PublishedDraw(schedule: schedule)), reason: nil))
        do {
            _ = try Request.decode(huge.encoded())
            Issue.record("a draw over 512 KiB was taken")
        } catch {
            #expect(error.code == .messageTooLarge, "\(error)")
        }
    }

    @Test("every error code is listed in docs/PROTOCOL.md")
    func codesAreDocumented() throws {
        let protocolDocument = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/PROTOCOL.md")
        let text = try String(contentsOf: protocolDocument, encoding: .utf8)
        for code in allErrorCodes {
            #expect(text.contains("`\(code.rawValue)`"), "docs/PROTOCOL.md does not list \(code)")
        }
    }
}

@Suite("Epochs")
struct EpochTests {
    @Test("an epoch's leading number orders it; an epoch without one is never older")
    func order() {
        #expect(Epoch.number("3-1a2b3c4d") == 3 && Epoch.number("1764160000123-9f3a61c2") == 1_764_160_000_123)
        #expect(Epoch.number("x-1") == nil && Epoch.number("") == nil)
        #expect(
            Epoch.isOlder("2-aa", than: "3-bb") && !Epoch.isOlder("3-bb", than: "2-aa") && !Epoch.isOlder("3-aa", than: "3-bb"))
        #expect(!Epoch.isOlder("x-unnumbered", than: "3-bb") && !Epoch.isOlder("3-bb", than: "x-unnumbered"))
    }
}

@Suite("The config file")
struct ConfigurationTests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("config/tournament.yaml").path

    @Test("the sample tournament loads: 4 teams of 3, 2 games, 127.0.0.1 endpoints")
    func sample() throws {
        let configuration = try DaemonConfiguration.load(path: Self.sample)
        #expect(configuration.tournament.teams.count >= 4)
        #expect(configuration.tournament.teams.values.allSatisfy { $0.players.count == 3 })
        let schedule = configuration.tournament.schedule
        #expect(schedule.games.count >= 2)
        #expect(configuration.commandEndpoint == "tcp://127.0.0.1:5555")
        #expect(configuration.eventEndpoint == "tcp://127.0.0.1:5556")
        #expect(schedule.games[0].rules == .standard)
        #expect(schedule.games[1].rules.hardCap == 21 && schedule.games[1].rules.timeLimit != nil)
        #expect(schedule.groups.map(\.id) == ["A", "B"])
        #expect(schedule.rounds == ["Group stage", "Finals"])
        #expect(schedule.game("third")?.home == .loser(of: "g1"))
        // A preset of the config's own, inheriting from fiba3x3.
        let final = try #require(schedule.game("final")?.rules)
        #expect(final.preset == "finals-3x3" && final.targetScore == 15 && final.timeoutsPerTeam == 1)
        #expect(final.timeLimit?.milliseconds == 420_000)
    }

    @Test(
        "the venue's config loads given its keys and systemd's credentials: PostgreSQL on two hosts, a 2 s lease, an advertised endpoint"
    )
    func venue() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("venue-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let venue = URL(fileURLWithPath: Self.sample).deletingLastPathComponent().appendingPathComponent("venue-postgresql.yaml")
        let path = directory.appendingPathComponent("venue.yaml").path
        try FileManager.default.copyItem(atPath: venue.path, toPath: path)
        for name in ["server", "organiser", "court-1", "court-2"] {
            _ = try ZMQCertificate.write(
                try CurveKeyPair.generate(), name: name, directory: directory.appendingPathComponent("keys").path)
        }
        try "secret\n".write(to: directory.appendingPathComponent("postgresql.password"), atomically: true, encoding: .utf8)
        setenv("CREDENTIALS_DIRECTORY", directory.path, 1)
        defer { unsetenv("CREDENTIALS_DIRECTORY") }
        let configuration = try DaemonConfiguration.load(path: path)
        let postgresql = try #require(configuration.postgresql)
        #expect(postgresql.hosts.map(\.host) == ["db1.venue.lan", "db2.venue.lan"] && postgresql.tls == .require)
        #expect(postgresql.lease == .seconds(2) && postgresql.passwordFile == directory.path + "/postgresql.password")
        #expect(configuration.advertisedEndpoint == "tcp://court-a.venue.lan:5555" && configuration.security != nil)
        // Outside systemd the credentials directory is unknown: said, naming the key.
        unsetenv("CREDENTIALS_DIRECTORY")
        #expect(throws: ConfigurationError.self) { try DaemonConfiguration.load(path: path) }
    }

    @Test("defaults apply when sections are missing")
    func defaults() throws {
        let configuration = try DaemonConfiguration.parse(
            "teams:\n  - { id: a, name: A, players: [{id: p, name: P}] }\n", file: "t.yaml")
        #expect(configuration.commandEndpoint == DaemonConfiguration.defaultCommandEndpoint)
        #expect(configuration.dataDirectory == "data")
        #expect(configuration.heartbeatMilliseconds <= 1000)
        #expect(configuration.tournament.schedule.games.isEmpty)
        // The day's pace, as `tournament plan` writes it; a game of no length is refused.
        let paced = try DaemonConfiguration.parse(
            "timing: {game_minutes: 10, changeover_minutes: 4, rest_minutes: 20}\n", file: "t.yaml")
        #expect(paced.tournament.schedule.timing == DayTiming(gameMinutes: 10, changeoverMinutes: 4, restMinutes: 20))
        #expect(throws: ConfigurationError.self) {
            try DaemonConfiguration.parse("timing: {game_minutes: 0, changeover_minutes: 4, rest_minutes: 20}\n", file: "t.yaml")
        }
        // No teams at all: a tournament waiting for its draw.
        let waiting = try DaemonConfiguration.parse("tournament: Summer 3x3\n", file: "t.yaml")
        #expect(waiting.tournament.schedule.teams.isEmpty && waiting.tournament.name == "Summer 3x3")
    }

    @Test(
        "a broken config names the file, the key and the problem",
        arguments: [
            ("teams: 3\n", "t.yaml: teams: should be a list"), ("teams: [\n", "t.yaml: not valid YAML"),
            ("teams:\n  - { name: A, players: [{id: p, name: P}] }\n", "t.yaml: teams.0.id: is required but missing"),
            (
                "teams:\n  - { id: a, name: A, players: [{id: p, name: P}] }\n  - { id: a, name: B, players: [{id: q, name: Q}] }\n",
                "t.yaml: teams.1.id: team a is defined twice"
            ),
            (
                "teams:\n  - { id: a, name: A, players: [{id: p, name: P}] }\ngames:\n  - { id: g, home: a, away: zz }\n",
                "t.yaml: games.0.away: unknown team \"zz\""
            ),
            (
                "teams:\n  - { id: a, name: A, players: [{id: p}] }\n",
                "t.yaml: teams.0.players.0.name: is required but missing"
            ),
            (
                "transport: {heartbeat_ms: 5000}\nteams:\n  - { id: a, name: A, players: [{id: p, name: P}] }\n",
                "t.yaml: transport.heartbeat_ms: must be between 10 and 1000"
            ),
            (
                "rules: {win_by: 0}\nteams:\n  - { id: a, name: A, players: [{id: p, name: P}] }\n",
                "t.yaml: rules: win_by must be between 1 and 1000"
            ),
            (
                "rules: nba\nteams:\n  - { id: a, name: A, players: [{id: p, name: P}] }\n",
                "t.yaml: rules: unknown preset \"nba\""
            ),
            (
                "presets:\n  - { name: x, inherits: nope }\nteams:\n  - { id: a, name: A, players: [{id: p, name: P}] }\n",
                "t.yaml: presets.0.inherits: unknown preset \"nope\""
            ),
            (
                "teams:\n  - { id: a, name: A, players: [{id: p, name: P}] }\n  - { id: b, name: B, players: [{id: q, name: Q}] }\n"
                    + "rounds:\n  - name: R\n    games:\n      - { id: f, home: {winner_of: zz}, away: b }\n",
                "t.yaml: games: game f: winner of zz names no scheduled game"
            ),
        ])
    func broken(text: String, message: String) {
        do {
            _ = try DaemonConfiguration.parse(text, file: "t.yaml")
            Issue.record("accepted a broken config")
        } catch {
            #expect(error.description.hasPrefix(message), "got: \(error.description)")
        }
    }
}
