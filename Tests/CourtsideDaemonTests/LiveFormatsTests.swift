import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import Foundation
import Testing

/// Formats whose games the results decide as the day goes, on the real daemon: a Swiss, whose
/// rounds the daemon pairs once the one before is final (a change in the log each), and a
/// double elimination whose grand final reset is played only if the losers' champion wins.
/// `courtside tournament plan` draws and plans them; `courtside simulate --schedule` plays.
@Suite("formats decided live by the daemon", .serialized, .timeLimit(.minutes(4)))
struct LiveFormatsTests {
    /// The sample event with Women's format replaced, planned with seed 7 into `folder`: the
    /// config the daemon starts from.
    static func config(women format: String, in folder: URL) throws -> String {
        let event = try PublishDrawTests.event(in: folder, named: "event.yaml") { text in
            text.replacingOccurrences(
                of: "format: { type: pools_knockout, pools: 2, qualifiers: 2, third_place: false }", with: "format: \(format)")
        }
        return try PlannedEventTests().plan(event, seed: 7, into: folder)
    }

    @Test(
        "the sample event with Women as a Swiss of 3 rounds: each round paired from the results, no rematch, both stages to the end"
    )
    func swissPlaysOut() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiss-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = try Self.config(women: "{ type: swiss, rounds: 3 }", in: folder)
        let daemon = try DaemonProcess(tournament: config)
        let client = CommandClient(endpoint: daemon.commandEndpoint, clientID: "checker", timeoutMilliseconds: 5000)
        let before = try client.command(.schedule).bracket ?? []
        let women = { (bracket: [BracketEntry]) in bracket.filter { $0.division == "women" } }
        #expect(women(before).count == 12)
        #expect(women(before).filter { $0.state == .ready }.count == 4, "round 1 is drawn; rounds 2 and 3 wait")

        let bracket = try PlannedEventTests().playOut(daemon, client, seconds: 150)
        let notFinal = bracket.filter { $0.state != .final }.map(\.game.rawValue)
        #expect(notFinal.isEmpty, "not final: \(notFinal)")
        let played = women(bracket)
        #expect(played.count == 12)
        var met = Set<Set<TeamID>>()
        var games: [TeamID: Int] = [:]
        for entry in played {
            let (home, away) = (try #require(entry.homeTeam), try #require(entry.awayTeam))
            #expect(met.insert([home, away]).inserted, "a rematch: \(entry.game)")
            games[home, default: 0] += 1
            games[away, default: 0] += 1
        }
        #expect(games.count == 8 && games.values.allSatisfy { $0 == 3 }, "\(games)")

        // The log: rounds 2 and 3, each paired once, from the results before it.
        let log = try PublishDrawTests.changes(client)
        let pairings = log.compactMap { event -> SwissRoundPairing? in
            if case .tournamentChanged(.swissRoundPaired(let pairing), _) = event.kind { return pairing }
            return nil
        }
        #expect(pairings.map(\.round) == [2, 3] && pairings.allSatisfy { $0.group == "women-S" && $0.games.count == 4 })
        let table = try #require(try client.command(.standings).standings?.first { $0.group == "women-S" })
        #expect(table.complete && table.rows.map(\.played) == Array(repeating: 3, count: 8))
    }

    @Test("Women as a double elimination with a reset: the reset created only if the losers' champion wins the grand final, else out of the bracket")
    func doubleEliminationReset() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reset-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = try Self.config(women: "{ type: double_elimination, reset: true }", in: folder)
        #expect(config.contains("played_if"), "the config keeps the reset's condition")
        let daemon = try DaemonProcess(tournament: config)
        let client = CommandClient(endpoint: daemon.commandEndpoint, clientID: "checker", timeoutMilliseconds: 5000)
        let before = try client.command(.schedule).bracket ?? []
        #expect(before.contains { $0.game == "women-GF2" && $0.state == .pending })

        let bracket = try PlannedEventTests().playOut(daemon, client, seconds: 150)
        let notFinal = bracket.filter { $0.state != .final }.map(\.game.rawValue)
        #expect(notFinal.isEmpty, "not final: \(notFinal)")
        let final = try #require(bracket.first { $0.game == "women-GF" })
        let games = try client.command(.listGames).games ?? []
        let reset = bracket.first { $0.game == "women-GF2" }
        if final.winner == final.homeTeam {
            // The winners' champion took the first final: no reset, anywhere.
            #expect(reset == nil && !games.contains { $0.game == "women-GF2" })
        } else {
            // The losers' champion won it: the same two teams again, the first final's loser at home.
            let played = try #require(reset)
            #expect(played.homeTeam == final.homeTeam && played.awayTeam == final.awayTeam && played.state == .final)
        }
    }
}
