import CourtsideClient
import CourtsideLocalization
import CourtsideModel
import CourtsideProtocol
import CourtsideTerminal
import CourtsideViewModels
import Foundation
import Testing

/// A game as a display holds it, built by folding events through the model.
struct Table {
    static let home = Team(id: "lions", name: "Lions", players: [Player(id: "ann", name: "Ann"), Player(id: "bo", name: "Bo")])
    static let away = Team(id: "tigers", name: "Tigers", players: [Player(id: "di", name: "Di"), Player(id: "ed", name: "Ed")])

    var game = Game(setup: GameSetup(id: "g1", home: home, away: away, court: "Court 1"))
    var now = Timestamp(milliseconds: 1_000_000)

    mutating func record(_ kind: GameEvent.Kind) {
        game.apply(
            GameEvent(
                gameID: "g1", version: game.version + 1, at: now, origin: CommandOrigin(clientID: "t", commandID: "x"), kind: kind
            ))
    }

    var state: GameState { GameState(game) }
}

@Suite("Game view model")
struct GameViewModelTests {
    @Test(
        "the clock reads mm:ss.t, tenths rounded down",
        arguments: [
            (0, "00:00.0"), (99, "00:00.0"), (100, "00:00.1"), (59_999, "00:59.9"), (60_000, "01:00.0"),
            (432_300, "07:12.3"), (5_999_999, "99:59.9"), (-5, "00:00.0"),
        ])
    func clockText(milliseconds: Int64, text: String) {
        #expect(GameViewModel.clockText(milliseconds: milliseconds) == text)
    }

    @Test("score, names, flags and counts as the board shows them")
    func strings() {
        var table = Table()
        table.record(.move(player: "ann", move: .twoPoints))
        table.record(.move(player: "ann", move: .assist))
        table.record(.move(player: "di", move: .onePoint))
        let view = GameViewModel(table.state, now: table.now)
        #expect(view.score == "2 - 1")
        #expect(view.homeName == "Lions" && view.awayName == "Tigers")
        #expect(view.clock == "00:00.0")
        // Points on the board, the clock never started: under way, not scheduled.
        #expect(view.statusLabel == "IN PLAY")
        #expect(!view.isRunning && !view.isPaused && !view.isFinished)
        #expect(view.winner == nil)
        #expect(view.homePlayers.map(\.name) == ["Ann", "Bo"])
        #expect(view.homePlayers[0].counts.assist == 1)
        #expect(view.homePlayers[0].points == 2)
        #expect(view.awayPlayers[0].points == 1)
        #expect(view.lastPlays == ["v4  Di  +1", "v3  Ann  assist", "v2  Ann  +2"])
        #expect(view.summary == "g1  Court 1  Lions 2 - 1 Tigers  00:00.0  IN PLAY")
        #expect(view.homePlayers.allSatisfy { $0.isActive && $0.inactiveText == nil })
        let marked = GameViewModel(table.state, now: table.now, inactive: ["bo"])
        #expect(marked.homePlayers.map(\.isActive) == [true, false])
        #expect(marked.homePlayers[1].inactiveText == "inactive: no more moves")
    }

    @Test("the clock runs between events by interpolating from the last known value")
    func interpolation() {
        var table = Table()
        table.record(.clockStarted)
        table.now = table.now.adding(milliseconds: 65_000)
        table.record(.clockPaused)
        table.now = table.now.adding(milliseconds: 10_000)
        table.record(.clockStarted)
        let state = table.state
        // No event arrives; only the time the board asks about moves on.
        #expect(GameViewModel(state, now: table.now).clock == "01:05.0")
        #expect(GameViewModel(state, now: table.now.adding(milliseconds: 7_350)).clock == "01:12.3")
        #expect(GameViewModel(state, now: table.now.adding(milliseconds: 7_350)).statusLabel == "LIVE")
        #expect(GameViewModel(state, now: table.now.adding(milliseconds: 7_350)).isRunning)
    }

