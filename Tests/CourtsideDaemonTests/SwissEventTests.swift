import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import Foundation
import Testing

/// A Swiss division on the real daemon: `courtside tournament plan` draws its first round and
/// plans every round's games; the daemon pairs each later round once the one before is final,
/// as a change in the log; `courtside simulate --schedule` plays the day out.
@Suite("a Swiss division paired live by the daemon", .serialized, .timeLimit(.minutes(4)))
struct SwissEventTests {
    @Test(
        "the sample event with Women as a Swiss of 3 rounds: each round paired from the results, no rematch, both stages to the end"
    )
    func swissPlaysOut() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiss-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let event = try PublishDrawTests.event(in: folder, named: "event.yaml") { text in
            text.replacingOccurrences(
                of: "format: { type: pools_knockout, pools: 2, qualifiers: 2, third_place: false }",
                with: "format: { type: swiss, rounds: 3 }")
        }
        let config = try PlannedEventTests().plan(event, seed: 7, into: folder)
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
}
