import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import CourtsideTerminal
import CourtsideViewModels
import Testing

/// A game as a display holds it, built by folding events through the model.
struct Table {
    static let home = Team(id: "lions", name: "Lions", players: [Player(id: "ann", name: "Ann"), Player(id: "bo", name: "Bo")])
    static let away = Team(id: "tigers", name: "Tigers", players: [Player(id: "di", name: "Di"), Player(id: "ed", name: "Ed")])

    var game = Game(setup: GameSetup(id: "g1", home: home, away: away, court: "Court 1"))
    var now = Timestamp(milliseconds: 1_000_000)

    mutating func record(_ kind: GameEvent.Kind) {
        game.apply(
            GameEvent(gameID: "g1", version: game.version + 1, at: now, origin: CommandOrigin(clientID: "t", commandID: "x"), kind: kind))
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
        #expect(view.statusLabel == "SCHEDULED")
        #expect(!view.isRunning && !view.isPaused && !view.isFinished)
        #expect(view.winner == nil)
        #expect(view.homePlayers.map(\.name) == ["Ann", "Bo"])
        #expect(view.homePlayers[0].counts.assist == 1)
        #expect(view.homePlayers[0].points == 2)
        #expect(view.awayPlayers[0].points == 1)
        #expect(view.lastPlays == ["v4  Di  +1", "v3  Ann  assist", "v2  Ann  +2"])
        #expect(view.summary == "g1  Court 1  Lions 2 - 1 Tigers  00:00.0  SCHEDULED")
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
                "g1  Court 1  Lions 1 - 0 Tigers  00:00.0  SCHEDULED",
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
        #expect(screen.contains("   00:00.0   SCHEDULED"))
        #expect(screen.contains("STALE: no heartbeat from tcp://x:1"))
        #expect(screen.contains("resynced (gap) 3s ago, 2 in all"))
        #expect(screen.contains("  v2  Ann  +2"))
    }
}
