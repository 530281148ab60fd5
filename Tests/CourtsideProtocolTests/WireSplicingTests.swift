import CourtsideModel
import CourtsideProtocol
import Foundation
import Testing

@Suite("replies put together from cached JSON")
struct WireSplicingTests {
    static let lions = Team(id: "lions", name: "Lions \"the\" \\ 1st", players: [Player(id: "ann", name: "Ann")])
    static let tigers = Team(id: "tigers", name: "Tigers", players: [Player(id: "di", name: "Di")])

    @Test("a reply with appended games decodes to the reply that holds them")
    func splicedReplyDecodes() throws {
        var games: [Game] = []
        for index in 0..<3 {
            var game = Game(
                setup: GameSetup(id: GameID("g\(index)"), home: Self.lions, away: Self.tigers, court: "Court \(index)"))
            if case .success(let kinds) = game.decide(.move(player: "ann", move: .twoPoints), at: Timestamp(milliseconds: 5)) {
                for kind in kinds {
                    game.apply(
                        GameEvent(
                            gameID: game.id, version: game.version + 1, at: Timestamp(milliseconds: 5),
                            origin: CommandOrigin(clientID: "k", commandID: "\(index)"), kind: kind))
                }
            }
            games.append(game)
        }
        var reply = Reply(commandID: "7", epoch: "e")
        reply.sequence = 12
        let spliced = try WireCoding.encode(
            reply, appending: [("snapshot", games.map { WireCoding.encode($0) }), ("games", [])])
        var whole = reply
        whole.snapshot = games
        whole.games = []
        #expect(try WireCoding.decode(Reply.self, from: spliced) == whole)
        // Nothing appended: the same bytes as the value alone.
        #expect(try WireCoding.encode(reply, appending: []) == WireCoding.encode(reply))
    }

    @Test("only an object can have members appended")
    func onlyObjects() {
        #expect(throws: EncodingError.self) { try WireCoding.encode([1, 2], appending: [("games", [])]) }
    }
}
