import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import Foundation
import Synchronization
import Testing
import ZeroMQ

#if canImport(Glibc)
    import Glibc
#endif

/// What a venue's daemon must survive from its own clients and its own machine.
@Suite("courtsided hardening", .serialized)
struct HardeningTests {
    @Test("no client speaks as the daemon: a reserved client id is refused, and the bracket still re-assigns the final")
    func reservedOrigins() throws {
        let daemon = try DaemonProcess(schedule: TournamentProtocolTests.schedule)
        let client = CommandClient(endpoint: daemon.commandEndpoint, clientID: "court-1")
        var g1Last = 0
        for _ in 0..<8 { g1Last = try client.command(.move(game: "g1", player: "ann", move: .twoPoints)).version ?? 0 }
        for _ in 0..<15 { try client.command(.move(game: "g2", player: "gus", move: .onePoint)) }
        #expect(try eventually { try client.snapshot(game: "final").games.first?.setup.home.id == "lions" })

        // The bracket's own next command, sent in advance by a client: refused at the door.
        for clientID in ["courtside.bracket", "courtside", "courtside.clock"] {
            let hijack = try client.send(
                .retract(game: "final", version: 99), origin: CommandOrigin(clientID: clientID, commandID: "assign:final:v1"))
            #expect(hijack.error?.code == .badRequest)
            #expect(hijack.error?.message.contains("reserved") == true)
        }

        // Tigers now win g1, so the final becomes Tigers v Bears.
        try client.command(.retract(game: "g1", version: g1Last))
        for _ in 0..<8 { try client.command(.move(game: "g1", player: "di", move: .twoPoints)) }
        #expect(try eventually { try client.snapshot(game: "final").games.first?.setup.home.id == "tigers" })
        #expect(try client.snapshot(game: "final").games.first?.setup.away.id == "bears")
    }
}

/// Asks until the condition holds (the bracket acts after a commit, not within its reply), for
/// at most `seconds`.
func eventually(seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    try keepTrying(seconds: seconds, until: condition) { usleep(50_000) }
}