    @Test("paused, finished and the winner; the clock stands still once the game is over")
    func pausedAndFinished() {
        var table = Table()
        table.record(.clockStarted)
        table.now = table.now.adding(milliseconds: 30_000)
        table.record(.clockPaused)
        #expect(GameViewModel(table.state, now: table.now).isPaused)
        #expect(GameViewModel(table.state, now: table.now).statusLabel == "PAUSED")
        table.record(.clockStarted)
        for _ in 0..<8 { table.record(.move(player: "bo", move: .twoPoints)) }
        let view = GameViewModel(table.state, now: table.now.adding(milliseconds: 60_000))
        #expect(view.isFinished && !view.isRunning)
        #expect(view.statusLabel == "FINAL")
        #expect(view.winner == "Lions")
        #expect(view.clock == "00:30.0")
        #expect(view.summary.hasSuffix("FINAL  Lions won"))
    }

    @Test("retracted plays stay in the list, marked as undone")
    func undone() {
        var table = Table()
        table.record(.move(player: "ed", move: .foul))
        table.record(.retraction(targetVersion: 2))
        let view = GameViewModel(table.state, now: table.now)
        #expect(view.lastPlays == ["v2  Ed  foul (undone)"])
        #expect(view.awayPlayers[1].counts.foul == 0)
    }
}

@Suite("FIBA 3x3 on the board")
struct FibaViewModelTests {
    @Test("team fouls with their penalty flag, time-outs left and the shot clock value")
    func fiba() {
        var table = Table()
        table.game.setup.rules = RulePresets.fiba3x3
        for _ in 0..<7 { table.record(.move(player: "di", move: .foul)) }
        table.record(.timeout(side: .home))
        table.record(.move(player: "ann", move: .freeThrow))
        let view = GameViewModel(table.state, now: table.now)
        #expect(view.homeFouls == "fouls 0")
        #expect(view.awayFouls == "fouls 7, bonus: 2 FT")
        #expect(view.homeTimeouts == "time-outs left 0")
        #expect(view.awayTimeouts == "time-outs left 1")
        #expect(view.shotClock == "shot clock 12")
        let korean = GameViewModel(table.state, now: table.now, words: Words(Language(tag: "ko")!))
        #expect(korean.shotClock == "샷 클록 12초")
        #expect(view.rules == "fiba3x3")
        #expect(view.score == "1 - 0")
        #expect(view.lastPlays.first == "v10  Ann  free throw")
        let screen = Screens.board(view, status: SyncStatus(endpoint: "e", isStale: false, lastResync: nil, resyncs: 0))
        #expect(screen.contains("   Tigers: fouls 7, bonus: 2 FT, time-outs left 1"))
        // Pickup rules show none of it.
        let pickup = GameViewModel(Table().state, now: table.now)
        #expect(pickup.homeFouls == nil && pickup.homeTimeouts == nil && pickup.shotClock == nil)
    }
}

@Suite("A team's board: fouls against the rules' tiers, time-outs left")
struct TeamBoardTests {
    /// Tiers from the 2nd foul (2 FT) and the 4th (2 FT and the ball), 2 time-outs a team.
    static func tiered() -> Table {
        var table = Table()
        table.game.setup.rules.teamFouls = TeamFoulRules(freeThrowsFrom: 2, possessionFrom: 4)
        table.game.setup.rules.timeoutsPerTeam = 2
        return table
    }

    @Test(
        "each tier, its words and where the next one starts",
        arguments: [
            (0, "none", "no bonus", "2 FT from foul 2", "fouls 0"),
            (1, "none", "no bonus", "2 FT from foul 2", "fouls 1"),
            (2, "two_free_throws", "bonus: 2 FT", "2 FT + ball from foul 4", "fouls 2, bonus: 2 FT"),
            (3, "two_free_throws", "bonus: 2 FT", "2 FT + ball from foul 4", "fouls 3, bonus: 2 FT"),
            (4, "two_free_throws_and_possession", "bonus: 2 FT + ball", "", "fouls 4, bonus: 2 FT + ball"),
            (9, "two_free_throws_and_possession", "bonus: 2 FT + ball", "", "fouls 9, bonus: 2 FT + ball"),
        ])
    func tiers(fouls: Int, tier: String, tierText: String, nextText: String, line: String) {
        var table = Self.tiered()
        for _ in 0..<fouls { table.record(.move(player: "di", move: .foul)) }
        let board = TeamBoard(table.game, .away)
        #expect(board.fouls == fouls && board.tier == tier && board.tierText == tierText && board.nextText == nextText)
        #expect(board.foulsLine == line)
        #expect(TeamBoard(table.game, .home).fouls == 0)
    }

