import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import Foundation
import Testing
import ZeroMQ

#if canImport(Glibc)
    import Glibc
#endif

/// The real daemon over real TCP sockets. Serialized: each test runs its own daemon, and the
/// machine has two cores.
@Suite("courtsided over ZeroMQ", .serialized)
struct DaemonTests {
    @Test("a scorekeeper's move reaches a subscriber")
    func moveReachesSubscriber() throws {
        let daemon = try DaemonProcess()
        let display = try DisplaySync(daemon)
        let keeper = try Keeper(daemon.commandEndpoint)
        // The first heartbeat proves the subscription is live.
        try display.pump { display.heartbeatsSeen > 0 }
        let reply = try keeper.send(.move(game: "g1", player: "ann", move: .twoPoints))
        #expect(reply.ok)
        #expect(reply.game == "g1")
        #expect(reply.version == 2)
        let sequence = try #require(reply.sequence)
        #expect(try display.pump { display.sequence >= sequence })
        #expect(display.games["g1"]?.live.score == SideValues(home: 2, away: 0))
        #expect(display.games["g1"]?.live.counts["ann"]?.twoPoints == 1)
        #expect(display.resyncs == 0)
    }

    @Test("a display that joins late, while moves stream in, converges to the daemon's state")
    func lateJoinerConverges() async throws {
        let daemon = try DaemonProcess()
        let endpoint = daemon.commandEndpoint
        let streaming = Task.detached {
            let keeper = try Keeper(endpoint)
            var last: Int64 = 0
            for index in 0..<400 {
                let game: GameID = index.isMultiple(of: 2) ? "g1" : "g2"
                let player: PlayerID = game == "g1" ? (index % 4 == 0 ? "ann" : "di") : (index % 4 == 1 ? "gus" : "jo")
                let move: MoveKind = [.assist, .rebound, .foul, .onePoint][(index / 2) % 4]
                let reply = try keeper.send(.move(game: game, player: player, move: move))
                last = max(last, reply.sequence ?? 0)
            }
            return last
        }
        try await Task.sleep(for: .milliseconds(100))
        let display = try DisplaySync(daemon)
        let last = try await streaming.value
        #expect(try display.pump { display.sequence >= last })
        let truth = try Keeper(daemon.commandEndpoint).send(.snapshot(game: nil))
        #expect(truth.sequence == display.sequence)
        for game in truth.snapshot ?? [] {
            #expect(display.games[game.id] == GameState(game), "game \(game.id) differs")
        }
    }

    @Test("a subscriber paused while moves flow detects the gap and resyncs")
    func gapIsDetectedAndResynced() throws {
        // Tiny queues on both ends make the daemon drop for the paused display.
        let daemon = try DaemonProcess(extraConfig: "  event_high_water_mark: 20\n")
        let display = try DisplaySync(daemon, receiveHighWaterMark: 10)
        try display.pump { display.heartbeatsSeen > 0 }
        let keeper = try Keeper(daemon.commandEndpoint)
        let moves: [Request.Operation] = (0..<3000).map { index in
            .move(game: index.isMultiple(of: 2) ? "g1" : "g2", player: index.isMultiple(of: 2) ? "bo" : "kai", move: .rebound)
        }
        let replies = try keeper.pipeline(moves)
        #expect(replies.allSatisfy { $0.ok })
        let last = replies.compactMap(\.sequence).max() ?? 0
        // Only now does the display read again: far fewer than 3000 events are still queued for it.
        #expect(try display.pump(seconds: 20) { display.sequence >= last })
        #expect(display.resyncs >= 1)
        #expect(display.games["g1"]?.live.counts["bo"]?.rebound == 1500)
        #expect(display.games["g2"]?.live.counts["kai"]?.rebound == 1500)
    }

