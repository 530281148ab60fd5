import CourtsideModel
import Foundation
import Testing

@Suite("Rule presets")
struct PresetTests {
    @Test("pickup-15w2 is the default; the capped preset ends at 21 outright")
    func pickup() throws {
        #expect(RulePresets.builtIn["pickup-15w2"] == .standard)
        var book = Scorebook(rules: RulePresets.pickupCapped)
        try book.score(.home, 14)
        try book.score(.away, 14)
        for _ in 0..<6 {
            try book.score(.home, 1)
            try book.score(.away, 1)
        }
        #expect(!book.game.isFinished)
        #expect(book.game.score == SideValues(home: 20, away: 20))
        try book.score(.away, 1)
        #expect(book.game.winner == .away && book.game.endReason == .cap)
    }

    @Test("fiba3x3: first to 21, or the leader after 10 minutes")
    func fiba() throws {
        var book = Scorebook(rules: RulePresets.fiba3x3)
        try book.run(.startClock)
        try book.score(.away, 19)
        try book.score(.home, 20)
        #expect(!book.game.isFinished)
        try book.run(.move(player: "h2", move: .freeThrow))
        #expect(book.game.winner == .home && book.game.score.home == 21)
        #expect(book.game.counts["h2"]?.freeThrow == 1)

        var timed = Scorebook(rules: RulePresets.fiba3x3)
        try timed.run(.startClock)
        try timed.score(.home, 9)
        try timed.score(.away, 9)
        timed.advance(seconds: 600)
        try timed.run(.move(player: "a1", move: .foul))
        #expect(timed.game.overtimeTargets == SideValues(home: 11, away: 11))
        try timed.score(.away, 2)
        #expect(timed.game.winner == .away && timed.game.endReason == .overtime)
    }

    @Test("team fouls are flagged on the team: two free throws from the 7th, and possession from the 10th")
    func teamFouls() throws {
        var book = Scorebook(rules: RulePresets.fiba3x3)
        for _ in 0..<6 { try book.run(.move(player: "a2", move: .foul)) }
        #expect(book.game.teamFouls.away == 6)
        #expect(book.game.penalty(.away) == .none)
        let seventh = try book.run(.move(player: "a3", move: .foul))
        #expect(book.game.penalty(.away) == .twoFreeThrows)
        #expect(book.game.penalty(.home) == .none)
        for _ in 0..<3 { try book.run(.move(player: "a1", move: .foul)) }
        #expect(book.game.teamFouls.away == 10)
        #expect(book.game.penalty(.away) == .twoFreeThrowsAndPossession)
        try book.run(.retract(version: seventh))
        #expect(book.game.teamFouls.away == 9)
        #expect(book.game.penalty(.away) == .twoFreeThrows)
        // Pickup rules count fouls per player only; no team flag.
        var pickup = Scorebook()
        for _ in 0..<12 { try pickup.run(.move(player: "h1", move: .foul)) }
        #expect(pickup.game.penalty(.home) == .none)
    }

    @Test("one time-out per team: it stops the clock; a second is refused")
    func timeouts() throws {
        var book = Scorebook(rules: RulePresets.fiba3x3)
        try book.run(.startClock)
        book.advance(seconds: 30)
        try book.run(.timeout(side: .home))
        #expect(!book.game.clock.isRunning && book.game.status == .paused)
        #expect(book.game.clock.elapsed(at: book.now.adding(milliseconds: 9000)) == 30_000)
        #expect(book.refusal(.timeout(side: .home)) == .noTimeoutsLeft)
        try book.run(.timeout(side: .away))
        #expect(book.game.timeoutsUsed == SideValues(home: 1, away: 1))
        #expect(RulePresets.fiba3x3.shotClockSeconds == 12)
    }

    @Test("a preset is data: overrides decode over an inherited preset")
    func inheritance() throws {
        let json = Data(#"{"target_score": 17, "preset": "house-17"}"#.utf8)
        struct Overlay: Decodable {
            var rules: RuleSet
            init(from decoder: any Decoder) throws { rules = try RuleSet(overriding: RulePresets.fiba3x3, from: decoder) }
        }
        let rules = try JSONDecoder().decode(Overlay.self, from: json).rules
        #expect(rules.targetScore == 17)
        #expect(rules.preset == "house-17")
        #expect(rules.timeoutsPerTeam == 1 && rules.shotClockSeconds == 12 && rules.teamFouls != nil)
    }
}

@Suite("Standings and the bracket")
struct StandingsTests {
    static func team(_ id: String) -> Team {
        Team(id: TeamID(id), name: id.uppercased(), players: [Player(id: PlayerID("\(id)-p"), name: "P")])
    }

