import CourtsideModel
import Foundation
import Testing

@Suite("The game clock under a test clock")
struct ClockTests {
    @Test("elapsed = accumulated + (now - started) while running")
    func elapsedAcrossPauses() throws {
        var book = Scorebook()
        #expect(book.game.status == .scheduled)
        #expect(book.game.clock.elapsed(at: book.now) == 0)
        try book.run(.startClock)
        #expect(book.game.status == .running)
        book.advance(seconds: 90.5)
        #expect(book.game.clock.elapsed(at: book.now) == 90_500)
        try book.run(.pauseClock)
        #expect(book.game.status == .paused)
        book.advance(seconds: 600)
        #expect(book.game.clock.elapsed(at: book.now) == 90_500)
        try book.run(.startClock)
        book.advance(seconds: 9.5)
        #expect(book.game.clock.elapsed(at: book.now) == 100_000)
    }

    @Test("starting a running clock or pausing a stopped one is refused")
    func clockRefusals() throws {
        var book = Scorebook()
        #expect(book.refusal(.pauseClock) == .clockNotRunning)
        try book.run(.startClock)
        #expect(book.refusal(.startClock) == .clockRunning)
    }

    @Test("the clock stops by itself when the game ends")
    func stopsAtEnd() throws {
        var book = Scorebook()
        try book.run(.startClock)
        book.advance(seconds: 120)
        try book.score(.home, 15)
        #expect(book.game.isFinished)
        #expect(!book.game.clock.isRunning)
        book.advance(seconds: 300)
        #expect(book.game.clock.elapsed(at: book.now) == 120_000)
    }
}

@Suite("Events on the wire")
struct EventCodingTests {
    @Test("every event kind survives a JSON round trip")
    func roundTrip() throws {
        let kinds: [GameEvent.Kind] = [
            .gameCreated(
                GameSetup(
                    id: "g", home: Scorebook.home, away: Scorebook.away, rules: RuleSet(hardCap: 21, timeLimit: .minutes(10)),
                    court: "Court 1")),
            .move(player: "h1", move: .twoPoints), .retraction(targetVersion: 4), .clockStarted, .clockPaused, .timeExpired,
        ]
        for kind in kinds {
            let event = GameEvent(
                gameID: "g", version: 3, sequence: 17, at: Timestamp(milliseconds: 5),
                origin: CommandOrigin(clientID: "c", commandID: "k"), kind: kind)
            let data = try JSONEncoder().encode(event)
            #expect(try JSONDecoder().decode(GameEvent.self, from: data) == event)
        }
    }

    @Test("a game round-trips, counts keyed by player id")
    func gameRoundTrip() throws {
        var book = Scorebook()
        try book.run(.move(player: "h2", move: .assist))
        let data = try JSONEncoder().encode(book.game)
        let json = try #require(String(data: data, encoding: .utf8))
        #expect(json.contains(#""h2":{"#))
        #expect(try JSONDecoder().decode(Game.self, from: data) == book.game)
    }
}
