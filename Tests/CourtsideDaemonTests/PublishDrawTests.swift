import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import Foundation
import Testing

/// `courtside tournament publish` against the real daemon: a tournament waiting for its draw
/// gets the sample event as one change, a retry and a second run are applied once, a redraw
/// before the first game replaces the divisions (the games it drops end with no result), and
/// one after a game started is refused with `stage_started`, changing nothing.
@Suite("a draw published to a running daemon", .serialized, .timeLimit(.minutes(4)))
struct PublishDrawTests {
    static let courtside = PlannedEventTests.courtside

    /// The sample event beside its teams' CSV in `folder`, with `edit` made to its text.
    static func event(in folder: URL, named name: String, _ edit: (String) -> String = { $0 }) throws -> String {
        let config = PlannedEventTests.repository.appendingPathComponent("config")
        let text = try String(contentsOf: config.appendingPathComponent("event.yaml"), encoding: .utf8)
        let path = folder.appendingPathComponent(name).path
        try edit(text).write(toFile: path, atomically: true, encoding: .utf8)
        let csv = folder.appendingPathComponent("teams.csv")
        if !FileManager.default.fileExists(atPath: csv.path) {
            try FileManager.default.copyItem(at: config.appendingPathComponent("teams.csv"), to: csv)
        }
        return path
    }

    static func publish(_ event: String, _ daemon: DaemonProcess, _ extra: [String] = []) throws -> (
        status: Int32, output: String
    ) {
        try ChildProcess.run(
            courtside,
            ["tournament", "publish", event, "--quick", "--command-endpoint", daemon.commandEndpoint, "--timeout-ms", "8000"]
                + extra, mergeError: true, seconds: 120)
    }

    /// The tournament stream's events, from the log.
    static func changes(_ client: CommandClient) throws -> [GameEvent] {
        try client.command(.log(game: .tournament)).events ?? []
    }

    @Test(
        "publish: one change with the draw's seed and description; sent twice, applied once; redrawn before the first game; refused with stage_started after"
    )
    func publishRedrawAndStart() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("publish-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A tournament with a name and nothing else: waiting for its draw.
        let daemon = try DaemonProcess(tournament: "tournament: Courtside Summer 3x3\n")
        let client = CommandClient(endpoint: daemon.commandEndpoint, clientID: "checker", timeoutMilliseconds: 8000)
        #expect(try client.command(.schedule).bracket?.isEmpty == true)

        // 1. Published: 24 teams and 47 games in force, the pool games created and ready.
        let event = try Self.event(in: folder, named: "event.yaml")
        let first = try Self.publish(event, daemon, ["--reason", "the draw at 08:30"])
        #expect(first.status == 0, "\(first.output)")
        #expect(
            first.output.contains("published the draw of divisions open, women (the tournament's change 1"), "\(first.output)")
        let setup = try #require(try client.command(.tournament).tournament)
        #expect(setup.teams.count == 24 && setup.divisions?.map(\.id) == ["open", "women"])
        let bracket = try #require(try client.command(.schedule).bracket)
        #expect(bracket.count == 47)
        #expect(bracket.filter { $0.group != nil }.allSatisfy { $0.state == .ready }, "\(bracket.map(\.state))")
        let created = try client.command(.listGames).games ?? []
        #expect(created.count == 36, "the 36 pool games exist: \(created.count)")

        // The log keeps one change: the draw, its description and the reason.
        var log = try Self.changes(client)
        #expect(log.count == 1)
        guard case .tournamentChanged(.drawPublished(let draw), let reason) = log.first?.kind else {
            Issue.record("the change is not a draw: \(String(describing: log.first))")
            return
        }
        #expect(reason == "the draw at 08:30")
        #expect(draw.event?.contains("format: { type: pools_knockout, pools: 4") == true)
        #expect(draw.schedule.games.count == 47)

        // 2. The same draw again (a second run): the first answer, nothing more in the log.
        let again = try Self.publish(event, daemon)
        #expect(again.status == 0 && again.output.contains("the tournament's change 1,"), "\(again.output)")
        #expect(try Self.changes(client).count == 1)

