import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import CourtsideSimulator
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The reference client and the `courtside` tool against the real daemon.
@Suite("The client library and courtside", .serialized)
struct ClientTests {
    @Test("a request retried while the daemon is frozen is applied once")
    func retriesAppliedOnce() throws {
        let daemon = try DaemonProcess()
        let client = CommandClient(endpoint: daemon.commandEndpoint, clientID: "court-1", timeoutMilliseconds: 250, attempts: 8)
        daemon.signal(SIGSTOP)
        let pid = daemon.processIdentifier
        // Thaw the daemon while the client is between tries: several copies of the request are queued by then.
        let thaw = Thread {
            Thread.sleep(forTimeInterval: 0.6)
            kill(pid, SIGCONT)
        }
        thaw.start()
        let reply = try client.command(.move(game: "g1", player: "ann", move: .twoPoints))
        #expect(reply.ok && reply.version == 2)
        let (_, games) = try client.snapshot(game: "g1")
        #expect(games.first?.score.home == 2)
        #expect(games.first?.version == 2)
        #expect(games.first?.plays.count == 1)
    }

    @Test("a daemon that is not there gets a clear error naming where the client looked")
    func unreachable() throws {
        let endpoint = "tcp://127.0.0.1:\(try freePort())"
        let client = CommandClient(endpoint: endpoint, clientID: "k", timeoutMilliseconds: 100, attempts: 2)
        #expect {
            try client.command(.listGames)
        } throws: { error in
            let error = error as? CourtsideError
            return error?.code == .unreachable && error?.message.contains(endpoint) == true
        }
    }

    @Test("a display resyncs after the daemon restarts (new epoch) and shows the new state")
    func resyncAfterRestart() throws {
        let daemon = try DaemonProcess()
        let display = try DisplaySync(daemon)
        let firstEpoch = display.epoch
        try display.pump { display.heartbeatsSeen > 0 }
        daemon.stop()
        try daemon.start()
        let client = CommandClient(endpoint: daemon.commandEndpoint, clientID: "court-2")
        let reply = try client.command(.move(game: "g2", player: "jo", move: .twoPoints))
        #expect(try display.pump { display.epoch != firstEpoch && display.sequence >= reply.sequence ?? .max })
        #expect(display.resyncs >= 1)
        #expect(display.lastResync?.reason == .epochChanged)
        #expect(display.games["g2"]?.live.score.away == 2)
    }

    @Test("a display marks itself stale when heartbeats stop, and live again when they return")
    func staleWhenHeartbeatsStop() throws {
        let daemon = try DaemonProcess()
        let display = try DisplaySync(
            endpoints: Endpoints(command: daemon.commandEndpoint, events: daemon.eventEndpoint),
            client: CommandClient(endpoint: daemon.commandEndpoint, clientID: "board"), staleAfter: .milliseconds(600))
        try display.pump { display.heartbeatsSeen > 0 }
        #expect(!display.isStale)
        daemon.signal(SIGSTOP)
        defer { daemon.signal(SIGCONT) }
        #expect(try display.pump(seconds: 5) { display.isStale })
        daemon.signal(SIGCONT)
        let seen = display.heartbeatsSeen
        #expect(try display.pump(seconds: 5) { display.heartbeatsSeen > seen && !display.isStale })
    }

    @Test("a display of one game sees only that game, and its clock state")
    func oneGameDisplay() throws {
        let daemon = try DaemonProcess()
        let client = CommandClient(endpoint: daemon.commandEndpoint, clientID: "court-1")
        let display = try DisplaySync(
            endpoints: Endpoints(command: daemon.commandEndpoint, events: daemon.eventEndpoint), game: "g1", client: client)
        try display.pump { display.heartbeatsSeen > 0 }
        try client.command(.move(game: "g2", player: "gus", move: .onePoint))
        try client.command(.clock(game: "g1", command: .startClock))
        let last = try client.command(.move(game: "g1", player: "bo", move: .onePoint))
        #expect(try display.pump { display.games["g1"]?.live.version == last.version })
        #expect(display.games.keys.sorted() == ["g1"])
        #expect(display.games["g1"]?.live.clock.isRunning == true)
        #expect(display.resyncs == 0)
    }

    @Test("courtside score, undo, games and show, as a scorekeeper types them")
    func commandLine() throws {
        let daemon = try DaemonProcess()
        let connection = ["--command-endpoint", daemon.commandEndpoint, "--event-endpoint", daemon.eventEndpoint]
        #expect(try courtside(["score", "g1", "ann", "2"] + connection) == (0, "g1 v2: ann +2 (sequence 3)\n"))
        #expect(try courtside(["foul", "g1", "di"] + connection).status == 0)
        #expect(try courtside(["undo", "g1"] + connection) == (0, "g1 v4: retracted the move at v3\n"))
        let games = try courtside(["games"] + connection)
        #expect(games.output.contains("g1  Court 1  Lions 2 - 0 Tigers  00:00.0  IN PLAY"))
        let show = try courtside(["show", "g1"] + connection)
        #expect(show.output.contains("v3  Di  foul (undone)"))
        #expect(show.output.contains("  Ann                    0       1       0       0       0       0       2"))
        let refused = try courtside(["score", "g1", "nobody", "1"] + connection)
        #expect(refused.status == 1)
        #expect(try courtside(["score", "g1", "ann", "3"] + connection).status == 64)
    }

    @Test("the interactive keeper, driven through tmux: keys in, score and last moves on screen")
    func interactiveKeeper() throws {
        let daemon = try DaemonProcess()
        let session = "courtside-test-\(UUID().uuidString.prefix(6))"
        let command = [
            DaemonProcess.executable.deletingLastPathComponent().appendingPathComponent("courtside").path, "keeper", "g1",
            "--command-endpoint", daemon.commandEndpoint, "--event-endpoint", daemon.eventEndpoint, "--client-id", "court-1",
        ].joined(separator: " ")
        try tmux(["new-session", "-d", "-s", session, "-x", "120", "-y", "30", command])
        defer { _ = try? tmux(["kill-session", "-t", session]) }
        #expect(waitForScreen(session) { $0.contains("Courtside keeper  g1") })
        // Ann (1) scores two, Di (4) scores one, then the last move is undone.
        for keys in ["1", "t", "4", "p"] { try tmux(["send-keys", "-t", session, keys]) }
        #expect(waitForScreen(session) { $0.contains("Lions   2 - 1   Tigers") && $0.contains("v3  Di  +1") })
        try tmux(["send-keys", "-t", session, "u"])
        #expect(waitForScreen(session) { $0.contains("Lions   2 - 0   Tigers") && $0.contains("v3  Di  +1 (undone)") })
        try tmux(["send-keys", "-t", session, "Space"])
        #expect(waitForScreen(session) { $0.contains("LIVE") })
        let client = CommandClient(endpoint: daemon.commandEndpoint, clientID: "check")
        let game = try #require(try client.snapshot(game: "g1").games.first)
        #expect(game.score == SideValues(home: 2, away: 0))
        #expect(game.clock.isRunning)
        try tmux(["send-keys", "-t", session, "q"])
    }

    @Test("courtside simulate plays legal moves only, and its subscriber sees every event")
    func simulation() throws {
        let daemon = try DaemonProcess()
        let options = SimulationOptions(
            endpoints: Endpoints(command: daemon.commandEndpoint, events: daemon.eventEndpoint), games: 6, keepers: 3, rate: 0,
            duration: .seconds(2))
        let summary = try Simulator(options: options).run()
        // Enough moves to cover every kind; how many fit in 2 s depends on the machine's load (91 were seen under four builds).
        #expect(summary.acknowledged >= 20)
        #expect(summary.sent == summary.acknowledged)
        #expect(summary.refused == 0 && summary.unanswered == 0)
        #expect(summary.gaps == 0)
        // Every acknowledged move, creation and clock start is an event the subscriber saw.
        #expect(summary.eventsSeen == summary.acknowledged + 2 * summary.gamesCreated)
        #expect(summary.report.contains("moves: sent \(summary.sent), acknowledged \(summary.acknowledged), refused 0"))
    }

    // MARK: - Helpers

    func courtside(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try ChildProcess.run(
            DaemonProcess.executable.deletingLastPathComponent().appendingPathComponent("courtside").path, arguments)
    }

    /// Runs a tmux command. new-session's server lives on after the client exits; a child
    /// process waits only for the client.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        try ChildProcess.run("/usr/bin/tmux", arguments, seconds: 10).output
    }

    func waitForScreen(_ session: String, seconds: Double = 10, _ condition: (String) -> Bool) -> Bool {
        var screen = ""
        let shown = keepTrying(seconds: seconds, until: { condition(screen) }) {
            usleep(50_000)
            screen = (try? tmux(["capture-pane", "-p", "-t", session])) ?? ""
        }
        if !shown { Issue.record("screen was:\n\(screen)") }
        return shown
    }
}

