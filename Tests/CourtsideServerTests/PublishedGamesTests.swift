import CourtsideModel
import CourtsideProtocol
import Testing

@testable import CourtsideServer

/// The publisher's table of games: what each heartbeat beats, and which games have started.
@Suite("the publisher's table of games")
struct PublishedGamesTests {
    private static func game(_ id: String, started: Bool = false) -> Game {
        let home = Team(id: "h", name: "H", players: [Player(id: "h1", name: "H1")])
        let away = Team(id: "a", name: "A", players: [Player(id: "a1", name: "A1")])
        var game = Game(setup: GameSetup(id: GameID(id), home: home, away: away))
        if started { game.status = .running }
        return game
    }

    private static func beats(_ games: inout PublishedGames) -> [String: Int] {
        var none: GameID?
        return Dictionary(uniqueKeysWithValues: games.takeBeats(dropping: &none).map { ($0.0.rawValue, $0.1) })
    }

    @Test("a changed game is beaten at each of the next heartbeats with its version; the round visits every game")
    func beats() {
        // Forty games: each heartbeat's round takes two of them.
        var games = PublishedGames((0..<40).map { Self.game("g\($0 + 10)") })
        let changed = "g\(10 + 39)"
        _ = games.changed(GameID(changed), version: 7)
        var seen: Set<String> = []
        var changedBeats = 0
        var totalBeats = 0
        for heartbeat in 0..<ProtocolVersion.beatCycleHeartbeats {
            let due = Self.beats(&games)
            #expect(due.count <= 3)
            if let version = due[changed] {
                #expect(version == 7)
                totalBeats += 1
                if heartbeat < ProtocolVersion.beatsAfterChange { changedBeats += 1 }
            }
            seen.formUnion(due.keys)
            for (id, version) in due where id != changed { #expect(version == 1, "\(id)") }
        }
        #expect(changedBeats == ProtocolVersion.beatsAfterChange)
        // Then only when the round comes to it.
        #expect(totalBeats <= ProtocolVersion.beatsAfterChange + 1)
        #expect(seen.count == 40)
        #expect(games.ids.count == 40)
    }

    @Test("a new game gets a row; a game starts once; a drill's beat is dropped once")
    func rowsStartsAndDrops() {
        var games = PublishedGames([Self.game("a", started: true)])
        let row = games.changed("b", version: 1)
        #expect(games.ids == ["a", "b"])
        let starts = [games.start(row), games.start(row), games.start(games.changed("a", version: 2))]
        #expect(starts == [true, false, false])
        var dropping: GameID? = "b"
        let first = games.takeBeats(dropping: &dropping).map(\.0)
        #expect(!first.contains("b") && first.contains("a") && dropping == nil)
        var none: GameID?
        let second = games.takeBeats(dropping: &none).map(\.0)
        #expect(second.contains("b"))
        let topics = [games.topic(of: "b"), games.topic(of: "unknown")]
        #expect(topics == [Topic.events(of: "b"), Topic.events(of: "unknown")])
    }
}