        // 3. A redraw before any game: Open in 2 pools of 8. The games of pools C and D exist,
        // and the new draw drops them: they end with no result, and keepers no longer find them.
        let twoPools = try Self.event(in: folder, named: "two-pools.yaml") {
            $0.replacingOccurrences(of: "pools: 4, qualifiers: 2", with: "pools: 2, qualifiers: 4")
        }
        let redraw = try Self.publish(twoPools, daemon)
        #expect(redraw.status == 0 && redraw.output.contains("the tournament's change 2,"), "\(redraw.output)")
        let redrawn = try #require(try client.command(.schedule).bracket)
        #expect(!redrawn.contains { $0.game.rawValue.hasPrefix("open-C-") || $0.game.rawValue.hasPrefix("open-D-") })
        let groups = Set(redrawn.compactMap(\.group))
        #expect(groups == ["open-A", "open-B", "women-A", "women-B"], "\(groups)")
        let games = try client.snapshot().games
        let dropped = games.filter { $0.id.rawValue.hasPrefix("open-C-") || $0.id.rawValue.hasPrefix("open-D-") }
        #expect(dropped.count == 12 && dropped.allSatisfy { $0.isFinished && $0.winner == nil }, "\(dropped.map(\.status))")
        // Pool A's games follow the new draw: each has the teams its schedule entry names.
        for entry in redrawn where entry.group == "open-A" {
            let game = try #require(games.first { $0.id == entry.game })
            #expect(game.setup.home.id == entry.homeTeam && game.setup.away.id == entry.awayTeam, "\(entry.game)")
        }

        // 4. Back to four pools: pools C and D come back under new ids (the ended games keep theirs).
        let back = try Self.publish(event, daemon)
        #expect(back.status == 0 && back.output.contains("the tournament's change 3,"), "\(back.output)")
        let four = try #require(try client.command(.schedule).bracket)
        #expect(four.count == 47)
        #expect(four.contains { $0.game == "open-C-1-2" } && !four.contains { $0.game == "open-C-1" }, "\(four.map(\.game))")
        let quarterFinal = try #require(four.first { $0.game == "open-qf1" })
        #expect(quarterFinal.state == .pending)

        // 5. A game starts; a redraw of its division is refused, and nothing changes.
        let opener = try #require(four.first { $0.group == "open-A" }?.game)
        try client.command(.clock(game: opener, command: .startClock))
        let late = try Self.publish(twoPools, daemon)
        #expect(late.status != 0 && late.output.contains("[stage_started]"), "\(late.output)")
        #expect(late.output.contains("division Open has started"), "\(late.output)")
        log = try Self.changes(client)
        #expect(log.count == 3)
        #expect(try client.command(.schedule).bracket?.map(\.game) == four.map(\.game))

        // 6. After a restart: the same draw in force, the dropped games ended once.
        daemon.stop()
        try daemon.start()
        let restarted = try #require(try client.command(.schedule).bracket)
        #expect(restarted.map(\.game) == four.map(\.game))
        let endings = try client.command(.log(game: "open-C-1")).events ?? []
        #expect(endings.filter { if case .ended = $0.kind { true } else { false } }.count == 1, "\(endings.map(\.kind))")
    }

    @Test("one division published alone: planned around the other's games, which keep their courts and starts")
    func divisionAlone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let daemon = try DaemonProcess(tournament: "tournament: Courtside Summer 3x3\n")
        let client = CommandClient(endpoint: daemon.commandEndpoint, clientID: "checker", timeoutMilliseconds: 8000)
        let event = try Self.event(in: folder, named: "event.yaml")
        #expect(try Self.publish(event, daemon, ["--seed", "7"]).status == 0)
        let before = try #require(try client.command(.schedule).bracket)
        let open = before.filter { $0.division == "open" }

        // Women redrawn as a round robin, alone.
        let robin = try Self.event(in: folder, named: "robin.yaml") { text in
            text.replacingOccurrences(
                of: "format: { type: pools_knockout, pools: 2, qualifiers: 2, third_place: false }",
                with: "format: { type: round_robin }")
        }
        let alone = try Self.publish(robin, daemon, ["--seed", "7", "--division", "women", "--reason", "women as one pool"])
        #expect(alone.status == 0 && alone.output.contains("published the draw of division women"), "\(alone.output)")
        let after = try #require(try client.command(.schedule).bracket)
        #expect(after.filter { $0.division == "open" } == open, "the open games did not move")
        let women = after.filter { $0.division == "women" }
        #expect(women.count == 28)
        let slot = 14  // the sample event's 10 minutes a game and 4 of changeover
        func minutes(_ start: String?) -> Int { start.flatMap { TextRule.time($0) }.map { $0.hour * 60 + $0.minute } ?? -1 }
        for game in women {
            for other in open where other.court == game.court {
                let (a, b) = (minutes(game.start), minutes(other.start))
                #expect(a + slot <= b || b + slot <= a, "\(game.game) and \(other.game) on \(game.court ?? "?")")
            }
        }
        // A division the event does not describe: refused before anything is sent.
        let unknown = try Self.publish(robin, daemon, ["--division", "u18"])
        #expect(unknown.status != 0 && unknown.output.contains("no division u18"), "\(unknown.output)")
    }
}