    @Test("kill -9 during a stream of acknowledged moves loses none of them; numbering continues")
    func killNineKeepsAcknowledgedMoves() async throws {
        let daemon = try DaemonProcess()
        let endpoint = daemon.commandEndpoint
        let pid = daemon.processIdentifier
        // A keeper streams moves and records each acknowledgement; the daemon dies mid-stream.
        let acknowledged = Task.detached { () -> [Reply] in
            let keeper = try Keeper(endpoint, timeoutMilliseconds: 2000)
            try keeper.send(.clock(game: "g1", command: .startClock))
            var acks: [Reply] = []
            for index in 0..<100_000 {
                if index == 300 { kill(pid, SIGKILL) }
                do {
                    let reply = try keeper.send(.move(game: "g1", player: index.isMultiple(of: 3) ? "cy" : "ed", move: .assist))
                    if reply.ok { acks.append(reply) }
                } catch {
                    break  // no reply: the daemon is gone
                }
            }
            return acks
        }
        let acks = try await acknowledged.value
        #expect(daemon.waitForExit(seconds: 5) != nil)
        #expect(acks.count >= 300)
        try daemon.start()
        let keeper = try Keeper(daemon.commandEndpoint)
        let snapshot = try keeper.send(.snapshot(game: "g1"))
        let game = try #require(snapshot.snapshot?.first)
        let lastAck = try #require(acks.last)
        // Every acknowledged move is there: versions are gapless, so the last one proves the rest.
        #expect(game.version >= lastAck.version ?? .max)
        let assists = (game.counts["cy"]?.assist ?? 0) + (game.counts["ed"]?.assist ?? 0)
        #expect(assists >= acks.count)
        #expect(assists == game.version - 2)  // versions: created, clock, then one per assist
        // The numbering continues from the log.
        let next = try keeper.send(.move(game: "g1", player: "ann", move: .foul))
        #expect(next.version == game.version + 1)
        #expect(next.sequence == (snapshot.sequence ?? 0) + 1)
        #expect(next.epoch != lastAck.epoch)
    }

    @Test(
        "a stop writes every game's checkpoint beside the log, and the next start replays nothing; a damaged checkpoint file costs a full replay, said in the log"
    )
    func checkpointsAcrossRestarts() throws {
        let daemon = try DaemonProcess()
        var keeper = try Keeper(daemon.commandEndpoint)
        #expect(try keeper.send(.clock(game: "g1", command: .startClock)).ok)
        for index in 0..<40 {
            #expect(try keeper.send(.move(game: "g1", player: index.isMultiple(of: 2) ? "ann" : "di", move: .rebound)).ok)
        }
        let before = try #require(try keeper.send(.snapshot(game: "g1")).snapshot?.first)
        daemon.stop()
        let checkpoints = daemon.directory.appendingPathComponent("data").appendingPathComponent("checkpoints.sqlite")
        #expect(FileManager.default.fileExists(atPath: checkpoints.path))
        func opened() -> String {
            daemon.log().split(separator: "\n").last { $0.contains("game library opened") }.map(String.init) ?? ""
        }
        try daemon.start()
        #expect(opened().contains("library.replayed_events=0"), "\(opened())")
        #expect(!opened().contains("library.checkpoint=none"), "\(opened())")
        daemon.stop()
        try Data(repeating: 0x5a, count: 8192).write(to: checkpoints)
        try daemon.start()
        #expect(daemon.log().contains("the checkpoint cannot be used"))
        #expect(opened().contains("library.checkpoint=none"), "\(opened())")
        keeper = try Keeper(daemon.commandEndpoint)
        let after = try #require(try keeper.send(.snapshot(game: "g1")).snapshot?.first)
        #expect(after.version == before.version)
        #expect(after.counts["ann"]?.rebound == 20 && after.counts["di"]?.rebound == 20)
    }

