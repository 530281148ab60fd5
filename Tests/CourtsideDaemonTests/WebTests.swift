import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// courtside-web in front of the real daemon, read over HTTP as browsers and programs do.
final class WebProcess {
    let process: ChildProcess
    let base: String
    let logPath: String
    /// Its join codes, devices and sessions (`--state-dir`), in the daemon's directory.
    let stateDirectory: String

    /// The gateway's state (join codes, devices, sessions) beside the daemon's data.
    static func stateDirectory(_ daemon: DaemonProcess) -> URL { daemon.directory.appendingPathComponent("web-data") }

    /// The built courtside-web next to this test binary.
    static var executable: String {
        DaemonProcess.executable.deletingLastPathComponent().appendingPathComponent("courtside-web").path
    }

    /// Starts courtside-web for `daemon`, on `port` (a free one when nil), with `arguments` added.
    init(_ daemon: DaemonProcess, arguments: [String] = [], port: Int? = nil) throws {
        let port = try port.map(UInt16.init) ?? freePort()
        base = "http://127.0.0.1:\(port)"
        logPath = daemon.directory.appendingPathComponent("courtside-web.log").path
        stateDirectory = Self.stateDirectory(daemon).path
        process = try ChildProcess(
            Self.executable,
            [
                "--command-endpoint", daemon.commandEndpoint, "--event-endpoint", daemon.eventEndpoint, "--listen",
                "127.0.0.1:\(port)", "--state-dir", stateDirectory,
            ] + arguments, output: .file(logPath), error: .file(logPath))
    }

    /// The port it listens on.
    var port: Int { Int(base.split(separator: ":").last!)! }

