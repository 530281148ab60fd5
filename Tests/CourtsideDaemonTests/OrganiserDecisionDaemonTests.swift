import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The organiser's forfeits and early ends against the real daemon: durable, retry-safe,
/// published, counted in the tables, and the organiser's alone.
@Suite("the organiser's decisions over ZeroMQ", .serialized, .timeLimit(.minutes(2)))
struct OrganiserDecisionDaemonTests {
    func courtside(_ daemon: DaemonProcess, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try courtsideCLI(daemon, arguments)
    }

    @Test(
        "a forfeit and an early end: applied once under retries and across kill -9, published, in the standings and the bracket"
    )
    func decisions() throws {
        let daemon = try DaemonProcess(schedule: TournamentProtocolTests.schedule)
        let display = try DisplaySync(daemon)
        let organiser = try Keeper(daemon.commandEndpoint, clientID: "organiser")

        // Wolves do not show up: g2 is forfeited, from the command line.
        let (status, output) = try courtside(daemon, ["forfeit", "g2", "away", "--reason", "Wolves did not show up by 10:15"])
        #expect(status == 0 && output.contains("away forfeits"), "\(output)")
        let g2 = try #require(try organiser.send(.snapshot(game: "g2")).snapshot?.first)
        #expect(g2.isFinished && g2.endReason == .forfeit && g2.winner == .home && g2.score == SideValues(home: 15, away: 0))
        let trail = try #require(try organiser.send(.log(game: "g2")).events)
        #expect(trail.last?.kind == .forfeit(side: .away, reason: "Wolves did not show up by 10:15"))
        #expect(trail.last?.origin.clientID == "organiser")

        // Lions lead 4 - 2 when g1 is abandoned; the same command sent three times, once across a kill -9.
        let keeper = try Keeper(daemon.commandEndpoint, clientID: "court-1")
        for _ in 0..<2 { try keeper.send(.move(game: "g1", player: "ann", move: .twoPoints)) }
        try keeper.send(.move(game: "g1", player: "di", move: .twoPoints))
        let origin = CommandOrigin(clientID: "organiser", commandID: "end-g1")
        let end = Request.Operation.endGame(game: "g1", result: .asItStands, reason: "injury: the court is needed")
        let first = try organiser.send(end, origin: origin)
        #expect(first.ok, "\(first)")
        #expect(try organiser.send(end, origin: origin).version == first.version)
        daemon.signal(SIGKILL)
        #expect(daemon.waitForExit(seconds: 10) != nil)
        try daemon.start()
        let again = try Keeper(daemon.commandEndpoint, clientID: "organiser").send(end, origin: origin)
        #expect(again.ok && again.version == first.version, "\(again)")
        let after = try Keeper(daemon.commandEndpoint, clientID: "organiser")
        let g1 = try #require(try after.send(.snapshot(game: "g1")).snapshot?.first)
        #expect(g1.endReason == .abandoned && g1.winner == .home && g1.score == SideValues(home: 4, away: 2))
        #expect(try after.send(.log(game: "g1")).events?.filter { if case .ended = $0.kind { true } else { false } }.count == 1)

        // The results move the tables and the bracket on: Lions (g1) meet Bears (group B's first).
        let standings = try #require(try after.send(.standings).standings)
        let groupB = try #require(standings.first { $0.group == "B" })
        #expect(groupB.complete && groupB.rows.first?.team == "bears" && groupB.rows.first?.pointsFor == 15)
        #expect(
            try eventually {
                let final = try after.send(.schedule).bracket?.first { $0.game == "final" }
                return final?.homeTeam == "lions" && final?.awayTeam == "bears" && final?.state == .ready
            })