    @Test("malformed and refused requests get documented errors; the daemon keeps serving")
    func badInput() throws {
        let daemon = try DaemonProcess()
        let keeper = try Keeper(daemon.commandEndpoint)
        func code(_ frames: [[UInt8]]) throws -> String? { try keeper.sendRaw(frames).error?.code.rawValue }
        #expect(try code([Array("not json".utf8)]) == "bad_request")
        #expect(try code([Array(#"{"op":"move","client_id":"k","command_id":"1"}"#.utf8)]) == "bad_request")
        #expect(try code([Array(#"{"op":"dunk","client_id":"k","command_id":"1"}"#.utf8)]) == "unknown_operation")
        #expect(try code([Array("{}".utf8), Array("{}".utf8)]) == "bad_frames")
        #expect(try code([[]]) == "bad_request")
        let huge = #"{"op":"list_games","client_id":"k","command_id":"1","pad":""# + String(repeating: "x", count: 20_000) + "\"}"
        #expect(try code([Array(huge.utf8)]) == "message_too_large")
        #expect(try keeper.send(.move(game: "nope", player: "ann", move: .onePoint)).error?.code == .unknownGame)
        #expect(try keeper.send(.move(game: "g1", player: "nobody", move: .onePoint)).error?.code == .unknownPlayer)
        #expect(try keeper.send(.move(game: "g1", player: "gus", move: .onePoint)).error?.code == .playerNotInGame)
        #expect(try keeper.send(.retract(game: "g1", version: 99)).error?.code == .unknownEvent)
        #expect(
            try keeper.send(.createGame(game: "g9", home: "lions", away: "sharks", court: nil, rules: nil)).error?.code
                == .unknownTeam)
        #expect(
            try keeper.send(.createGame(game: "g1", home: "lions", away: "tigers", court: nil, rules: nil)).error?.code
                == .gameExists)
        #expect(
            try keeper.send(.createGame(game: "g7", home: "lions", away: "lions", court: nil, rules: nil)).error?.code
                == .invalidGame)
        // Rules that would overflow the clock or the score are refused, not trusted.
        let endless = RuleSet(timeLimit: TimeLimit(milliseconds: .max, atTime: .overtime, overtimePoints: .max))
        let overflow = try keeper.send(.createGame(game: "g8", home: "lions", away: "bears", court: nil, rules: endless))
        #expect(overflow.error?.code == .invalidGame)
        // A retried request is applied once and answered the same.
        let origin = keeper.nextOrigin()
        let first = try keeper.send(.move(game: "g1", player: "ann", move: .twoPoints), origin: origin)
        let retry = try keeper.send(.move(game: "g1", player: "ann", move: .twoPoints), origin: origin)
        #expect(first == retry)
        // Play g1 to its end; a move after it is refused.
        for _ in 0..<7 { try keeper.send(.move(game: "g1", player: "ann", move: .twoPoints)) }
        #expect(try keeper.send(.move(game: "g1", player: "di", move: .onePoint)).error?.code == .gameFinished)
        // Still serving, and none of the refused requests changed anything.
        let snapshot = try keeper.send(.snapshot(game: "g1"))
        let game = try #require(snapshot.snapshot?.first)
        #expect(game.score == SideValues(home: 16, away: 0))
        #expect(game.version == 9)  // created, then eight baskets
        // A new game from the tournament's teams.
        let created = try keeper.send(.createGame(game: "final", home: "lions", away: "bears", court: "Center", rules: nil))
        #expect(created.ok && created.version == 1)
        #expect(try keeper.send(.listGames).games?.map(\.game) == ["final", "g1", "g2"])
    }

    @Test("READY=1 and STOPPING=1 reach NOTIFY_SOCKET, and SIGTERM ends it within 2 s")
    func systemdNotifyAndSigterm() throws {
        let daemon = try DaemonProcess()
        #expect(daemon.notify.wait(for: "READY=1", seconds: 1))
        #expect(daemon.notify.received.contains { $0.contains("STATUS=2 games") })
        // A command in flight at the moment of SIGTERM is still answered.
        let keeper = try Keeper(daemon.commandEndpoint)
        try keeper.send(.move(game: "g2", player: "lu", move: .onePoint))
        daemon.signal(SIGTERM)
        let seconds = try #require(daemon.waitForExit(seconds: 5), "courtsided did not exit")
        #expect(seconds < 2.0)
        #expect(!daemon.log().contains("cancel"), "shutdown should finish without being cancelled")
        #expect(daemon.process?.status == 0, "log:\n\(daemon.log())")
        #expect(daemon.notify.wait(for: "STOPPING=1", seconds: 1))
    }

    @Test("with WATCHDOG_USEC set, WATCHDOG=1 comes at half the period")
    func watchdog() throws {
        let daemon = try DaemonProcess(environment: ["WATCHDOG_USEC": "400000"])
        let start = Date()
        #expect(daemon.notify.wait(for: "WATCHDOG=1", seconds: 2))
        let beats = { daemon.notify.received.filter { $0.contains("WATCHDOG=1") }.count }
        _ = daemon.notify.wait(for: "never sent", seconds: 1)
        // About five in a second at a 200 ms period; far fewer would let systemd kill it.
        #expect(beats() >= 3, "\(beats()) watchdog pings in \(Date().timeIntervalSince(start)) s")
    }

    @Test("SIGHUP adds the new games of the config file and keeps the running ones")
    func reloadAddsGames() throws {
        let daemon = try DaemonProcess()
        let keeper = try Keeper(daemon.commandEndpoint)
        try keeper.send(.move(game: "g1", player: "ann", move: .twoPoints))
        try daemon.reload { $0.replacingOccurrences(of: "games:\n", with: "games:\n  - { id: g3, home: wolves, away: lions }\n") }
        var ids: [GameID] = []
        for _ in 0..<100 where ids.count < 3 {
            ids = try keeper.send(.listGames).games?.map(\.game) ?? []
            usleep(20_000)
        }
        #expect(ids == ["g1", "g2", "g3"])
        let g1 = try keeper.send(.snapshot(game: "g1")).snapshot?.first
        #expect(g1?.score.home == 2)
    }

    @Test("SIGHUP with a key the config does not know keeps the running tournament and logs the key")
    func reloadRefusesUnknownKey() throws {
        let daemon = try DaemonProcess()
        let keeper = try Keeper(daemon.commandEndpoint)
        try keeper.send(.move(game: "g1", player: "ann", move: .twoPoints))
        let newGame = "games:\n  - { id: g3, home: wolves, away: lions, cuort: Court 1 }\n"
        try daemon.reload { $0.replacingOccurrences(of: "games:\n", with: newGame) }
        #expect(
            eventually {
                daemon.log().contains("reload failed")
                    && daemon.log().contains("\(daemon.configPath): games.0.cuort: unknown key; did you mean court?")
            }, "\(daemon.log())")
        #expect(try keeper.send(.listGames).games?.map(\.game) == ["g1", "g2"])
        #expect(try keeper.send(.snapshot(game: "g1")).snapshot?.first?.score.home == 2)
        // The same file with the key spelled right is taken whole.
        try daemon.reload { $0.replacingOccurrences(of: "cuort:", with: "court:") }
        #expect(try eventually { try keeper.send(.listGames).games?.map(\.game) == ["g1", "g2", "g3"] })
    }

    @Test("SIGHUP that changes an existing team and game logs each change it does not apply, and applies none")
    func reloadReportsUnapplied() throws {
        let daemon = try DaemonProcess()
        let keeper = try Keeper(daemon.commandEndpoint)
        try daemon.reload {
            $0.replacingOccurrences(of: "{id: cy, name: Cy}] }", with: "{id: cy, name: Cy}, {id: zoe, name: Zoe}] }")
                .replacingOccurrences(of: "away: tigers, court: Court 1", with: "away: tigers, court: Court 2")
        }
        let expected = [
            "team lions: players differ from the running tournament (added: zoe); not applied: the log decides",
            "game g1: court differs from the running tournament (court: Court 1 → Court 2); not applied: the log decides",
        ]
        #expect(
            eventually { daemon.log().contains("tournament reloaded") && expected.allSatisfy(daemon.log().contains) },
            "\(daemon.log())")
        let warnings = daemon.log().split(separator: "\n").filter { $0.contains("not applied") }
        #expect(
            warnings.count == 2 && warnings.allSatisfy { $0.contains("warning") && $0.contains("reload.kind=") }, "\(warnings)")
        #expect(daemon.log().contains("reload.not_applied=2"), "\(daemon.log())")
        // The running tournament is as it was: zoe is on no team, g1 is still on Court 1.
        #expect(try keeper.send(.move(game: "g1", player: "zoe", move: .onePoint)).error?.code == .unknownPlayer)
        #expect(try keeper.send(.listGames).games?.first { $0.game == "g1" }?.court == "Court 1")
    }

    @Test("a broken config names the file, the key and the problem, and exits non-zero")
    func brokenConfig() throws {
        let (status, message, path) = try Self.start(
            config: """
                teams:
                  - { id: lions, name: Lions, players: [{id: ann, name: Ann}] }
                games:
                  - { id: g1, home: lions, away: sharks }
                """)
        #expect(status == 78)
        #expect(message.contains("\(path): games.0.away: unknown team \"sharks\""))
    }

    @Test("a key the config does not know stops the start with exit 78, naming it and the nearest known key")
    func unknownKeyAtStart() throws {
        let (status, message, path) = try Self.start(
            config: """
                tiebreakers: [points_scored, head_to_head]
                teams:
                  - { id: lions, name: Lions, players: [{id: ann, name: Ann}] }
                """)
        #expect(status == 78)
        #expect(message.contains("\(path): tiebreakers: unknown key; did you mean tie_breakers?"), "\(message)")
    }

    /// Runs courtsided on `config` in a fresh directory until it exits: its status, its output
    /// and the config's path.
    static func start(config: String) throws -> (status: Int32, message: String, path: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courtside-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("bad.yaml").path
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        let (status, message) = try ChildProcess.run(DaemonProcess.executable.path, ["--config", path], mergeError: true)
        return (status, message, path)
    }

    @Test("a display written in Python from docs/PROTOCOL.md converges too")
    func pythonDisplay() async throws {
        let daemon = try DaemonProcess()
        let python = try PythonDisplay.start(command: daemon.commandEndpoint, events: daemon.eventEndpoint)
        let keeper = try Keeper(daemon.commandEndpoint)
        var last: Int64 = 0
        for index in 0..<300 {
            let move: MoveKind = index.isMultiple(of: 5) ? .onePoint : .rebound
            let reply = try keeper.send(
                .move(game: index.isMultiple(of: 2) ? "g1" : "g2", player: index.isMultiple(of: 4) ? "flo" : "ida", move: move))
            last = reply.sequence ?? last
            if index == 150 { try keeper.send(.retract(game: "g1", version: 2)) }
        }
        let truth = try keeper.send(.snapshot(game: nil))
        let text = Data(PythonDisplay.finish(python, at: truth.sequence ?? last, seconds: 20).utf8)
        let result = try JSONDecoder().decode(PythonDisplay.State.self, from: text)
        #expect(result.sequence == truth.sequence)
        for game in truth.snapshot ?? [] {
            #expect(result.games[game.id.rawValue]?.version == game.version)
            #expect(result.games[game.id.rawValue]?.score == game.score)
        }
    }
}

