import CourtsideModel
import Testing

@Suite("The rules of the end")
struct RulesTests {
    @Test("15-13 ends the game")
    func fifteenThirteenEnds() throws {
        var book = Scorebook()
        try book.score(.away, 13)
        try book.score(.home, 15)
        #expect(book.game.score == SideValues(home: 15, away: 13))
        #expect(book.game.status == .finished)
        #expect(book.game.winner == .home)
        #expect(book.game.endReason == .score)
    }

    @Test("15-14 does not end the game, 16-14 does")
    func winByTwo() throws {
        var book = Scorebook()
        try book.score(.home, 14)
        try book.score(.away, 14)
        try book.score(.home, 1)
        #expect(book.game.score == SideValues(home: 15, away: 14))
        #expect(!book.game.isFinished)
        try book.run(.move(player: "h2", move: .onePoint))
        #expect(book.game.score == SideValues(home: 16, away: 14))
        #expect(book.game.isFinished)
        #expect(book.game.winner == .home)
    }

    @Test("a hard cap wins outright, without the lead")
    func hardCap() throws {
        var book = Scorebook(rules: RuleSet(targetScore: 15, winBy: 2, hardCap: 17))
        try book.score(.home, 14)
        try book.score(.away, 14)
        for side in [Side.home, .away, .home, .away] { try book.score(side, 1) }
        #expect(book.game.score == SideValues(home: 16, away: 16))
        #expect(!book.game.isFinished)
        try book.run(.move(player: "a2", move: .onePoint))
        #expect(book.game.score == SideValues(home: 16, away: 17))
        #expect(book.game.winner == .away)
        #expect(book.game.endReason == .cap)
    }

    @Test("moves after the end are refused and change nothing")
    func movesAfterEndRefused() throws {
        var book = Scorebook()
        try book.score(.home, 15)
        let before = book.game
        #expect(book.refusal(.move(player: "a1", move: .twoPoints)) == .gameFinished)
        #expect(book.refusal(.move(player: "h1", move: .rebound)) == .gameFinished)
        #expect(book.refusal(.startClock) == .gameFinished)
        #expect(book.game == before)
    }

    @Test("assists, rebounds and fouls are counted but score nothing")
    func countedMoves() throws {
        var book = Scorebook()
        try book.run(.move(player: "h2", move: .assist))
        try book.run(.move(player: "h2", move: .rebound))
        try book.run(.move(player: "a3", move: .foul))
        try book.run(.move(player: "a3", move: .foul))
        try book.run(.move(player: "h2", move: .twoPoints))
        #expect(book.game.score == SideValues(home: 2, away: 0))
        #expect(book.game.counts["h2"]?.assist == 1)
        #expect(book.game.counts["h2"]?.rebound == 1)
        #expect(book.game.counts["h2"]?.twoPoints == 1)
        #expect(book.game.counts["a3"]?.foul == 2)
        #expect(book.game.counts["h1"] == MoveCounts())
    }

    @Test("a player of neither team is refused")
    func playerNotInGame() {
        var book = Scorebook()
        #expect(book.refusal(.move(player: "z9", move: .onePoint)) == .playerNotInGame)
        #expect(book.game.version == 1)
    }

    @Test("a setup with one team twice, an empty roster or a shared player is invalid")
    func invalidSetups() {
        let home = Scorebook.home
        let cases = [
            GameSetup(id: "x", home: home, away: home),
            GameSetup(id: "x", home: home, away: Team(id: "empty", name: "Empty", players: [])),
            GameSetup(id: "x", home: home, away: Team(id: "t", name: "T", players: [home.players[0]])),
            GameSetup(id: "x", home: home, away: Scorebook.away, rules: RuleSet(targetScore: 0)),
        ]
        for setup in cases {
            #expect(throws: CourtsideError.self) { try setup.validate() }
        }
        #expect(throws: Never.self) { try GameSetup(id: "ok", home: home, away: Scorebook.away).validate() }
    }
}

@Suite("Time limits and overtime")
struct TimeLimitTests {
    @Test("at time the leader wins and the clock reads the limit")
    func leaderWinsAtTime() throws {
        var book = Scorebook(rules: RuleSet(timeLimit: .minutes(10)))
        try book.run(.startClock)
        try book.score(.home, 6)
        try book.score(.away, 4)
        book.advance(seconds: 599)
        #expect(book.game.expiry(at: book.now) == nil)
        book.advance(seconds: 3)
        // The next command finds the time run out: the move is refused, the game is over.
        #expect(book.refusal(.move(player: "a1", move: .twoPoints)) == .gameFinished)
        #expect(book.game.winner == .home)
        #expect(book.game.endReason == .time)
        #expect(book.game.clock.elapsed(at: book.now.adding(milliseconds: 5000)) == 600_000)
        #expect(book.game.score == SideValues(home: 6, away: 4))
    }

