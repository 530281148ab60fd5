import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import Foundation
import Testing

/// The standings and the bracket follow the sync contract like the events do: a lost one is
/// noticed within two heartbeats (they name the last tables sent), and no view claims a sequence
/// its content is older than.
@Suite("the tables follow the sync contract", .serialized)
struct TablesSyncTests {
    struct StandingsBody: Decodable {
        var sequence: Int64
        var inSync: Bool
        var standings: [GroupStandings]
        enum CodingKeys: String, CodingKey {
            case sequence, standings
            case inSync = "in_sync"
        }
    }

    struct ScheduleBody: Decodable {
        var sequence: Int64
        var bracketSequence: Int64
        var inSync: Bool
        var bracket: [BracketEntry]
        enum CodingKeys: String, CodingKey {
            case sequence, bracket
            case bracketSequence = "bracket_sequence"
            case inSync = "in_sync"
        }
    }

    static func standings(_ web: WebProcess) async throws -> StandingsBody {
        try JSONDecoder().decode(StandingsBody.self, from: try await web.get("/api/standings").1)
    }

    static func schedule(_ web: WebProcess) async throws -> ScheduleBody {
        try JSONDecoder().decode(ScheduleBody.self, from: try await web.get("/api/schedule").1)
    }

    @Test("a bracket game's first move, without the clock, sends the bracket: display and /api/schedule say live")
    func firstMoveGoesLive() async throws {
        let daemon = try DaemonProcess(schedule: TournamentProtocolTests.schedule)
        let web = try WebProcess(daemon)
        #expect(await web.waitInSync(), "\(web.log())")
        let display = try DisplaySync(daemon)
        #expect(display.bracket.first { $0.game == "g1" }?.state == .ready)

        let reply = try Keeper(daemon.commandEndpoint).send(.move(game: "g1", player: "ann", move: .onePoint))
        let moved = try #require(reply.sequence)
        #expect(
            try display.pump(seconds: 10) {
                display.bracketSequence >= moved && display.bracket.first { $0.game == "g1" }?.state == .live
            })
        // From the daemon's own `_bracket`, not from a fetch after a heartbeat.
        #expect(display.tablesRefreshes == 0 && display.resyncs == 0)