    @Test("time-outs left as a count and as pips; used, when the rules set no limit")
    func timeouts() {
        var table = Self.tiered()
        #expect(TeamBoard(table.game, .home).timeoutPips == "●●")
        table.record(.timeout(side: .home))
        var board = TeamBoard(table.game, .home)
        #expect(board.timeoutsLabel == "time-outs left" && board.timeouts == 1 && board.timeoutPips == "●○")
        #expect(board.timeoutsLine == "time-outs left 1")
        table.record(.timeout(side: .home))
        board = TeamBoard(table.game, .home)
        #expect(board.timeouts == 0 && board.timeoutPips == "○○")

        var pickup = Table()
        pickup.record(.timeout(side: .away))
        board = TeamBoard(pickup.game, .away)
        #expect(board.timeoutsLabel == "time-outs used" && board.timeouts == 1 && board.timeoutPips.isEmpty)
        #expect(board.timeoutsLine == nil)
        #expect(board.tier.isEmpty && board.tierText.isEmpty && board.nextText.isEmpty && board.foulsLine == nil)
    }
}

@Suite("What a page binds: the view model's teams, plays and status, as JSON")
struct PageViewTests {
    @Test("each team with its score, players and board; plays with names, newest first")
    func teamsAndPlays() {
        var table = TeamBoardTests.tiered()
        table.record(.move(player: "ann", move: .twoPoints))
        table.record(.move(player: "di", move: .foul))
        table.record(.move(player: "ed", move: .foul))
        table.record(.retraction(targetVersion: 2))
        let view = GameViewModel(table.state, now: table.now, lastPlays: 10)
        #expect(view.home.side == .home && view.home.name == "Lions" && view.home.score == 0)
        #expect(view.away.board.tier == "two_free_throws" && view.home.board.tier == "none")
        #expect(view.away.players.map(\.name) == ["Di", "Ed"] && view.away.players[0].counts.foul == 1)
        #expect(view.plays.map(\.version) == [4, 3, 2])
        #expect(view.plays[2].playerName == "Ann" && view.plays[2].teamName == "Lions" && view.plays[2].moveText == "+2")
        #expect(view.plays.map(\.isUndone) == [false, false, true])
        #expect(view.plays[0].side == .away && view.plays[0].text == "v4  Ed  foul")
        #expect(view.lastPlays.last == "v2  Ann  +2 (undone)")
    }

    @Test("the status with the winner once the game is decided")
    func statusText() {
        var table = Table()
        #expect(GameViewModel(table.state, now: table.now).statusText == "SCHEDULED")
        table.record(.clockStarted)
        #expect(GameViewModel(table.state, now: table.now).statusText == "LIVE")
        table.record(.clockPaused)
        #expect(GameViewModel(table.state, now: table.now).statusText == "PAUSED")
        for _ in 0..<8 { table.record(.move(player: "di", move: .twoPoints)) }
        #expect(GameViewModel(table.state, now: table.now).statusText == "FINAL: Tigers won")
    }

    @Test("the keeper page's words: each player's counts beside the name, and what the clock button does")
    func keeperWords() {
        var table = Table()
        #expect(GameViewModel(table.state, now: table.now).home.players[0].countsText == "0 pts")
        table.record(.move(player: "bo", move: .onePoint))
        #expect(GameViewModel(table.state, now: table.now).home.players[1].countsText == "1 pt")
        table.record(.move(player: "ann", move: .twoPoints))
        table.record(.move(player: "ann", move: .freeThrow))
        table.record(.move(player: "ann", move: .rebound))
        table.record(.move(player: "ann", move: .foul))
        table.record(.move(player: "ann", move: .foul))
        var view = GameViewModel(table.state, now: table.now)
        #expect(view.home.players[0].countsText == "3 pts · 1 FT · 1 reb · 2 fouls")
        #expect(view.clockAction == "start" && view.clockActionText == "Start clock")
        table.record(.clockStarted)
        view = GameViewModel(table.state, now: table.now)
        #expect(view.clockAction == "pause" && view.clockActionText == "Pause clock")
        for _ in 0..<8 { table.record(.move(player: "di", move: .twoPoints)) }
        view = GameViewModel(table.state, now: table.now)
        #expect(view.clockAction == "" && view.clockActionText == "Game over")
        #expect(MoveKind.allCases.map(GameViewModel.moveButtonText) == ["+1", "+2", "AST", "REB", "FOUL", "FT"])
    }