/// Random requests, from a fixed seed so that a failure repeats.
@Suite("courtsided under random input", .serialized)
struct RandomInputTests {

    @Test("two thousand malformed and hostile requests: each answered, none crashes the daemon, state stays sane")
    func randomRequests() throws {
        let daemon = try DaemonProcess()
        let keeper = try Keeper(daemon.commandEndpoint)
        var random = SeededRandom(seed: 20_261_122)
        let ops = [
            "move", "retract", "clock", "timeout", "create_game", "list_games", "snapshot", "schedule", "standings", "log", "",
            "dunk",
        ]
        let values: [String] = [
            "\"g1\"", "\"g2\"", "\"ann\"", "\"gus\"", "\"lions\"", "\"bears\"", "\"two_points\"", "\"free_throw\"", "\"start\"",
            "\"home\"", "1", "-1", "0", "2", "9223372036854775807", "-9223372036854775808", "1e308", "null", "true", "[]", "{}",
            "\"\"", "\"_x\"", "\"a/b\"", "{\"milliseconds\": 9223372036854775807, \"overtime_points\": 9223372036854775807}",
            "{\"target_score\": -5}", "{\"team\": \"lions\"}", "\"\\u0000\"",
        ]
        let keys = ["game", "player", "move", "version", "action", "side", "home", "away", "court", "rules"]
        for index in 0..<2000 {
            var fields = [
                "\"op\": \"\(ops.randomElement(using: &random)!)\"", "\"client_id\": \"fuzz\"", "\"command_id\": \"\(index)\"",
            ]
            for key in keys where Bool.random(using: &random) {
                fields.append("\"\(key)\": \(values.randomElement(using: &random)!)")
            }
            var body = Array("{\(fields.shuffled(using: &random).joined(separator: ", "))}".utf8)
            // Now and then, damage the bytes themselves.
            if Int.random(in: 0..<5, using: &random) == 0, !body.isEmpty {
                body[Int.random(in: 0..<body.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            let reply = try keeper.sendRaw([body])
            #expect(reply.epoch.isEmpty == false)
        }
        // Still serving, and every game is still a game.
        let snapshot = try keeper.send(.snapshot(game: nil))
        #expect(snapshot.ok)
        for game in snapshot.snapshot ?? [] {
            #expect(game.score.home >= 0 && game.score.away >= 0)
            #expect(game.version >= 1)
        }
        #expect(daemon.isRunning)
    }
}
