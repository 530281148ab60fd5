import CourtsideModel
import CourtsideProtocol
import Testing

@testable import CourtsideServer

/// Each game's JSON kept for a burst of reads: what a snapshot sends is always the game as it is.
@Suite("the reader's kept JSON of each game")
struct EncodedGamesTests {
    private static func game(version: Int, running: Bool) -> Game {
        let home = Team(id: "h", name: "H", players: [Player(id: "h1", name: "H1")])
        let away = Team(id: "a", name: "A", players: [Player(id: "a1", name: "A1")])
        var game = Game(setup: GameSetup(id: "g1", home: home, away: away))
        game.version = version
        if running { game.status = .running }
        return game
    }

    @Test("a game's JSON is kept until its version changes, and made again from the game once forgotten at a burst's end")
    func keptAndForgotten() {
        let encoded = EncodedGames()
        let first = Self.game(version: 1, running: false)
        let bytes = encoded.game(first)
        #expect(bytes == WireCoding.encode(first))
        // The same version again: the kept JSON, even were the game given different (it never is).
        #expect(encoded.game(Self.game(version: 1, running: true)) == bytes)
        // A newer version: its own JSON.
        let newer = Self.game(version: 2, running: true)
        #expect(encoded.game(newer) == WireCoding.encode(newer))
        // Forgotten: made again from the game as given. Given with the same version but other
        // content, it shows which: kept, the JSON would still be `newer`'s.
        encoded.forget()
        let sameVersion = Self.game(version: 2, running: false)
        #expect(encoded.game(sameVersion) == WireCoding.encode(sameVersion))
        #expect(encoded.game(sameVersion) != WireCoding.encode(newer))
        // And kept again from then on, until the next forget.
        #expect(encoded.game(newer) == WireCoding.encode(sameVersion))
    }
}