    @Test("encoded with its property names as keys: the names the pages' script reads")
    func json() throws {
        var table = TeamBoardTests.tiered()
        table.record(.move(player: "ann", move: .twoPoints))
        let data = try JSONEncoder().encode(GameViewModel(table.state, now: table.now))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["score"] as? String == "2 - 0" && object["statusText"] as? String == "IN PLAY")
        #expect(object["clock"] as? String == "00:00.0" && object["isRunning"] as? Bool == false)
        let home = try #require(object["home"] as? [String: Any])
        #expect(home["name"] as? String == "Lions" && home["score"] as? Int == 2)
        let board = try #require(home["board"] as? [String: Any])
        #expect(board["tierText"] as? String == "no bonus" && board["timeoutPips"] as? String == "●●")
        // The lines the keeper page shows are sent whole: it composes none.
        #expect(board["foulsLine"] as? String == "fouls 0" && board["timeoutsLine"] as? String == "time-outs left 2")
        #expect(board["foulsText"] as? String == "fouls 0" && board["timeoutsText"] as? String == "time-outs left 2 ●●")
        #expect(home["timeoutButtonText"] as? String == "Time-out Lions")
        let play = try #require((object["plays"] as? [[String: Any]])?.first)
        #expect(play["playerName"] as? String == "Ann" && play["moveText"] as? String == "+2")
        #expect(play["isUndone"] as? Bool == false)
        #expect(play["side"] as? String == "home" && play["version"] as? Int == 2)
    }
}

@Suite("Tournament view model and screens")
struct TournamentViewModelTests {
    @Test("one line per game, in id order")
    func lines() {
        var first = Table()
        first.record(.move(player: "ann", move: .onePoint))
        var second = Table()
        second.game.setup.id = "g0"
        second.game.setup.court = nil
        let tournament = TournamentViewModel([first.state, second.state], now: first.now)
        #expect(
            tournament.lines == [
                "g0  Lions 0 - 0 Tigers  00:00.0  SCHEDULED",
                "g1  Court 1  Lions 1 - 0 Tigers  00:00.0  IN PLAY",
            ])
    }

    @Test("the board draws the view model's strings and the sync status")
    func boardScreen() {
        var table = Table()
        table.record(.move(player: "ann", move: .twoPoints))
        let view = GameViewModel(table.state, now: table.now)
        let stale = SyncStatus(endpoint: "tcp://x:1", isStale: true, lastResync: ("gap", 3), resyncs: 2)
        let screen = Screens.board(view, status: stale).joined(separator: "\n")
        #expect(screen.contains("   Lions   2 - 0   Tigers"))
        #expect(screen.contains("   00:00.0   IN PLAY"))
        #expect(screen.contains("STALE: no heartbeat from tcp://x:1"))
        #expect(screen.contains("resynced (gap) 3s ago, 2 in all"))
        #expect(screen.contains("  v2  Ann  +2"))
    }
}