/// The tournament over the protocol: schedule, standings, bracket, time-outs and the audit log.
@Suite("The tournament over ZeroMQ", .serialized)
struct TournamentProtocolTests {
    static let schedule = """
        groups:
          - { id: A, teams: [lions, tigers] }
          - { id: B, teams: [bears, wolves] }
        rounds:
          - name: Group stage
            games:
              - { id: g1, home: lions, away: tigers, court: Court 1, group: A, start: "10:00" }
              - { id: g2, home: bears, away: wolves, court: Court 2, group: B, start: "10:00" }
          - name: Final
            games:
              - { id: final, home: { winner_of: g1 }, away: { group: B, rank: 1 }, court: Court 1, rules: fiba3x3 }
        """

    @Test(
        "results fill the bracket, standings and bracket are published, a reopened result holds its next game, late retractions are refused, the log keeps all"
    )
    func tournament() throws {
        let daemon = try DaemonProcess(schedule: Self.schedule)
        let client = CommandClient(endpoint: daemon.commandEndpoint, clientID: "court-1")
        let display = try DisplaySync(daemon)
        // A board for the final can start before the final exists: it waits for its teams.
        let finalBoard = try DisplaySync(
            endpoints: Endpoints(command: daemon.commandEndpoint, events: daemon.eventEndpoint), game: "final",
            client: CommandClient(endpoint: daemon.commandEndpoint, clientID: "final-board"))
        #expect(finalBoard.games.isEmpty)
        #expect(throws: CourtsideError.self) {
            try DisplaySync(
                endpoints: Endpoints(command: daemon.commandEndpoint, events: daemon.eventEndpoint), game: "nope",
                client: CommandClient(endpoint: daemon.commandEndpoint, clientID: "typo"))
        }
        #expect(display.bracket.map(\.game) == ["g1", "g2", "final"])
        #expect(display.bracket.last?.state == .pending)
        #expect(display.standings.map(\.group) == ["A", "B"])
        try display.pump { display.heartbeatsSeen > 0 }
        // A scheduled game is the bracket's to create.
        let early = try client.send(.createGame(game: "final", home: "lions", away: "bears", court: nil, rules: nil))
        #expect(early.error?.code == .gameExists)