    /// GET a path: the status and the body.
    func get(_ path: String) async throws -> (Int, Data) {
        var request = URLRequest(url: URL(string: base + path)!)
        request.timeoutInterval = 5
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    /// Waits until /healthz answers 200. The deadline judges when a request was sent, as
    /// ``poll(seconds:_:until:)`` does: in the full suite, tests that block the cooperative pool
    /// (2 threads here) kept this task from running past the deadline while the gateway was
    /// long in sync, and no request after that was sent.
    func waitInSync(seconds: Double = 30) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while process.isRunning {
            let sent = ContinuousClock.now
            if let (status, _) = try? await get("/healthz"), status == 200 { return true }
            if sent >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    func log() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// `court`'s PIN as `courtside-web codes show` prints it from this gateway's state (a code is
    /// made for a court that has none).
    func pin(court: String = "Court 1") throws -> String {
        let (_, line) = try ChildProcess.run(
            Self.executable, ["codes", "show", "--state-dir", stateDirectory, "--court", court], seconds: 30)
        let pin = line.components(separatedBy: "PIN ").dropFirst().first?.split(separator: " ").first
        guard let pin else { throw DaemonError("no PIN for \(court) in: \(line)") }
        return String(pin)
    }

    /// A folder next to the build for a browser check's screenshots, for a person to look at after the run.
    static func screenshots(_ name: String) throws -> URL {
        let folder = DaemonProcess.executable.deletingLastPathComponent().appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    deinit {
        process.signal(SIGTERM)
        if process.wait(seconds: 5) == nil { process.signal(SIGKILL) }
    }
}

/// Prometheus text format: every sample line as `name{labels}` and its value; nil when a line
/// does not parse.
func prometheusSamples(_ text: String) -> [String: Double]? {
    var samples: [String: Double] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
        guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { return nil }
        let name = String(line[..<space])
        guard name.first.map({ $0.isLetter || $0 == "_" }) == true else { return nil }
        samples[name] = value
    }
    return samples
}

/// Reads until `done` holds and returns the last value read, or the first one read after
/// `seconds`. The deadline judges when a read was sent, not when the loop next ran: in the full
/// suite, tests that block the shared cooperative pool can keep this task from running for
/// longer than the deadline, and its first read after that must still be a fresh one.
func poll<Value>(
    seconds: Double = 5, _ read: () async throws -> Value, until done: (Value) -> Bool
) async rethrows -> Value {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while true {
        let sent = ContinuousClock.now
        let value = try await read()
        if done(value) || sent >= deadline { return value }
        try? await Task.sleep(for: .milliseconds(50))
    }
}

/// GET over plain HTTP: the status and the body.
func httpGet(_ url: String) async throws -> (Int, String) {
    var request = URLRequest(url: URL(string: url)!)
    request.timeoutInterval = 5
    let (data, response) = try await URLSession.shared.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
}

@Suite("Prometheus metrics", .serialized)
struct MetricsTests {
    @Test("courtsided --metrics-listen serves /metrics that parses, and its counters move with a command")
    func daemonMetrics() async throws {
        let port = try freePort()
        let daemon = try DaemonProcess(arguments: ["--metrics-listen", "127.0.0.1:\(port)"])
        let url = "http://127.0.0.1:\(port)/metrics"
        let moved = #"courtside_commands_total{op="move",result="ok"}"#
        // The endpoint is a service of its own: it may start listening just after READY=1 (and
        // later still while the rest of the suite loads both cores).
        let first = await poll(seconds: 30, { try? await httpGet(url) }, until: { $0 != nil })
        let firstText = try #require(first).1
        let before = try #require(prometheusSamples(firstText))
        try Keeper(daemon.commandEndpoint).send(.move(game: "g1", player: "ann", move: .twoPoints))
        // The move is answered right after its commit, and its event published just after that.
        let published = "courtside_events_published_total"
        let (status, text) = try await poll(
            seconds: 30, { try await httpGet(url) }, until: { prometheusSamples($0.1)?[published] != before[published] })
        #expect(status == 200)
        let after = try #require(prometheusSamples(text), "\(text)")
        #expect(after[moved] == (before[moved] ?? 0) + 1, "\(text)")
        #expect((after["courtside_events_published_total"] ?? 0) > (before["courtside_events_published_total"] ?? 0))
        #expect((after["courtside_commit_batch_commands_count"] ?? 0) >= 1)
        #expect(after.keys.contains { $0.hasPrefix("courtside_commit_duration_seconds_bucket") })
        #expect(after.keys.contains { $0.hasPrefix("courtside_command_duration_seconds_bucket") })
        // The games by status, one series for each status: the sample's two games in all.
        let byStatus = after.filter { $0.key.hasPrefix("courtside_games{") }
        #expect(byStatus.count == GameStatus.allCases.count, "\(text)")
        #expect(byStatus.values.reduce(0, +) == 2, "\(text)")
    }

    @Test("courtside-web's /metrics parses and counts events relayed")
    func webMetrics() async throws {
        let daemon = try DaemonProcess()
        let web = try WebProcess(daemon)
        #expect(await web.waitInSync(), "\(web.log())")
        try Keeper(daemon.commandEndpoint).send(.move(game: "g1", player: "ann", move: .twoPoints))
        let relayed = try await poll {
            let samples = prometheusSamples(try await httpGet(web.base + "/metrics").1)
            #expect(samples != nil)
            return samples?["courtside_web_events_relayed_total"] ?? 0
        } until: {
            $0 >= 1
        }
        #expect(relayed >= 1)
    }
}

@Suite("courtside-web over the real daemon", .serialized)
struct WebTests {
    struct GamesBody: Decodable {
        var sequence: Int64
        var inSync: Bool
        var games: [GameSummary]
        enum CodingKeys: String, CodingKey {
            case sequence, games
            case inSync = "in_sync"
        }
    }

    /// g1 counts team fouls in tiers (2 FT from the 2nd, 2 FT and the ball from the 4th) and
    /// allows 2 time-outs a team, so a few moves show every part of a court's TV.
    static let tieredGames = """
        games:
          - id: g1
            home: lions
            away: tigers
            court: Court 1
            rules: { inherits: pickup-15w2, team_fouls: { free_throws_from: 2, possession_from: 4 }, timeouts_per_team: 2 }
          - { id: g2, home: bears, away: wolves, court: Court 2 }
        """

    @Test("a court's TV opened late: its first render and /api/events' state carry the last plays, fouls and time-outs left")
    func courtOpenedLate() async throws {
        let daemon = try DaemonProcess(schedule: Self.tieredGames)
        let web = try WebProcess(daemon)
        #expect(await web.waitInSync(), "\(web.log())")
        // Eleven plays (the 9th undone), a time-out, and three away fouls: the last ten plays are v3 to v14.
        let keeper = try Keeper(daemon.commandEndpoint)
        let moves: [(PlayerID, MoveKind)] = [
            ("ann", .twoPoints), ("bo", .foul), ("di", .foul), ("ed", .foul), ("flo", .foul), ("cy", .assist), ("ann", .onePoint),
        ]
        var replies = try keeper.pipeline(moves.map { .move(game: "g1", player: $0.0, move: $0.1) })
        replies.append(try keeper.send(.retract(game: "g1", version: 8)))
        replies.append(try keeper.send(.timeout(game: "g1", side: .home)))
        replies += try keeper.pipeline(
            [("di", MoveKind.rebound), ("ed", .twoPoints), ("cy", .rebound), ("bo", .rebound)].map {
                .move(game: "g1", player: $0.0, move: $0.1)
            })
        #expect(replies.allSatisfy { $0.ok }, "\(replies.filter { !$0.ok })")
        #expect(replies.last?.version == 14)

        struct GameBody: Decodable { var game: Game }
        // The gateway has the last event a moment after its reply, or resyncs at the next
        // heartbeat (200 ms here) if it missed it: 5 s is 25 heartbeats.
        let version = await poll {
            (try? JSONDecoder().decode(GameBody.self, from: try await web.get("/api/games/g1").1))?.game.version ?? 0
        } until: {
            $0 == 14
        }
        #expect(version == 14)

        // The server's first render, before any script runs.
        let page = String(decoding: try await web.get("/games/g1").1, as: UTF8.self)
        let plays = page.components(separatedBy: "data-version=\"").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
        #expect(plays == [14, 13, 12, 11, 8, 7, 6, 5, 4, 3], "\(page)")
        #expect(page.contains(#"<li class="home undone" data-version="8"><span class="who">Ann</span>"#), "\(page)")
        #expect(page.contains(#"<span class="what">+1</span> <span class="tag">undone</span>"#))
        #expect(page.contains(#"data-field="fouls-away" data-tier="two_free_throws""#), "\(page)")
        #expect(
            page.contains(#"data-field="fouls-away-count">3<"#) && page.contains(#"data-field="fouls-away-tier">bonus: 2 FT<"#))
        #expect(page.contains(#"data-field="fouls-away-next">2 FT + ball from foul 4<"#))
        #expect(
            page.contains(#"data-field="fouls-home" data-tier="none""#) && page.contains(#"data-field="fouls-home-count">1<"#))
        #expect(page.contains(#"data-field="timeouts-home-label">time-outs left<"#), "\(page)")
        #expect(page.contains(#"data-field="timeouts-home-count">1<"#) && page.contains(#"data-field="timeouts-home-pips">●○<"#))
        #expect(page.contains(#"data-field="timeouts-away-count">2<"#))

        // /api/events: the state carries the same window, for the page to draw and keep.
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("python/web_events.py")
        // It ends at the first event; its 60 s are for a busy machine (a run where this test took
        // 88 s in all had no event within the 20 s it had then).
        let reader = try ChildProcess("/usr/bin/python3", [script.path, web.base + "/api/events", "1", "60"], output: .capture)
        // Its first line is the state: from then on every event reaches it.
        let stateLine = try #require(await reader.line(within: 60), "the reader had no state")
        #expect(try keeper.send(.move(game: "g1", player: "flo", move: .foul)).ok)
        let lines = (stateLine + "\n" + (await reader.output(within: 60))).split(separator: "\n")
        // What the pages bind: the game's GameViewModel, as `view` in the state and in each event.
        struct View: Decodable {
            struct TeamLine: Decodable {
                struct Board: Decodable {
                    var fouls: Int
                    var tier: String
                    var tierText: String
                    var timeoutPips: String
                }
                var name: String
                var score: Int
                var board: Board
            }
            struct PlayLine: Decodable {
                var version: Int
                var playerName: String
                var isUndone: Bool
            }
            var score: String
            var statusText: String
            var home: TeamLine
            var away: TeamLine
            var plays: [PlayLine]
        }
        struct StateLine: Decodable {
            struct Body: Decodable {
                struct CourtGame: Decodable {
                    var game: GameID
                    var home: Team
                    var state: LiveState
                    var rules: RuleSet
                    var plays: [Play]
                    var view: View
                }
                var games: [CourtGame]
            }
            var event: String
            var data: Body
        }
        let state = try JSONDecoder().decode(StateLine.self, from: Data(try #require(lines.first).utf8))
        #expect(state.event == "state")
        let g1 = try #require(state.data.games.first { $0.game == "g1" })
        #expect(g1.plays.map(\.version) == [3, 4, 5, 6, 7, 8, 11, 12, 13, 14])
        #expect(g1.plays.first { $0.version == 8 }?.retractedBy == 9)
        #expect(g1.plays.filter { $0.retractedBy != nil }.count == 1)
        #expect(g1.rules.teamFouls == TeamFoulRules(freeThrowsFrom: 2, possessionFrom: 4) && g1.rules.timeoutsPerTeam == 2)
        #expect(g1.state.teamFouls == SideValues(home: 1, away: 3) && g1.state.timeoutsUsed == SideValues(home: 1, away: 0))
        #expect(g1.home.players.map(\.name) == ["Ann", "Bo", "Cy"])
        #expect(g1.view.plays.map(\.version) == [14, 13, 12, 11, 8, 7, 6, 5, 4, 3])
        #expect(g1.view.plays.filter(\.isUndone).map(\.playerName) == ["Ann"])
        #expect(g1.view.away.board.fouls == 3 && g1.view.away.board.tier == "two_free_throws")
        #expect(g1.view.away.board.tierText == "bonus: 2 FT" && g1.view.home.board.timeoutPips == "●○")
        #expect(g1.view.score == "2 - 2" && g1.view.home.name == "Lions")

        // The live foul: the protocol's event message, with the view right after it.
        struct EventLine: Decodable {
            struct Body: Decodable {
                var version: Int
                var state: LiveState
                var view: View
            }
            var event: String
            var data: Body
        }
        let event = try #require(
            lines.compactMap { try? JSONDecoder().decode(EventLine.self, from: Data($0.utf8)) }.first { $0.event == "event" },
            "the live foul follows the state; the reader read: \(lines.map { $0.prefix(300) })")
        #expect(event.data.version == 15 && event.data.state.teamFouls.away == 4)
        #expect(event.data.view.away.board.fouls == 4 && event.data.view.away.board.tier == "two_free_throws_and_possession")
        #expect(event.data.view.plays.first?.version == 15 && event.data.view.plays.first?.playerName == "Flo")
    }

    @Test("the API serves the daemon's games and follows a move; /healthz tracks the daemon; pages render")
    func api() async throws {
        let daemon = try DaemonProcess()
        let web = try WebProcess(daemon)
        #expect(await web.waitInSync(), "\(web.log())")
        let (status, data) = try await web.get("/api/games")
        #expect(status == 200)
        let games = try JSONDecoder().decode(GamesBody.self, from: data)
        #expect(games.games.map(\.game) == ["g1", "g2"])
        #expect(games.inSync)

        try Keeper(daemon.commandEndpoint).send(.move(game: "g1", player: "ann", move: .twoPoints))
        let score = try await poll {
            let (_, body) = try await web.get("/api/games")
            return try JSONDecoder().decode(GamesBody.self, from: body).games.first { $0.game == "g1" }?.state.score.home ?? 0
        } until: {
            $0 == 2
        }
        #expect(score == 2)
        #expect(try await web.get("/api/games/g1").0 == 200)
        #expect(try await web.get("/api/games/nope").0 == 404)
        #expect(try await web.get("/api/standings").0 == 200)
        #expect(try await web.get("/api/schedule").0 == 200)
        let (pageStatus, page) = try await web.get("/games/g1")
        #expect(pageStatus == 200)
        #expect(String(decoding: page, as: UTF8.self).contains("Lions"))
        #expect(String(decoding: try await web.get("/").1, as: UTF8.self).contains("Tigers"))
        #expect(String(decoding: try await web.get("/static/app.js").1, as: UTF8.self).contains("bind.follow("))
        #expect(String(decoding: try await web.get("/static/bind.js").1, as: UTF8.self).contains("EventSource"))
        let overlay = String(decoding: try await web.get("/overlay/g1").1, as: UTF8.self)
        #expect(overlay.contains("class=\"overlay") && overlay.contains("Lions"))
        #expect(
            String(decoding: try await web.get("/static/style.css").1, as: UTF8.self).contains(
                "body.overlay { background: transparent"))
        let box = String(decoding: try await web.get("/games/g1/box").1, as: UTF8.self)
        #expect(box.contains("Ann") && box.contains("box score"))
        #expect(try await web.get("/results").0 == 200)

        // The daemon gone: the gateway says so, then recovers with the daemon.
        daemon.signal(SIGSTOP)
        // Judged by when each /healthz was sent (poll): a loop judged by when it next ran missed
        // the 503 in one CI run, its task kept off the shared pool past the deadline.
        let unhealthy = await poll(seconds: 15) {
            (try? await web.get("/healthz").0) == 503
        } until: {
            $0
        }
        #expect(unhealthy)
        daemon.signal(SIGCONT)
        #expect(await web.waitInSync())
    }

    @Test(
        "/api/events: the state first, then every event of a 1,000-move burst in order, or a fresh state in place of what a starved reader missed"
    )
    func events() async throws {
        let daemon = try DaemonProcess()
        let web = try WebProcess(daemon)
        #expect(await web.waitInSync(), "\(web.log())")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("python/web_events.py")
        let reader = try ChildProcess(
            "/usr/bin/python3", [script.path, web.base + "/api/events", "1000", "60"], output: .capture)
        // Its first line is the state: from then on every event reaches it.
        let stateLine = try #require(await reader.line(within: 20), "the reader had no state")
        let keeper = try Keeper(daemon.commandEndpoint)
        let replies = try keeper.pipeline(
            (0..<1000).map {
                .move(game: $0.isMultiple(of: 2) ? "g1" : "g2", player: $0.isMultiple(of: 2) ? "di" : "jo", move: .rebound)
            })
        #expect(replies.allSatisfy { $0.error == nil })
        let lines = (stateLine + "\n" + (await reader.output(within: 60))).split(separator: "\n")
        struct Line: Decodable {
            var event: String?
            var data: EventMessage?
        }
        let first = lines.first.map { String($0) } ?? ""
        #expect(first.contains("\"event\": \"state\""), "\(first.prefix(200))")
        // A reader the machine starves for over a second is sent a fresh state in place of what
        // it missed (EventStreamRoster): then the events after that state run on to the end.
        let resent = lines.dropFirst().lastIndex { $0.contains("\"event\": \"state\"") }
        let events = lines[(resent ?? 0)...].compactMap { try? JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
            .compactMap(\.data)
        if resent == nil { #expect(events.count == 1000) }
        let sequences = events.map(\.sequence)
        #expect(
            sequences.last == replies.compactMap(\.sequence).max(), "the stream ended at \(String(describing: sequences.last))")
        #expect(
            zip(sequences, sequences.dropFirst()).allSatisfy { $1 == $0 + 1 }, "a gap or a reorder in \(sequences.prefix(20))")
    }

    @Test(
        "/api/events: a reader that stopped reading while 2,000 moves came gets a fresh state in their place, then each event after it"
    )
    func behind() async throws {
        let daemon = try DaemonProcess()
        let web = try WebProcess(daemon)
        #expect(await web.waitInSync(), "\(web.log())")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("python/web_events.py")
        let resume = daemon.directory.appendingPathComponent("resume-reading")
        let reader = try ChildProcess(
            "/usr/bin/python3", [script.path, web.base + "/api/events", "100000", "60", resume.path], output: .capture)
        #expect(try #require(await reader.line(within: 20), "the reader had no state").contains("\"event\": \"state\""))
        // One at a time, so each reaches the gateway on its own: its sockets take a few dozen, and
        // it holds the rest, over its 1,000 (a batch written whole while they took more would
        // pass that many at once).
        let replies = try Keeper(daemon.commandEndpoint).pipeline(
            (0..<2000).map { _ in .move(game: "g1", player: "di", move: .rebound) }, window: 1)
        let last = try #require(replies.compactMap(\.sequence).max())
        #expect(replies.allSatisfy { $0.error == nil })
        let relayed = try await poll(seconds: 30) {
            prometheusSamples(try await httpGet(web.base + "/metrics").1)?["courtside_web_events_relayed_total"] ?? 0
        } until: {
            $0 >= 2000
        }
        #expect(relayed >= 2000)
        _ = FileManager.default.createFile(atPath: resume.path, contents: nil)
        struct Line: Decodable {
            struct Data: Decodable { var sequence: Int64 }
            var event: String
            var data: Data
        }
        // Read until the last move's sequence: a stream the gateway ended never gets there.
        var read: [Line] = []
        while read.last?.data.sequence ?? 0 < last, let line = await reader.line(within: 30) {
            if let decoded = try? JSONDecoder().decode(Line.self, from: Data(line.utf8)) { read.append(decoded) }
        }
        reader.signal(SIGTERM)
        #expect(
            read.last?.data.sequence == last, "the stream ended at \(String(describing: read.last?.data.sequence)) of \(last)")
        let state = try #require(read.lastIndex { $0.event == "state" }, "no state in place of what it missed")
        let after = read[state...].map(\.data.sequence)
        #expect(after.count < 1000, "\(after.count) messages after the state: it replaced the backlog")
        #expect(zip(after, after.dropFirst()).allSatisfy { $1 == $0 + 1 }, "a gap after the state: \(after.prefix(20))")
        let resynced = prometheusSamples(try await httpGet(web.base + "/metrics").1)?["courtside_web_streams_resynced_total"]
        #expect(resynced == 1)
    }

    @Test(
        "in a real browser: plays before the page opened, fouls, time-outs; a move reaches the TV; stale and back across a restart"
    )
    func browser() async throws {
        let daemon = try DaemonProcess(schedule: Self.tieredGames)
        let web = try WebProcess(daemon)
        #expect(await web.waitInSync(), "\(web.log())")
        let sync = daemon.directory.appendingPathComponent("browser-sync")
        // Screenshots land next to the build, for a person to look at after the run.
        let shots = DaemonProcess.executable.deletingLastPathComponent().appendingPathComponent("web-screenshots")
        for folder in [sync, shots] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("python/browser_check.py")
        let check = try ChildProcess(
            "/usr/bin/python3",
            [script.path, "--web", web.base, "--command", daemon.commandEndpoint, "--sync", sync.path, "--shots", shots.path],
            output: .capture, error: .capture)
        // The script asks for the restart once its page is live.
        let asked = ContinuousClock.now + .seconds(60)
        while !FileManager.default.fileExists(atPath: sync.appendingPathComponent("restart-now").path), check.isRunning,
            ContinuousClock.now < asked
        {
            try await Task.sleep(for: .milliseconds(50))
        }
        daemon.stop()
        try await Task.sleep(for: .seconds(4))  // longer than the gateway's 3 s before it calls itself stale
        try daemon.start()
        _ = FileManager.default.createFile(atPath: sync.appendingPathComponent("restarted").path, contents: nil)
        let output = await check.output(within: 120)
        print(output)  // the figures (a move's time to the DOM) for whoever reads the log
        #expect(await check.exited(within: 10) == 0, "\(output)")
        #expect(output.contains(" passed, 0 failed"), "\(output)")
    }

    @Test("SIGTERM with a browser following /api/events: exit 0 within 2 s")
    func stopsWithOpenStreams() async throws {
        let daemon = try DaemonProcess()
        let web = try WebProcess(daemon)
        #expect(await web.waitInSync(), "\(web.log())")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("python/web_events.py")
        let follower = try ChildProcess(
            "/usr/bin/python3", [script.path, web.base + "/api/events", "1000", "30"], output: .capture)
        // Its first line is the state: the stream is open.
        #expect(await follower.line(within: 20) != nil && follower.isRunning)
        web.process.signal(SIGTERM)
        let status = await web.process.exited(within: 2)
        #expect(status == 0, "\(web.log())")
        #expect(await follower.exited(within: 5) != nil)
    }
}