        // A display that follows the sync contract ends equal to a fresh snapshot, across the restart.
        let truth = try after.send(.snapshot(game: nil))
        #expect(try display.pump(seconds: 15) { display.sequence >= truth.sequence ?? 0 && !display.isStale })
        for game in truth.snapshot ?? [] { #expect(display.games[game.id]?.game == game, "\(game.id)") }
        #expect(display.standings == truth.standings ?? [])

        // Refusals change nothing.
        #expect(try after.send(.forfeit(game: "g2", side: .home, reason: nil)).error?.code == .gameFinished)
        #expect(try after.send(.endGame(game: "g1", result: .noResult, reason: "again")).error?.code == .gameFinished)
        #expect(try after.send(.endGame(game: "final", result: .noResult, reason: " ")).error?.code == .invalidReason)
        #expect(try after.send(.forfeit(game: "nope", side: .home, reason: nil)).error?.code == .unknownGame)
        let missing = try after.sendRaw([
            Array(#"{"op":"end_game","client_id":"o","command_id":"x","game":"final","result":"no_result"}"#.utf8)
        ])
        #expect(missing.error?.code == .invalidReason && missing.error?.message.contains("reason") == true)
        let (badStatus, badOutput) = try courtside(daemon, ["end-early", "final", "--result", "maybe", "--reason", "x"])
        #expect(badStatus != 0 && badOutput.contains("as-it-stands"), "\(badOutput)")
        #expect(try after.send(.snapshot(game: "final")).snapshot?.first?.isFinished == false)
    }

    @Test("only an organiser key may forfeit or end a game: a keeper and a display get forbidden")
    func organisersAlone() throws {
        let (daemon, keys) = try securedDaemon()
        let forfeit = Request.Operation.forfeit(game: "g1", side: .away, reason: nil)
        for pair in [keys.court1, keys.bigScreen] {
            let reply = try keys.client(daemon, pair).send(forfeit)
            #expect(reply.error?.code == .forbidden, "\(reply)")
            #expect(reply.error?.message.contains("forfeit") == true)
        }
        let organiser = keys.client(daemon, keys.organiser)
        #expect(try organiser.send(.snapshot(game: "g1")).snapshot?.first?.isFinished == false)
        #expect(try organiser.command(forfeit).ok)
        let ended = try keys.client(daemon, keys.court1).send(.endGame(game: "g2", result: .noResult, reason: "no"))
        #expect(ended.error?.code == .forbidden)
    }
}

@Suite("courtside tournament dump", .serialized, .timeLimit(.minutes(2)))
struct TournamentDumpTests {
    @Test("the dump starts an equal tournament: teams, groups, rounds, slots, rules, and a game created at run time")
    func roundTrip() throws {
        let daemon = try DaemonProcess(schedule: TournamentProtocolTests.schedule)
        let organiser = try Keeper(daemon.commandEndpoint, clientID: "organiser")
        let created = try organiser.send(
            .createGame(
                game: "friendly", home: "tigers", away: "wolves", court: "Court 2", rules: RuleSet(targetScore: 11, hardCap: 13)))
        #expect(created.ok, "\(created)")
        let dump = daemon.directory.appendingPathComponent("dump.yaml").path
        let (status, output) = try ChildProcess.run(
            DaemonProcess.executable.deletingLastPathComponent().appendingPathComponent("courtside").path,
            ["tournament", "dump", "--output", dump, "--command-endpoint", daemon.commandEndpoint], mergeError: true)
        #expect(status == 0 && output.contains("wrote"), "\(output)")
        let original = try #require(try organiser.send(.tournament).tournament)
        #expect(original.games.map(\.id) == ["friendly"] && original.rounds.map(\.name) == ["Group stage", "Final"])

        // A fresh daemon from the dump alone.
        let copy = try DaemonFromConfig(dump, beside: daemon)
        defer { withExtendedLifetime(copy) {} }
        let reader = copy.client
        var copied = try #require(try reader.command(.tournament).tournament)
        // Rules given to create_game name no preset; a config's fields are laid over the
        // tournament's preset and take its name. Only that name may differ.
        #expect(copied.games.first?.rules.preset == "pickup-15w2")
        copied.games[0].rules.preset = nil
        #expect(copied == original)
        // The games that exist at once in both: the scheduled ones whose teams are known (the
        // runtime game exists in the copy as a game of its config).
        let games = { (client: CommandClient) throws -> [GameID: GameSetup] in
            Dictionary(
                uniqueKeysWithValues: (try client.snapshot().games).map { game in
                    var setup = game.setup
                    if game.id == "friendly" { setup.rules.preset = nil }
                    return (game.id, setup)
                })
        }
        #expect(try games(reader) == games(CommandClient(endpoint: daemon.commandEndpoint, clientID: "organiser")))
    }
}