    @Test("a tie at time goes to overtime: first to score two more wins")
    func tieGoesToOvertime() throws {
        var book = Scorebook(rules: RuleSet(timeLimit: .minutes(10, overtimePoints: 2)))
        try book.run(.startClock)
        try book.score(.home, 8)
        try book.score(.away, 8)
        book.advance(seconds: 601)
        try book.run(.move(player: "a1", move: .onePoint))
        #expect(book.game.timeExpired)
        #expect(book.game.overtimeTargets == SideValues(home: 10, away: 10))
        #expect(!book.game.isFinished)
        #expect(book.game.clock.isRunning)
        try book.run(.move(player: "h1", move: .twoPoints))
        #expect(book.game.score == SideValues(home: 10, away: 9))
        #expect(book.game.winner == .home)
        #expect(book.game.endReason == .overtime)
        #expect(!book.game.clock.isRunning)
    }

    @Test("sudden-death overtime at time whatever the score")
    func overtimeWhateverTheScore() throws {
        var book = Scorebook(rules: RuleSet(timeLimit: .minutes(5, atTime: .overtime, overtimePoints: 3)))
        try book.run(.startClock)
        try book.score(.home, 7)
        try book.score(.away, 4)
        book.advance(seconds: 300)
        try book.run(.move(player: "a1", move: .twoPoints))
        #expect(book.game.overtimeTargets == SideValues(home: 10, away: 7))
        #expect(!book.game.isFinished)
        try book.run(.move(player: "a1", move: .onePoint))
        #expect(book.game.winner == .away)
    }

    @Test("a paused clock never runs out")
    func pausedClockDoesNotExpire() throws {
        var book = Scorebook(rules: RuleSet(timeLimit: .minutes(1)))
        try book.run(.startClock)
        book.advance(seconds: 30)
        try book.run(.pauseClock)
        book.advance(seconds: 3600)
        #expect(book.game.expiry(at: book.now) == nil)
        #expect(book.game.expiryTime() == nil)
        try book.run(.startClock)
        #expect(book.game.expiryTime() == book.now.adding(milliseconds: 30_000))
    }
}

@Suite("Undo")
struct UndoTests {
    @Test("undoing the winning basket reopens the game; the audit trail keeps both")
    func undoWinningBasket() throws {
        var book = Scorebook()
        try book.run(.startClock)
        try book.score(.away, 13)
        book.advance(seconds: 60)
        try book.score(.home, 14)
        let winning = try book.run(.move(player: "h3", move: .onePoint))
        #expect(book.game.isFinished)
        let clockAtEnd = book.game.clock.elapsed(at: book.now)
        book.advance(seconds: 20)
        let retraction = try book.run(.retract(version: winning))
        #expect(book.game.status == .paused)
        #expect(book.game.winner == nil)
        #expect(book.game.score == SideValues(home: 14, away: 13))
        #expect(book.game.counts["h3"]?.onePoint == 0)
        #expect(book.game.clock.elapsed(at: book.now) == clockAtEnd)
        let play = try #require(book.game.plays.first { $0.version == winning })
        #expect(play.retractedBy == retraction)
        #expect(book.game.version == retraction)
        // Live again: the away team can score.
        try book.run(.move(player: "a2", move: .onePoint))
        #expect(book.game.score == SideValues(home: 14, away: 14))
    }

    @Test("undoing a loser's basket keeps the game finished")
    func undoKeepsResult() throws {
        var book = Scorebook()
        let awayBasket = try book.run(.move(player: "a1", move: .twoPoints))
        try book.score(.home, 15)
        try book.run(.retract(version: awayBasket))
        #expect(book.game.isFinished)
        #expect(book.game.winner == .home)
        #expect(book.game.score == SideValues(home: 15, away: 0))
    }

    @Test("only moves can be retracted, once")
    func retractionRefusals() throws {
        var book = Scorebook()
        let clockVersion = try book.run(.startClock)
        let move = try book.run(.move(player: "h1", move: .foul))
        #expect(book.refusal(.retract(version: clockVersion)) == .notAMove)
        #expect(book.refusal(.retract(version: 1)) == .notAMove)
        #expect(book.refusal(.retract(version: 99)) == .unknownEvent)
        try book.run(.retract(version: move))
        #expect(book.refusal(.retract(version: move)) == .alreadyRetracted)
        #expect(book.game.counts["h1"]?.foul == 0)
    }

    @Test("a retraction that ties a game decided at time sends it to overtime")
    func undoTimeWinIntoOvertime() throws {
        var book = Scorebook(rules: RuleSet(timeLimit: .minutes(1, overtimePoints: 2)))
        try book.run(.startClock)
        try book.run(.move(player: "a1", move: .twoPoints))
        let basket = try book.run(.move(player: "h1", move: .twoPoints))
        try book.run(.move(player: "h2", move: .twoPoints))
        book.advance(seconds: 61)
        #expect(book.refusal(.move(player: "a1", move: .onePoint)) == .gameFinished)
        #expect(book.game.winner == .home)
        try book.run(.retract(version: basket))
        #expect(book.game.score == SideValues(home: 2, away: 2))
        #expect(!book.game.isFinished)
        #expect(book.game.overtimeTargets == SideValues(home: 4, away: 4))
        #expect(book.game.clock.elapsed(at: book.now) == 60_000)
    }
}