        // g1: Lions 16 - 0; g2: Wolves win 15 - 13.
        var g1Last = 0
        for _ in 0..<8 { g1Last = try client.command(.move(game: "g1", player: "ann", move: .twoPoints)).version ?? 0 }
        for _ in 0..<13 { try client.command(.move(game: "g2", player: "gus", move: .onePoint)) }
        for _ in 0..<15 { try client.command(.move(game: "g2", player: "lu", move: .onePoint)) }

        // The final appears with its teams; standings and bracket reached the display on their topics.
        #expect(try display.pump { display.games["final"] != nil && display.bracket.last?.state == .ready })
        #expect(display.games["final"]?.setup.home.id == "lions")
        #expect(display.games["final"]?.setup.away.id == "wolves")
        #expect(try finalBoard.pump { finalBoard.games["final"]?.setup.home.id == "lions" })
        #expect(finalBoard.resyncs == 0)
        #expect(display.standings.first { $0.group == "B" }?.rows.first?.team == "wolves")
        let standings = try client.command(.standings).standings ?? []
        #expect(
            standings.first { $0.group == "A" }?.rows.first.map { ($0.team, $0.won, $0.pointsFor) } ?? ("", 0, 0) == (
                "lions", 1, 16
            ))
        let bracket = try client.command(.schedule).bracket ?? []
        #expect(bracket.first { $0.game == "g1" }?.winner == "lions")

        // Undoing g1's winning basket reopens g1: until it is final again, the final cannot start.
        try client.command(.retract(game: "g1", version: g1Last))
        #expect(try client.send(.clock(game: "final", command: .startClock)).error?.code == .bracketPending)
        g1Last = try client.command(.move(game: "g1", player: "ann", move: .twoPoints)).version ?? 0

        // fiba3x3 in the final: one time-out per team, free throws count one.
        try client.command(.clock(game: "final", command: .startClock))
        try client.command(.timeout(game: "final", side: .away))
        #expect(try client.send(.timeout(game: "final", side: .away)).error?.code == .noTimeoutsLeft)
        try client.command(.move(game: "final", player: "jo", move: .freeThrow))
        // The final has started: undoing g1's winning basket would take Lions out of it: refused.
        #expect(try client.send(.retract(game: "g1", version: g1Last)).error?.code == .bracketLocked)
        #expect(try client.snapshot(game: "g1").games.first?.isFinished == true)
        // Undoing one of the loser's points in g2 leaves Wolves the winner: accepted.
        let undo = try client.command(.retract(game: "g2", version: 2))
        #expect(try client.snapshot(game: "g2").games.first?.score == SideValues(home: 12, away: 15))

        // The audit trail: every event with who and when, retractions included.
        let g1Trail = try client.command(.log(game: "g1")).events ?? []
        #expect(g1Trail.count == 11)  // created, 8 baskets, the retraction, the basket again
        #expect(g1Trail.first?.origin.clientID == "courtside.bracket")
        let g2Trail = try client.command(.log(game: "g2")).events ?? []
        #expect(g2Trail.last?.kind == .retraction(targetVersion: 2))
        #expect(g2Trail.last?.origin.clientID == "court-1")
        #expect(g2Trail.last?.version == undo.version)
        #expect(try client.send(.log(game: "nope")).error?.code == .unknownGame)
    }
}
