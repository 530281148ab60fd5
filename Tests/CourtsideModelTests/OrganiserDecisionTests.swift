import CourtsideModel
import Testing

@Suite("the organiser's decisions: forfeits and games ended early")
struct OrganiserDecisionTests {
    @Test("a forfeit ends the game at the rules' forfeit result, by default the target score to 0; nothing moves it after")
    func forfeit() throws {
        var book = Scorebook()
        try book.run(.startClock)
        try book.score(.home, 6)
        book.advance(seconds: 30)
        try book.run(.forfeit(side: .home, reason: "two players left injured"))
        #expect(book.game.isFinished && book.game.endReason == .forfeit && book.game.winner == .away)
        #expect(book.game.score == SideValues(home: 0, away: 15))
        #expect(!book.game.clock.isRunning)
        #expect(book.refusal(.move(player: "a1", move: .twoPoints)) == .gameFinished)
        #expect(book.refusal(.endEarly(result: .noResult, reason: "x")) == .gameFinished)
        // A move taken back after it: the counts follow, the result does not.
        try book.run(.retract(version: 3))
        #expect(book.game.counts["h1"]?.twoPoints == 2)
        #expect(book.game.score == SideValues(home: 0, away: 15) && book.game.winner == .away)

        var noShow = Scorebook(rules: RuleSet(targetScore: 21, winBy: 1, forfeitScore: 10))
        try noShow.run(.forfeit(side: .away, reason: nil))
        #expect(noShow.game.score == SideValues(home: 10, away: 0) && noShow.game.winner == .home)
        #expect(noShow.game.hasStarted, "decided: the bracket shows it final, not ready")
        #expect(RuleSet(forfeitScore: 0).problem == "forfeit_score must be between 1 and 1000")
    }

    @Test("ended early as it stands: the leader wins, a tie has no winner, and a retraction may change the leader")
    func abandoned() throws {
        var book = Scorebook()
        try book.score(.home, 5)
        try book.score(.away, 4)
        try book.run(.endEarly(result: .asItStands, reason: "floor flooded"))
        #expect(book.game.isFinished && book.game.endReason == .abandoned && book.game.winner == .home)
        #expect(book.game.score == SideValues(home: 5, away: 4))
        // Home's last point taken back: level, so nobody won; the game stays over.
        try book.run(.retract(version: 4))
        #expect(book.game.isFinished && book.game.winner == nil && book.game.endReason == .abandoned)
        #expect(book.refusal(.move(player: "h1", move: .onePoint)) == .gameFinished)
    }

    @Test("ended with no result: nobody wins, whatever the score")
    func noResult() throws {
        var book = Scorebook()
        try book.score(.away, 9)
        try book.run(.endEarly(result: .noResult, reason: "the gym closed"))
        #expect(book.game.isFinished && book.game.endReason == .noResult && book.game.winner == nil)
        #expect(book.game.score == SideValues(home: 0, away: 9))
    }

    @Test("a reason is required to end a game early, at most 500 characters, without control characters")
    func reasons() {
        var book = Scorebook()
        #expect(book.refusal(.endEarly(result: .noResult, reason: "  ")) == .invalidReason)
        #expect(book.refusal(.endEarly(result: .noResult, reason: String(repeating: "x", count: 501))) == .invalidReason)
        #expect(book.refusal(.forfeit(side: .home, reason: "late\u{0}")) == .invalidReason)
        #expect(book.refusal(.forfeit(side: .home, reason: "late\u{202E}")) == .invalidReason)
        #expect(book.refusal(.forfeit(side: .home, reason: "late\u{7F}")) == .invalidReason)
        #expect(book.refusal(.forfeit(side: .home, reason: "late,\nthen left")) == nil)
    }

    @Test("standings count a forfeit like any result, an early end with no result for nobody, and the group still completes")
    func standings() throws {
        let teams = ["a", "b", "c"].map {
            Team(id: TeamID($0), name: $0.uppercased(), players: [Player(id: PlayerID("\($0)-p"), name: "P")])
        }
        let schedule = Schedule(
            teams: Dictionary(uniqueKeysWithValues: teams.map { ($0.id, $0) }),
            groups: [Group(id: "X", teams: ["a", "b", "c"])],
            games: [
                ScheduledGame(id: "x1", home: .team("a"), away: .team("b"), group: "X"),
                ScheduledGame(id: "x2", home: .team("b"), away: .team("c"), group: "X"),
                ScheduledGame(id: "f", home: .winner(of: "x2"), away: .groupRank(group: "X", rank: 1)),
            ])
        func decided(_ id: GameID, _ home: Team, _ away: Team, _ command: GameCommand) throws -> Game {
            var game = Game(setup: GameSetup(id: id, home: home, away: away))
            for kind in try game.decide(command, at: Timestamp(milliseconds: 0)).get() {
                game.apply(
                    GameEvent(
                        gameID: id, version: game.version + 1, at: Timestamp(milliseconds: 0),
                        origin: CommandOrigin(clientID: "organiser", commandID: "1"), kind: kind))
            }
            return game
        }
        let games: [GameID: Game] = [
            "x1": try decided("x1", teams[0], teams[1], .forfeit(side: .away, reason: "no show")),
            "x2": try decided("x2", teams[1], teams[2], .endEarly(result: .noResult, reason: "injury")),
        ]
        let table = try #require(schedule.standings(games).first)
        #expect(table.complete, "both games are over")
        let a = try #require(table.rows.first { $0.team == "a" })
        let b = try #require(table.rows.first { $0.team == "b" })
        let c = try #require(table.rows.first { $0.team == "c" })
        #expect((a.played, a.won, a.pointsFor, a.pointsAgainst) == (1, 1, 15, 0))
        #expect((b.played, b.lost, b.pointsFor) == (1, 1, 0), "the no-result game counts for nobody")
        #expect(c.played == 0)
        let final = try #require(schedule.bracket(games).first { $0.game == "f" })
        #expect(final.awayTeam == "a", "the group's first is known")
        #expect(final.homeTeam == nil && final.state == .pending, "a game with no result names no winner")
        #expect(schedule.bracket(games).first { $0.game == "x1" }?.state == .final)
    }
}

@Suite("when a game really started and ended")
struct GameTimesTests {
    @Test("started at its first move, time-out or clock start; ended when decided; a reopening clears the end")
    func times() throws {
        var book = Scorebook()
        #expect(book.game.startedAt == nil && book.game.endedAt == nil)
        book.advance(seconds: 60)
        let start = book.now
        try book.run(.timeout(side: .home))
        #expect(book.game.startedAt == start)
        book.advance(seconds: 30)
        try book.run(.startClock)
        #expect(book.game.startedAt == start, "the first one counts")
        try book.score(.home, 14)
        book.advance(seconds: 300)
        let winning = try book.run(.move(player: "h1", move: .onePoint))
        #expect(book.game.isFinished && book.game.endedAt == book.now)
        book.advance(seconds: 5)
        try book.run(.retract(version: winning))
        #expect(!book.game.isFinished && book.game.endedAt == nil)
        try book.run(.move(player: "h1", move: .onePoint))
        #expect(book.game.endedAt == book.now)

        var noShow = Scorebook()
        try noShow.run(.forfeit(side: .away, reason: nil))
        #expect(noShow.game.startedAt == noShow.now && noShow.game.endedAt == noShow.now)
    }
}