    /// A finished game with this score (the model's fold, through events).
    static func final(_ id: String, _ home: String, _ away: String, _ homeScore: Int, _ awayScore: Int) -> Game {
        var game = Game(setup: GameSetup(id: GameID(id), home: team(home), away: team(away)))
        func add(_ side: Side, _ points: Int) {
            for _ in 0..<points {
                game.apply(
                    GameEvent(
                        gameID: game.id, version: game.version + 1, at: Timestamp(milliseconds: 0),
                        origin: CommandOrigin(clientID: "t", commandID: "\(game.version)"),
                        kind: .move(player: PlayerID("\(side == .home ? home : away)-p"), move: .onePoint)))
            }
        }
        // The loser's points first, so the game ends on the winner's last point.
        if homeScore > awayScore {
            add(.away, awayScore)
            add(.home, homeScore)
        } else {
            add(.home, homeScore)
            add(.away, awayScore)
        }
        return game
    }

    static let schedule = Schedule(
        teams: Dictionary(uniqueKeysWithValues: ["a", "b", "c", "d"].map { (TeamID($0), team($0)) }),
        groups: [Group(id: "X", teams: ["a", "b", "c", "d"])],
        games: [
            ScheduledGame(id: "x1", home: .team("a"), away: .team("b"), group: "X"),
            ScheduledGame(id: "x2", home: .team("c"), away: .team("d"), group: "X"),
            ScheduledGame(id: "x3", home: .team("a"), away: .team("c"), group: "X"),
            ScheduledGame(id: "x4", home: .team("b"), away: .team("d"), group: "X"),
            ScheduledGame(id: "x5", home: .team("a"), away: .team("d"), group: "X"),
            ScheduledGame(id: "x6", home: .team("b"), away: .team("c"), group: "X"),
            ScheduledGame(id: "f", home: .groupRank(group: "X", rank: 1), away: .groupRank(group: "X", rank: 2)),
            ScheduledGame(id: "p3", home: .loser(of: "f"), away: .groupRank(group: "X", rank: 3)),
        ])

    @Test("played, won, lost, points; a three-way tie goes to head-to-head, then point difference")
    func standings() throws {
        // a wins all; b, c, d beat each other once each: head-to-head cannot split them.
        let games = [
            Self.final("x1", "a", "b", 15, 13), Self.final("x2", "c", "d", 15, 13), Self.final("x3", "a", "c", 15, 10),
            Self.final("x4", "b", "d", 12, 15), Self.final("x5", "a", "d", 16, 14), Self.final("x6", "b", "c", 15, 5),
        ]
        let table = try #require(Self.schedule.standings(Dictionary(uniqueKeysWithValues: games.map { ($0.id, $0) })).first)
        #expect(table.complete)
        // b +5, d -1, c -13 on point difference.
        #expect(table.rows.map(\.team) == ["a", "b", "d", "c"])
        let b = table.rows[1]
        #expect((b.played, b.won, b.lost, b.pointsFor, b.pointsAgainst, b.difference) == (3, 1, 2, 40, 35, 5))
        #expect(table.rows.map(\.rank) == [1, 2, 3, 4])
        // Points scored alone puts d (42) over b (40): the order of tie-breakers matters.
        var scoredFirst = Self.schedule
        scoredFirst.tieBreakers = [.pointsScored]
        let other = scoredFirst.standings(Dictionary(uniqueKeysWithValues: games.map { ($0.id, $0) }))[0]
        #expect(other.rows.map(\.team) == ["a", "d", "b", "c"])
    }

    @Test("head-to-head decides a two-way tie")
    func headToHead() throws {
        let games = [
            Self.final("x1", "a", "b", 10, 15), Self.final("x2", "c", "d", 15, 13), Self.final("x3", "a", "c", 15, 0),
            Self.final("x4", "b", "d", 13, 15), Self.final("x5", "a", "d", 15, 13), Self.final("x6", "b", "c", 15, 1),
        ]
        // a and b are both 2-1; a has the better difference, but b beat a.
        let table = Self.schedule.standings(Dictionary(uniqueKeysWithValues: games.map { ($0.id, $0) }))[0]
        #expect(Array(table.rows.map(\.team).prefix(2)) == ["b", "a"])
    }

