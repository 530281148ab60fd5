import CourtsideModel
import Foundation
import Testing

@Suite("the organiser's changes to the tournament: teams, players, scheduled games")
struct TournamentChangeTests {
    static let schedule = Schedule(
        teams: [
            "lions": Scorebook.home, "tigers": Scorebook.away,
            "owls": Team(id: "owls", name: "Owls", players: [Player(id: "o1", name: "Ola")]),
        ],
        courts: ["Court 1", "Court 2"], groups: [Group(id: "A", teams: ["lions", "tigers"])], rounds: ["Group stage", "Final"],
        games: [
            ScheduledGame(id: "g1", home: .team("lions"), away: .team("tigers"), court: "Court 1", group: "A", start: "10:00"),
            ScheduledGame(id: "final", home: .winner(of: "g1"), away: .team("owls"), court: "Court 1", round: "Final"),
        ])
    static func notStarted(_: GameID) -> Bool { false }

    @Test("a late player joins a team; a player id is the tournament's, never two teams'")
    func addPlayer() throws {
        let dee = Player(id: "dee", name: "Dee Dunn")
        let after = try Self.schedule.applying(.playerAdded(team: "lions", player: dee), hasStarted: Self.notStarted)
        #expect(after.teams["lions"]?.players.last == dee && after.players["dee"] == "lions")
        #expect(throws: CourtsideError(.playerExists, "player dee plays for lions already; player ids are the tournament's")) {
            try after.applying(.playerAdded(team: "tigers", player: dee), hasStarted: Self.notStarted)
        }
        for (change, code) in [
            (TournamentChange.playerAdded(team: "nope", player: dee), CourtsideError.Code.unknownTeam),
            (.playerAdded(team: "lions", player: Player(id: "h1", name: "Again")), .playerExists),
            (.playerAdded(team: "lions", player: Player(id: "_x", name: "X")), .invalidGame),
            (.playerAdded(team: "lions", player: Player(id: "x", name: "  ")), .invalidText),
            (.playerAdded(team: "lions", player: Player(id: "x", name: String(repeating: "n", count: 81))), .invalidText),
            (.playerRenamed(team: "lions", player: "a1", name: "Di"), .unknownPlayer),
        ] {
            #expect(Self.code(of: change) == code, "\(change)")
        }
        let benched = try Self.schedule.applying(
            .playerActive(team: "lions", player: "h2", active: false), hasStarted: Self.notStarted)
        #expect(benched.inactivePlayers == ["h2"] && benched.teams["lions"]?.has("h2") == true)
        #expect(
            try benched.applying(.playerActive(team: "lions", player: "h2", active: true), hasStarted: Self.notStarted)
                .inactivePlayers.isEmpty)
        #expect(Self.code(of: .playerActive(team: "tigers", player: "h2", active: false)) == .unknownPlayer)
        let renamed = try Self.schedule.applying(
            .playerRenamed(team: "lions", player: "h1", name: "Ann Avery"), hasStarted: Self.notStarted)
        #expect(renamed.teams["lions"]?.players.first == Player(id: "h1", name: "Ann Avery"))
    }

    @Test("a team registers, in a group when one is named; its id and players' ids must be new")
    func registerTeam() throws {
        let bears = Team(id: "bears", name: "Bears", players: [Player(id: "b1", name: "Gus")])
        let after = try Self.schedule.applying(.teamRegistered(bears, group: "A"), hasStarted: Self.notStarted)
        #expect(after.teams["bears"] == bears && after.groups[0].teams == ["lions", "tigers", "bears"])
        #expect(Self.code(of: .teamRegistered(Scorebook.home, group: nil)) == .teamExists)
        #expect(Self.code(of: .teamRegistered(bears, group: "Z")) == .invalidGame)
        #expect(Self.code(of: .teamRegistered(Team(id: "x", name: "X", players: []), group: nil)) == .invalidGame)
        let twice = Team(id: "x", name: "X", players: [Player(id: "p", name: "P"), Player(id: "p", name: "Q")])
        #expect(Self.code(of: .teamRegistered(twice, group: nil)) == .playerExists)
        #expect(
            Self.code(of: .teamRegistered(Team(id: "x", name: "X", players: [Player(id: "h1", name: "A")]), group: nil))
                == .playerExists)
    }

    @Test(
        "a game that has not started moves or is re-timed; a started one, a slot the results fill, or nothing at all is refused")
    func editGame() throws {
        let moved = try Self.schedule.applying(
            .gameEdited(GameEdit(game: "g1", court: "Court 2", start: "10:50")), hasStarted: Self.notStarted)
        #expect(moved.game("g1")?.court == "Court 2" && moved.game("g1")?.start == "10:50")
        #expect(moved.game("g1")?.home == .team("lions"))
        let swapped = try Self.schedule.applying(
            .gameEdited(GameEdit(game: "final", away: .team("tigers"))), hasStarted: Self.notStarted)
        #expect(swapped.game("final")?.away == .team("tigers"))
        #expect(throws: CourtsideError.self) {
            try Self.schedule.applying(.gameEdited(GameEdit(game: "g1", court: "Court 2")), hasStarted: { $0 == "g1" })
        }
        #expect(Self.code(of: .gameEdited(GameEdit(game: "final", home: .team("owls")))) == .invalidGame)
        #expect(Self.code(of: .gameEdited(GameEdit(game: "g1", away: .team("lions")))) == .invalidGame)
        #expect(Self.code(of: .gameEdited(GameEdit(game: "g1", home: .team("nope")))) == .invalidGame)
        #expect(Self.code(of: .gameEdited(GameEdit(game: "g1"))) == .invalidGame)
        #expect(Self.code(of: .gameEdited(GameEdit(game: "nope", court: "Court 1"))) == .unknownGame)
        var bad = RuleSet.standard
        bad.targetScore = 0
        #expect(Self.code(of: .gameEdited(GameEdit(game: "g1", rules: bad))) == .invalidGame)
        let started = Self.code(of: .gameEdited(GameEdit(game: "g1", start: "11:00")), hasStarted: { $0 == "g1" })
        #expect(started == .gameStarted)
    }

    @Test("a game joins a round (a new round's name adds the round); its id must be new")
    func scheduleGame() throws {
        let replay = ScheduledGame(id: "g2", home: .team("tigers"), away: .team("owls"), court: "Court 2", round: "Friendlies")
        let after = try Self.schedule.applying(.gameScheduled(replay), hasStarted: Self.notStarted)
        #expect(after.game("g2") == replay && after.rounds == ["Group stage", "Final", "Friendlies"])
        #expect(Self.code(of: .gameScheduled(ScheduledGame(id: "g1", home: .team("tigers"), away: .team("owls")))) == .gameExists)
        #expect(Self.code(of: .gameScheduled(ScheduledGame(id: "g3", home: .team("owls"), away: .team("owls")))) == .invalidGame)
        #expect(Self.code(of: .gameScheduled(ScheduledGame(id: "g3", home: .team("owls"), away: .team("nope")))) == .invalidGame)
    }

    @Test("changes laid over a config that disagrees: the log wins over the file, and each disagreement is reported")
    func layOver() {
        let dee = Player(id: "dee", name: "Dee")
        let owls = Team(id: "owls", name: "Owls (desk)", players: [Player(id: "o9", name: "Oz")])
        var file = Self.schedule
        file.teams["tigers"]?.players.append(dee)
        let changes: [TournamentChange] = [
            .playerAdded(team: "lions", player: dee), .gameEdited(GameEdit(game: "g1", court: "Court 2")),
            .teamRegistered(owls, group: nil), .playerRenamed(team: "gone", player: "x", name: "X"),
        ]
        let laid = file.laying(changes)
        #expect(laid.schedule.players["dee"] == "lions" && laid.schedule.teams["tigers"]?.has("dee") == false)
        #expect(laid.schedule.game("g1")?.court == "Court 2" && laid.schedule.teams["owls"] == owls)
        #expect(laid.conflicts.map(\.overrode) == ["the file's player dee of tigers", "the file's team owls", nil])
        #expect(laid.conflicts.last?.error?.code == .unknownTeam)
        // A game that started since its edit keeps the edit across a restart.
        #expect(Self.schedule.laying([.gameEdited(GameEdit(game: "g1", start: "10:50"))]).conflicts.isEmpty)
    }

    @Test("a player added to a game in play keeps its score and moves; its court or rules change only before it starts")
    func gamesFollow() throws {
        var book = Scorebook()
        try book.score(.home, 4)
        var lions = Scorebook.home
        lions.players.append(Player(id: "h4", name: "Dee"))
        try book.run(.assignTeams(home: lions, away: Scorebook.away))
        #expect(book.game.score.home == 4 && book.game.setup.home.has("h4") && book.game.counts["h1"]?.twoPoints == 2)
        try book.run(.move(player: "h4", move: .twoPoints))
        #expect(book.game.score.home == 6)
        // In play, teams may gain players, never change or lose one.
        #expect(book.refusal(.assignTeams(home: Scorebook.home, away: Scorebook.away)) == .bracketLocked)
        #expect(book.refusal(.changeSetup(court: "Court 2", rules: .standard)) == .gameStarted)

        var fresh = Scorebook()
        let before = fresh.game.version
        try fresh.run(.changeSetup(court: "Court 2", rules: RuleSet(targetScore: 11)))
        #expect(fresh.game.setup.court == "Court 2" && fresh.game.rules.targetScore == 11 && fresh.game.version == before + 1)
    }

    @Test("a change's JSON names its type and round-trips")
    func json() throws {
        let changes: [TournamentChange] = [
            .teamRegistered(Scorebook.home, group: "A"), .playerAdded(team: "lions", player: Player(id: "dee", name: "Dee")),
            .playerRenamed(team: "lions", player: "h1", name: "Ann"), .gameScheduled(Self.schedule.games[1]),
            .playerActive(team: "lions", player: "h1", active: false),
            .gameEdited(GameEdit(game: "g1", court: "Court 2", start: "10:50", home: .team("lions"))),
        ]
        for change in changes {
            let data = try JSONEncoder().encode(change)
            #expect(try JSONDecoder().decode(TournamentChange.self, from: data) == change)
            #expect(String(decoding: data, as: UTF8.self).contains("\"type\":\"\(change.typeName)\""))
        }
    }

    static func code(of change: TournamentChange, hasStarted: (GameID) -> Bool = notStarted) -> CourtsideError.Code? {
        do {
            _ = try schedule.applying(change, hasStarted: hasStarted)
            return nil
        } catch {
            return error.code
        }
    }
}