        let schedule = try await poll {
            try await Self.schedule(web)
        } until: {
            $0.bracketSequence >= moved
        }
        let g1 = schedule.bracket.first { $0.game == "g1" }
        #expect(g1?.state == .live && g1?.score == SideValues(home: 1, away: 0), "\(schedule)")
        #expect(schedule.inSync)
    }

    @Test(
        "lost standings and bracket (drill publish.drop_tables): the reference display, display.py, courtside-web's API and /healthz correct within 2 heartbeats"
    )
    func lostTables() async throws {
        let daemon = try DaemonProcess(
            schedule: TournamentProtocolTests.schedule, environment: ["COURTSIDE_FAULT": "publish.drop_tables"])
        let web = try WebProcess(daemon)
        #expect(await web.waitInSync(), "\(web.log())")
        let display = try DisplaySync(daemon)
        let pythonLog = daemon.directory.appendingPathComponent("display.py.log").path
        let python = try PythonDisplay.start(
            command: daemon.commandEndpoint, events: daemon.eventEndpoint, errorLog: pythonLog)
        // Following before the result, or it would take the tables from its first snapshot.
        let following = { (try? String(contentsOfFile: pythonLog, encoding: .utf8))?.contains("following") == true }
        #expect(keepTrying(seconds: 20, until: following) { usleep(50_000) })

        // Lions beat Tigers 16 - 0: g1 final, group A complete, and the final's home team known.
        let keeper = try Keeper(daemon.commandEndpoint)
        var won: Int64 = 0
        for _ in 0..<8 { won = try keeper.send(.move(game: "g1", player: "ann", move: .twoPoints)).sequence ?? won }
        #expect(daemon.log().contains("publish.drop_tables"))

        // The reference display: the winning event arrives, its tables do not; the heartbeats
        // after it name them, and the display fetches them.
        #expect(try display.pump(seconds: 10) { display.sequence >= won })
        let heartbeatsAtResult = display.heartbeatsSeen
        #expect(try display.pump(seconds: 10) { display.standings.first { $0.group == "A" }?.complete == true })
        #expect(
            display.heartbeatsSeen - heartbeatsAtResult <= 2, "took \(display.heartbeatsSeen - heartbeatsAtResult) heartbeats")
        #expect(display.tablesRefreshes >= 1, "the drill dropped nothing: the test proves nothing")
        #expect(display.resyncs == 0)
        #expect(display.schedule.first { $0.game == "g1" }?.state == .final)
        #expect(display.bracket.first { $0.game == "final" }?.homeTeam == "lions")

        // courtside-web: its tables, and its claim to be in sync, are right again.
        let standings = try await poll {
            try await Self.standings(web)
        } until: {
            $0.standings.first { $0.group == "A" }?.complete == true
        }
        #expect(standings.standings.first { $0.group == "A" }?.complete == true, "\(standings)")
        #expect(standings.sequence >= won && standings.inSync)
        let schedule = try await poll {
            try await Self.schedule(web)
        } until: {
            $0.bracket.first { $0.game == "final" }?.homeTeam == "lions"
        }
        #expect(schedule.bracket.first { $0.game == "g1" }?.state == .final)
        #expect(schedule.bracket.first { $0.game == "final" }?.homeTeam == "lions", "\(schedule)")
        #expect(schedule.bracketSequence >= won && schedule.inSync)
        #expect(try await web.get("/healthz").0 == 200)

        // display.py, from docs/PROTOCOL.md alone: given a few heartbeats more, it has them too.
        usleep(1_000_000)
        python.write("\(won)\n")
        struct Result: Decodable {
            var standings: [GroupStandings]
            var standingsSequence: Int64
            var bracket: [BracketEntry]
            var tablesFetched: Int
            enum CodingKeys: String, CodingKey {
                case standings, bracket
                case standingsSequence = "standings_sequence"
                case tablesFetched = "tables_fetched"
            }
        }
        let output = python.readOutput(seconds: 20)
        let result = try JSONDecoder().decode(Result.self, from: Data(output.utf8))
        #expect(result.standings.first { $0.group == "A" }?.complete == true, "\(output)")
        #expect(result.bracket.first { $0.game == "final" }?.homeTeam == "lions")
        #expect(result.tablesFetched >= 1 && result.standingsSequence >= won)
    }

    @Test("/api/schedule's scores are those of the sequence it claims, basket by basket")
    func scheduleScoresAtItsSequence() async throws {
        let daemon = try DaemonProcess(schedule: TournamentProtocolTests.schedule)
        let web = try WebProcess(daemon)
        #expect(await web.waitInSync(), "\(web.log())")
        let keeper = try Keeper(daemon.commandEndpoint)
        // g1's home score after each acknowledged sequence.
        var scores: [(sequence: Int64, home: Int)] = []
        var claims = 0
        for index in 1...12 {
            let reply = try keeper.send(.move(game: "g1", player: "ann", move: .onePoint))
            scores.append((try #require(reply.sequence), index))
            // Read at once, whatever the gateway has: the score must be the one of the sequence it claims.
            let schedule = try await Self.schedule(web)
            guard let claimed = scores.last(where: { $0.sequence <= schedule.sequence }) else { continue }
            claims += 1
            let g1 = schedule.bracket.first { $0.game == "g1" }
            #expect(g1?.score?.home == claimed.home, "claimed \(schedule.sequence), showed \(String(describing: g1?.score))")
        }
        #expect(claims > 0)
        let last = try #require(scores.last)
        let settled = try await poll {
            try await Self.schedule(web)
        } until: {
            $0.sequence >= last.sequence
        }
        #expect(settled.bracket.first { $0.game == "g1" }?.score == SideValues(home: last.home, away: 0))
        #expect(settled.bracket.first { $0.game == "g1" }?.state == .live)
    }

    /// Forty games: the round of beats then visits each game once in 20 heartbeats, so only the
    /// beats a change brings can tell a one-game display of g1 in time.
    static let fortyGames =
        "games:\n" + (1...40).map { "  - { id: g\($0), home: lions, away: tigers, court: Court \($0) }" }.joined(separator: "\n")

    @Test("a one-game display whose game's event and next beat are lost (drill publish.drop_move) is right within 2 heartbeats")
    func oneGameLostEventAndBeat() throws {
        let daemon = try DaemonProcess(schedule: Self.fortyGames, environment: ["COURTSIDE_FAULT": "publish.drop_move"])
        let board = try DisplaySync(
            endpoints: Endpoints(command: daemon.commandEndpoint, events: daemon.eventEndpoint), game: "g1",
            client: CommandClient(endpoint: daemon.commandEndpoint, clientID: "court-1-tv"))
        // Read whatever is queued, so the heartbeats counted below come after the move.
        let seen = board.heartbeatsSeen
        #expect(try board.pump(seconds: 5) { board.heartbeatsSeen > seen })

        let heartbeatsBefore = board.heartbeatsSeen
        let reply = try Keeper(daemon.commandEndpoint).send(.move(game: "g1", player: "ann", move: .twoPoints))
        let version = try #require(reply.version)
        #expect(try board.pump(seconds: 10) { board.games["g1"]?.game.version == version })
        // One heartbeat may fall between the pump above and the move's publication.
        #expect(board.heartbeatsSeen - heartbeatsBefore <= 3, "took \(board.heartbeatsSeen - heartbeatsBefore) heartbeats")
        #expect(board.lastResync?.reason == .beatAhead, "the drill dropped nothing: the test proves nothing")
        #expect(board.games["g1"]?.game.score == SideValues(home: 2, away: 0))
    }
}