    @Test("slots fill from group ranks and results; the bracket shows each game's state")
    func bracket() {
        // One game's lineup, as a start checks it, is the one of the whole schedule's.
        func expectEachLineup(_ games: [GameID: Game], sourceLocation: SourceLocation = #_sourceLocation) {
            let all = Self.schedule.lineups(games)
            for scheduled in Self.schedule.games {
                let one = Self.schedule.lineup(of: scheduled.id, games)
                #expect(one == all[scheduled.id], "\(scheduled.id)", sourceLocation: sourceLocation)
            }
            #expect(Self.schedule.lineup(of: "nowhere", games) == nil, sourceLocation: sourceLocation)
        }
        var games = Dictionary(
            uniqueKeysWithValues: [
                Self.final("x1", "a", "b", 15, 13), Self.final("x2", "c", "d", 15, 13), Self.final("x3", "a", "c", 15, 10),
                Self.final("x4", "b", "d", 12, 15), Self.final("x5", "a", "d", 15, 0),
            ].map { ($0.id, $0) })
        #expect(Self.schedule.lineups(games)["f"] == nil)
        expectEachLineup(games)
        #expect(Self.schedule.bracket(games).first { $0.game == "f" }?.state == .pending)
        let last = Self.final("x6", "b", "c", 15, 5)
        games[last.id] = last
        let final = Self.schedule.lineups(games)["f"]
        #expect(final?.home.id == "a" && final?.away.id == "b")
        #expect(Self.schedule.lineups(games)["p3"] == nil)
        expectEachLineup(games)
        #expect(Self.schedule.bracket(games).first { $0.game == "f" }?.state == .ready)
        // The final, played: its loser meets the third.
        let played = Self.final("f", "a", "b", 11, 15)
        games[played.id] = played
        #expect(Self.schedule.lineups(games)["p3"]?.home.id == "a")
        #expect(Self.schedule.lineups(games)["p3"]?.away.id == "c")
        expectEachLineup(games)
        let entry = Self.schedule.bracket(games).first { $0.game == "f" }
        #expect(entry?.state == .final && entry?.winner == "b")
        #expect(Slot.groupRank(group: "X", rank: 2).description == "2nd of group X")
        #expect(Slot.winner(of: "f").description == "winner of f")
        #expect(Self.schedule.problem == nil)
    }

    @Test("a bracket entry follows its game: live at its first move, its score basket by basket, final with its winner")
    func entryFollowsItsGame() {
        var games: [GameID: Game] = [:]
        let pending = Self.schedule.bracket(games)
        // No game yet: the entry stays as the slots decide it.
        #expect(pending.first { $0.game == "x1" }?.following(nil) == pending.first { $0.game == "x1" })
        var x1 = Game(setup: GameSetup(id: "x1", home: Self.team("a"), away: Self.team("b")))
        games[x1.id] = x1
        let ready = Self.schedule.bracket(games).first { $0.game == "x1" }
        #expect(ready?.state == .ready && ready?.score == nil)
        // One basket, the clock never started: live, as the daemon's bracket says.
        x1.apply(
            GameEvent(
                gameID: "x1", version: 2, at: Timestamp(milliseconds: 0), origin: CommandOrigin(clientID: "t", commandID: "1"),
                kind: .move(player: "a-p", move: .twoPoints)))
        let live = ready?.following(x1)
        #expect(live?.state == .live && live?.score == SideValues(home: 2, away: 0) && live?.winner == nil)
        games[x1.id] = x1
        // The daemon's bracket is the same join: a display's copy joined with later games agrees.
        #expect(Self.schedule.bracket(games).first { $0.game == "x1" } == live)
        let decided = Self.final("x1", "a", "b", 15, 13)
        let final = ready?.following(decided)
        #expect(final?.state == .final && final?.winner == "a" && final?.score == SideValues(home: 15, away: 13))
        games[x1.id] = decided
        #expect(Self.schedule.bracket(games).first { $0.game == "x1" } == final)
    }

    @Test("a change that would swap the teams of a started game is found; one of an unstarted game is not")
    func lockedDependents() {
        var games = Dictionary(
            uniqueKeysWithValues: [
                Self.final("x1", "a", "b", 15, 13), Self.final("x2", "c", "d", 15, 13), Self.final("x3", "a", "c", 15, 10),
                Self.final("x4", "b", "d", 12, 15), Self.final("x5", "a", "d", 15, 0), Self.final("x6", "b", "c", 15, 5),
            ].map { ($0.id, $0) })
        let reopened = Game(setup: games["x6"]!.setup)  // as if its result were undone
        games["f"] = Game(setup: GameSetup(id: "f", home: Self.team("a"), away: Self.team("b")))
        #expect(Self.schedule.lockedDependent(of: reopened, in: games) == nil)
        games["f"]!.apply(
            GameEvent(
                gameID: "f", version: 2, at: Timestamp(milliseconds: 0), origin: CommandOrigin(clientID: "t", commandID: "s"),
                kind: .clockStarted))
        #expect(Self.schedule.lockedDependent(of: reopened, in: games) == "f")
    }
}