/// The daemon's exits: status 0 only when asked to stop.
@Suite("courtsided never stays down quietly", .serialized)
struct ExitStatusTests {
    /// A minimal config in a fresh directory, on free loopback ports.
    static func config(_ directory: URL) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("tournament.yaml").path
        try """
        data_dir: \(directory.appendingPathComponent("data").path)
        endpoints: { command: "tcp://127.0.0.1:\(try freePort())", events: "tcp://127.0.0.1:\(try freePort())" }
        teams:
          - { id: lions, name: Lions, players: [{id: ann, name: Ann}] }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("an I/O thread that fails ends the daemon with a non-zero status and a critical line naming what ended")
    func ioThreadFailure() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courtsided-fault-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var environment = ProcessInfo.processInfo.environment
        environment["COURTSIDE_FAULT"] = "transport.poll"
        let (status, output) = try ChildProcess.run(
            DaemonProcess.executable.path, ["--config", try Self.config(directory)], environment: environment,
            mergeError: true, seconds: 20)
        #expect(status != 0 && status != 124, "\(output)")
        #expect(output.contains("critical"), "\(output)")
        #expect(output.contains("the command service ended on its own"), "\(output)")
    }

    @Test("a log writer stuck in its write stops the watchdog pings, so that systemd restarts the daemon")
    func stuckWriterWithholdsPings() throws {
        // Pings every 0.5 s; the writer counts as stuck once a command has waited 5 s.
        let daemon = try DaemonProcess(environment: ["WATCHDOG_USEC": "1000000", "COURTSIDE_FAULT": "storage.stall"])
        defer { daemon.signal(SIGKILL) }  // its writer never returns: no graceful stop to wait for
        #expect(daemon.notify.wait(for: "WATCHDOG=1", seconds: 5))
        // The move's commit hangs; the reply never comes (the keeper gives up, as a scorekeeper would).
        let keeper = CommandClient(
            endpoint: daemon.commandEndpoint, clientID: "court-1", timeoutMilliseconds: 500, attempts: 1)
        #expect(throws: CourtsideError.self) { try keeper.command(.move(game: "g1", player: "ann", move: .twoPoints)) }
        // A quiet daemon commits on its I/O thread, so that thread hangs with the disk; either
        // way the reason given names the waiting command.
        #expect(
            eventually(seconds: 15) {
                daemon.log().split(separator: "\n").contains {
                    $0.contains("watchdog ping withheld") && $0.contains("a command has waited")
                }
            },
            "\(daemon.log())")
        // From here on no ping: systemd would kill it at WATCHDOG_USEC. (First read away the
        // datagrams sent before the line.)
        _ = daemon.notify.wait(for: "NOTHING=1", seconds: 0.5)
        daemon.notify.forget()
        #expect(!daemon.notify.wait(for: "WATCHDOG=1", seconds: 2))
        #expect(daemon.isRunning)
    }

    @Test("SIGTERM ends it with status 0")
    func sigtermIsClean() throws {
        let daemon = try DaemonProcess()
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit(seconds: 5) != nil)
        #expect(daemon.exitStatus == 0)
    }
}

@Suite("courtsided stops within its budget", .serialized)
struct StopBudgetTests {
    @Test("SIGTERM while keepers are connected and sending: exit 0 within 2 s, and every acknowledged move is kept")
    func stopUnderLoad() throws {
        let daemon = try DaemonProcess()
        let acknowledged = Mutex<[GameID: Int]>([:])
        let keepers = [("g1", "ann"), ("g2", "gus"), ("g1", "di"), ("g2", "jo")].map { game, player in
            let endpoint = daemon.commandEndpoint
            return Thread {
                let client = CommandClient(
                    endpoint: endpoint, clientID: "keeper-\(player)", timeoutMilliseconds: 300, attempts: 1)
                // Rebounds score nothing, so the games never end; stop at the first unanswered request.
                while let version = try? client.command(.move(game: GameID(game), player: PlayerID(player), move: .rebound))
                    .version
                {
                    acknowledged.withLock { $0[GameID(game)] = max($0[GameID(game)] ?? 0, version) }
                }
            }
        }
        for keeper in keepers { keeper.start() }
        #expect(eventually { acknowledged.withLock { ($0["g1"] ?? 0) > 20 && ($0["g2"] ?? 0) > 20 } })
        let start = ContinuousClock.now
        daemon.signal(SIGTERM)
        let exited = daemon.waitForExit(seconds: 5) != nil
        let took = ContinuousClock.now - start
        #expect(exited)
        #expect(took < .seconds(2), "stopping took \(took)")
        #expect(daemon.exitStatus == 0)
        while keepers.contains(where: { !$0.isFinished }) { usleep(20_000) }

        try daemon.start()
        let games = try CommandClient(endpoint: daemon.commandEndpoint, clientID: "check").snapshot().games
        for game in games {
            #expect(game.version >= acknowledged.withLock { $0[game.id] ?? 0 }, "\(game.id) lost acknowledged moves")
        }
    }
}

@Suite("config errors are config errors", .serialized)
struct ConfigExitTests {
    @Test("a bad endpoint flag exits 78 naming the flag, before anything is opened")
    func badEndpointFlag() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courtsided-flag-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (status, output) = try ChildProcess.run(
            DaemonProcess.executable.path,
            ["--config", try ExitStatusTests.config(directory), "--command-endpoint", "tcp://no such host:x"], mergeError: true)
        #expect(status == 78)
        #expect(output.contains("--command-endpoint"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("data").path))
    }

    @Test("SIGHUP with a broken file keeps everything; one with new endpoints says they wait for a restart")
    func reloadChecksFirst() throws {
        let daemon = try DaemonProcess()
        let config = try String(contentsOfFile: daemon.configPath, encoding: .utf8)
        try (config + "\ngames: [oops\n").write(toFile: daemon.configPath, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        #expect(eventually { daemon.log().contains("reload failed") })
        try config.replacingOccurrences(of: "heartbeat_ms: 200", with: "heartbeat_ms: 300")
            .write(toFile: daemon.configPath, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        #expect(eventually { daemon.log().contains("applied only after a restart: transport.heartbeat_ms") })
        #expect(try Keeper(daemon.commandEndpoint).send(.listGames).games?.count == 2)
    }
}

/// The reference display against the real daemon's snapshots, fed messages from a publisher of
/// the test's own, so that it can be handed what the network may deliver: late, stale, odd.
@Suite("displays never go backwards", .serialized)
struct DisplayOrderTests {
    /// A PUB socket the display subscribes to instead of the daemon's.
    final class Feed {
        let socket: ZMQSocket
        let endpoint: String

        init() throws {
            socket = try testContext.socket(.pub)
            try socket.set(.linger(milliseconds: 0))
            try socket.bind("tcp://127.0.0.1:*")
            endpoint = socket.lastEndpoint
        }

        func send(_ topic: [UInt8], _ message: some Encodable) throws {
            try socket.send([topic, try WireCoding.encode(message)])
        }

        /// Sends a heartbeat that asks for nothing and pumps until the display has read it: every
        /// message sent before it has then been handled (PUB keeps order).
        func flush(_ display: DisplaySync) throws -> Bool {
            let seen = display.heartbeatsSeen
            return try keepTrying(seconds: 10, until: { display.heartbeatsSeen > seen }) {
                try send(
                    Topic.heartbeat,
                    HeartbeatMessage(epoch: display.epoch, sequence: display.sequence, at: Timestamp(Date())))
                try display.pump(timeoutMilliseconds: 50)
            }
        }
    }

    @Test("a standings or bracket message older than the snapshot shown is ignored; a newer one applies")
    func staleTables() throws {
        let daemon = try DaemonProcess(schedule: TournamentProtocolTests.schedule)
        let keeper = CommandClient(endpoint: daemon.commandEndpoint, clientID: "court-1")
        for _ in 0..<8 { try keeper.command(.move(game: "g1", player: "ann", move: .twoPoints)) }
        #expect(try eventually { try keeper.command(.standings).standings?.first?.rows.first?.won == 1 })

        let feed = try Feed()
        let display = try DisplaySync(
            endpoints: Endpoints(command: daemon.commandEndpoint, events: feed.endpoint),
            client: CommandClient(endpoint: daemon.commandEndpoint, clientID: "board"))
        #expect(try feed.flush(display))
        let fresh = display.standings
        let freshBracket = display.bracket
        #expect(fresh.first?.rows.first?.won == 1)

        // Built before g1 ended, delivered after the snapshot: older than what is shown.
        let stale = display.sequence - 3
        try feed.send(Topic.standings, StandingsMessage(epoch: display.epoch, sequence: stale, groups: []))
        try feed.send(Topic.bracket, BracketMessage(epoch: display.epoch, sequence: stale, games: []))
        #expect(try feed.flush(display))
        #expect(display.standings == fresh)
        #expect(display.bracket == freshBracket)
        #expect(display.standingsSequence == display.sequence)

        // A newer one is the truth now.
        try feed.send(Topic.standings, StandingsMessage(epoch: display.epoch, sequence: display.sequence + 1, groups: []))
        #expect(try feed.flush(display))
        #expect(display.standings.isEmpty)
    }

    @Test("a heartbeat naming newer standings or a newer bracket makes the display fetch that table; an equal one does not")
    func heartbeatNamesLostTables() throws {
        let daemon = try DaemonProcess(schedule: TournamentProtocolTests.schedule)
        let keeper = CommandClient(endpoint: daemon.commandEndpoint, clientID: "court-1")
        let feed = try Feed()
        let display = try DisplaySync(
            endpoints: Endpoints(command: daemon.commandEndpoint, events: feed.endpoint),
            client: CommandClient(endpoint: daemon.commandEndpoint, clientID: "board"))
        #expect(try feed.flush(display))
        #expect(display.standings.first?.rows.first?.won == 0)
        // What the tables are now, without the display being told: as if their message was lost.
        for _ in 0..<8 { try keeper.command(.move(game: "g1", player: "ann", move: .twoPoints)) }

        func heartbeat(standings: Int64, bracket: Int64) throws {
            try feed.send(
                Topic.heartbeat,
                HeartbeatMessage(
                    epoch: display.epoch, sequence: display.sequence, at: Timestamp(Date()), standingsSequence: standings,
                    bracketSequence: bracket))
            #expect(try feed.flush(display))
        }
        try heartbeat(standings: display.standingsSequence, bracket: display.bracketSequence)
        #expect(display.tablesRefreshes == 0)
        #expect(display.standings.first?.rows.first?.won == 0)

        try heartbeat(standings: display.standingsSequence + 1, bracket: display.bracketSequence)
        #expect(display.tablesRefreshes == 1)
        #expect(display.standings.first { $0.group == "A" }?.complete == true)
        #expect(display.standingsSequence > display.sequence)
        #expect(display.bracket.first { $0.game == "g1" }?.state == .ready, "only the table named was fetched")

        try heartbeat(standings: display.standingsSequence, bracket: display.bracketSequence + 1)
        #expect(display.tablesRefreshes == 2)
        #expect(display.bracket.first { $0.game == "g1" }?.state == .final)
        #expect(display.bracket.first { $0.game == "final" }?.homeTeam == "lions")
        #expect(display.resyncs == 0)
    }

    @Test("a resync that cannot reach the daemon leaves the display stale and retrying, never ended")
    func unreachableResync() throws {
        let daemon = try DaemonProcess()
        let feed = try Feed()
        let display = try DisplaySync(
            endpoints: Endpoints(command: daemon.commandEndpoint, events: feed.endpoint),
            client: CommandClient(endpoint: daemon.commandEndpoint, clientID: "board", timeoutMilliseconds: 200, attempts: 1))
        #expect(try feed.flush(display))
        #expect(!display.isStale)

        daemon.signal(SIGSTOP)
        defer { daemon.signal(SIGCONT) }
        // A heartbeat ahead of the display: it must resync, and cannot.
        _ = try keepTrying(seconds: 10, until: { display.owedResync != nil }) {
            try feed.send(
                Topic.heartbeat,
                HeartbeatMessage(epoch: display.epoch, sequence: display.sequence + 5, at: Timestamp(Date())))
            try display.pump(timeoutMilliseconds: 50)
        }
        #expect(display.owedResync?.error.code == .unreachable, "resyncs \(display.resyncs)")
        #expect(display.isStale)
        try display.pump(timeoutMilliseconds: 10)  // still owed, still no throw
        #expect(display.isStale)

        daemon.signal(SIGCONT)
        let recovered = ContinuousClock.now + .seconds(10)
        while display.owedResync != nil, ContinuousClock.now < recovered { try display.pump(timeoutMilliseconds: 50) }
        #expect(display.owedResync == nil)
        #expect(display.resyncs >= 1)
        #expect(!display.isStale)
    }
}

@Suite("game time ignores the wall clock", .serialized)
struct WallClockTests {
    @Test("under a wall clock sixty times too fast (faketime), a running game clock counts real seconds")
    func fastWallClock() throws {
        let daemon = try DaemonProcess(
            environment: ["DONT_FAKE_MONOTONIC": "1"], launcher: ["/usr/bin/faketime", "-f", "+0 x60"])
        let keeper = CommandClient(endpoint: daemon.commandEndpoint, clientID: "court-2")
        try keeper.command(.clock(game: "g2", command: .startClock))
        usleep(2_500_000)
        try keeper.command(.clock(game: "g2", command: .pauseClock))
        let clock = try #require(try keeper.snapshot(game: "g2").games.first?.clock)
        // 2.5 s of real time; the fake wall clock saw 150 s. Wide bounds: this is no timing test.
        #expect(clock.accumulated >= 2_400 && clock.accumulated < 60_000, "counted \(clock.accumulated) ms")
    }
}