@Suite("Tournament tables")
struct TournamentTablesTests {
    @Test("with two divisions, every game and table names its division; with one, none does")
    func divisions() {
        func entry(_ game: GameID, _ round: String, _ division: String) -> BracketEntry {
            BracketEntry(
                game: game, round: round, group: nil, court: "Court 1", start: "09:00", home: .team("a"), away: .team("b"),
                homeTeam: "a", awayTeam: "b", state: .ready, score: nil, winner: nil, division: division)
        }
        let bracket = [entry("o1", "Pools", "open"), entry("w1", "Pools", "women"), entry("o2", "Pools", "open")]
        let both = ["open": "Open", "women": "Women"]
        let lines = TournamentTables.schedule(bracket, games: [:], teamNames: [:], divisions: both)
        #expect(lines.first == "Pools" && lines.count == 4)
        let named = lines.dropFirst().map { $0.split(separator: " ")[3] }
        #expect(named == ["Open", "Women", "Open"])
        let single = TournamentTables.schedule(bracket, games: [:], teamNames: [:], divisions: ["open": "Open"])
        #expect(single.count == 4 && !single.contains { $0.contains("Open") })
        let table = GroupStandings(group: "WA", name: "Pool A", rows: [], complete: false, division: "women")
        #expect(TournamentTables.standings([table], divisions: both).first == "Women · Pool A")
        #expect(TournamentTables.standings([table]).first == "Pool A")
    }

    @Test("a game added to a round after the final's is printed in its round, not in a second one after the Finals")
    func roundJoined() {
        func entry(_ game: GameID, _ round: String) -> BracketEntry {
            BracketEntry(
                game: game, round: round, group: nil, court: "Court 1", start: "09:00", home: .team("a"), away: .team("b"),
                homeTeam: "a", awayTeam: "b", state: .ready, score: nil, winner: nil)
        }
        let lines = TournamentTables.schedule(
            [entry("g1", "Group stage"), entry("final", "Finals"), entry("g5", "Group stage")], games: [:], teamNames: [:])
        #expect(lines.filter { !$0.hasPrefix("  ") } == ["Group stage", "", "Finals"], "\(lines)")
        #expect(lines.firstIndex { $0.contains("g5") }! < lines.firstIndex(of: "Finals")!)
    }

    @Test("standings, schedule and trail read as the organiser expects")
    func tables() {
        var row = StandingRow(team: "lions", name: "Lions")
        (row.played, row.won, row.lost, row.pointsFor, row.pointsAgainst, row.rank) = (2, 2, 0, 30, 21, 1)
        let standings = TournamentTables.standings([GroupStandings(group: "A", name: "Group A", rows: [row], complete: true)])
        #expect(
            standings == [
                "Group A (final)",
                "  #  team               P   W   L    PF    PA   +/-",
                "  1  Lions              2   2   0    30    21    +9",
            ])
        let entries = [
            BracketEntry(
                game: "g1", round: "Groups", group: "A", court: "Court 1", start: "10:00", home: .team("lions"),
                away: .team("tigers"),
                homeTeam: "lions", awayTeam: "tigers", state: .final, score: SideValues(home: 15, away: 9), winner: "lions"),
            BracketEntry(
                game: "final", round: "Final", group: nil, court: "Court 1", start: "11:00", home: .winner(of: "g1"),
                away: .groupRank(group: "B", rank: 1), homeTeam: "lions", awayTeam: nil, state: .pending, score: nil, winner: nil),
        ]
        // g1 played to 15 - 9 (Lions' points last, so the game ends on them).
        var g1 = Table()
        g1.record(.move(player: "di", move: .onePoint))
        for _ in 0..<8 { g1.record(.move(player: "di", move: .onePoint)) }
        for _ in 0..<15 { g1.record(.move(player: "ann", move: .onePoint)) }
        #expect(g1.game.isFinished)
        let schedule = TournamentTables.schedule(
            entries, games: ["g1": g1.game], teamNames: ["lions": "Lions", "tigers": "Tigers"])
        #expect(schedule[0] == "Groups")
        #expect(schedule[1].hasPrefix("  10:00  Court 1   g1       Lions vs Tigers"))
        #expect(schedule[1].hasSuffix("15 - 9    FINAL: Lions won  (group A)"), "\(schedule[1])")
        #expect(schedule[3] == "Final")
        #expect(schedule[4].contains("Lions vs 1st of group B") && schedule[4].hasSuffix("waiting for its teams"))
        let trail = TournamentTables.trail([
            GameEvent(
                gameID: "g1", version: 4, sequence: 9, at: Timestamp(milliseconds: 0),
                origin: CommandOrigin(clientID: "court-1", commandID: "17"), kind: .retraction(targetVersion: 3))
        ])
        #expect(trail == ["v4    #9        1970-01-01T00:00:00.000Z  court-1/17                          retraction of v3"])
    }
}
