import CourtsideModel
import CourtsideViewModels
import Testing

/// A small tournament: group A of Lions, Tigers and Bears, Wolves outside it, and a final
/// whose slots wait for the group's table.
enum Cup {
    static func team(_ id: String, _ name: String, _ player: String) -> Team {
        Team(id: TeamID(id), name: name, players: [Player(id: PlayerID(player), name: player)])
    }
    static let lions = team("lions", "Lions", "ann")
    static let tigers = team("tigers", "Tigers", "di")
    static let bears = team("bears", "Bears", "bo")
    static let wolves = team("wolves", "ذئاب", "wa")
    static let teams = [lions, tigers, bears, wolves]

    static func entry(
        _ game: String, _ home: Slot, _ away: Slot, start: String?, court: String? = "Court 1", group: String? = "A",
        round: String? = "Group stage"
    ) -> BracketEntry {
        let team = { (slot: Slot) -> TeamID? in if case .team(let id) = slot { id } else { nil } }
        return BracketEntry(
            game: GameID(game), round: round, group: group, court: court, start: start, home: home, away: away,
            homeTeam: team(home), awayTeam: team(away), state: team(home) != nil && team(away) != nil ? .ready : .pending,
            score: nil, winner: nil)
    }

    /// The schedule, deliberately not in playing order; g1 starts at "9:00", before "10:30".
    static let bracket = [
        entry("g2", .team("bears"), .team("lions"), start: "10:30", court: "Court 2"),
        entry("g3", .team("tigers"), .team("bears"), start: "10:00"),
        entry("g5", .team("wolves"), .team("lions"), start: nil, group: nil, round: "Friendly"),
        entry("g1", .team("lions"), .team("tigers"), start: "9:00"),
        entry(
            "g4", .groupRank(group: "A", rank: 1), .groupRank(group: "A", rank: 2), start: "12:00", group: nil, round: "Final"),
    ]

    /// A game as a display holds it after `moves` (player id, points), its clock started first when `started`.
    static func game(_ id: String, _ home: Team, _ away: Team, started: Bool = false, moves: [(String, MoveKind)] = []) -> Game {
        var game = Game(setup: GameSetup(id: GameID(id), home: home, away: away, court: "Court 1"))
        var kinds: [GameEvent.Kind] = started ? [.clockStarted] : []
        kinds += moves.map { .move(player: PlayerID($0.0), move: $0.1) }
        for kind in kinds {
            game.apply(
                GameEvent(
                    gameID: GameID(id), version: game.version + 1, at: Timestamp(milliseconds: 1_000_000),
                    origin: CommandOrigin(clientID: "t", commandID: "\(game.version)"), kind: kind))
        }
        return game
    }

    /// g1 final (Lions 16 - 0), g2 created and waiting.
    static var games: [GameID: Game] {
        [
            "g1": game("g1", lions, tigers, started: true, moves: Array(repeating: ("ann", .twoPoints), count: 8)),
            "g2": game("g2", bears, lions),
        ]
    }

    static let standings = [
        GroupStandings(
            group: "A", name: "Group A",
            rows: [lions, tigers, bears].enumerated().map { index, team in
                var row = StandingRow(team: team.id, name: team.name)
                row.rank = index + 1
                return row
            }, complete: false)
    ]

    static func page(_ team: TeamID, games: [GameID: Game] = games, divisions: [Division] = []) -> TeamPage? {
        TeamPage(team: team, teams: teams, divisions: divisions, games: games, bracket: bracket, standings: standings)
    }
}

@Suite("a team's own page")
struct TeamPageTests {
    @Test("the pool table is the team's group, its own row marked")
    func poolTable() throws {
        let page = try #require(Cup.page("tigers"))
        #expect(page.pools.count == 1 && page.pools[0].title == "Group A")
        #expect(page.pools[0].rows.map(\.name) == ["Lions", "Tigers", "Bears"])
        #expect(page.pools[0].rows.map(\.isTeam) == [false, true, false])
        #expect(page.pools[0].rows[1].path == "/teams/tigers")
        // Wolves play in no group: no table.
        #expect(try #require(Cup.page("wolves")).pools.isEmpty)
    }

    @Test("games by start (9:00 before 10:30), a game without a time last; results from the team's side")
    func gamesByStart() throws {
        let page = try #require(Cup.page("lions"))
        #expect(page.games.map(\.game) == ["g1", "g2", "g5"])
        let first = page.games[0]
        #expect(first.outcome == "W" && first.isWin && first.isFinished && first.score == "16 - 0")
        #expect(first.opponent == "v Tigers" && first.opponentPath == "/teams/tigers" && first.start == "9:00")
        #expect(first.round == "Group stage" && first.court == "Court 1")
        let tigers = try #require(Cup.page("tigers"))
        #expect(tigers.games.first?.outcome == "L" && tigers.games.first?.score == "0 - 16")
        #expect(page.games[1].outcomeText == "to play" && page.games[1].score == nil && page.games[1].opponent == "v Bears")
        #expect(page.games[2].opponent == "v ذئاب" && page.games[2].start == nil)
    }

    @Test("the next game is the first by start that is not final, with its court and scheduled time")
    func nextGame() throws {
        let next = try #require(Cup.page("lions")?.next)
        #expect(next.game == "g2" && next.heading == "Next game" && next.opponent == "v Bears")
        // The game's own court (as the desk last set it) before the schedule's "Court 2".
        #expect(next.court == "Court 1" && next.expectedStart == "10:30" && !next.isLive && next.score == nil)
        // Under way, it is the game being played now, with its score from the team's side.
        var games = Cup.games
        games["g2"] = Cup.game("g2", Cup.bears, Cup.lions, started: true, moves: [("ann", .twoPoints)])
        let live = try #require(Cup.page("lions", games: games)?.next)
        #expect(live.game == "g2" && live.isLive && live.heading == "Playing now" && live.score == "2 - 0")
        // Once every game is final, there is no next game.
        games["g2"] = Cup.game("g2", Cup.bears, Cup.lions, started: true, moves: Array(repeating: ("ann", .twoPoints), count: 8))
        games["g5"] = Cup.game("g5", Cup.wolves, Cup.lions, started: true, moves: Array(repeating: ("wa", .twoPoints), count: 8))
        let done = try #require(Cup.page("lions", games: games))
        #expect(done.next == nil && done.noNextText == "No more games to play.")
        #expect(done.games.map(\.outcome) == ["W", "W", "L"])
    }

    @Test("a team in a final whose slots are not filled yet sees its pool games, and not the final")
    func pendingKnockout() throws {
        let page = try #require(Cup.page("bears"))
        #expect(page.games.map(\.game) == ["g3", "g2"])
        #expect(page.next?.game == "g3")
        #expect(!page.games.contains { $0.game == "g4" })
    }

    @Test("the division's name only where the tournament has more than one")
    func division() throws {
        let open = Division(id: "open", name: "Open", teams: ["lions", "tigers", "bears"])
        let women = Division(id: "women", name: "Women", teams: ["wolves"])
        #expect(Cup.page("lions", divisions: [open, women])?.division == "Open")
        #expect(Cup.page("wolves", divisions: [open, women])?.division == "Women")
        #expect(Cup.page("lions", divisions: [open])?.division == nil)
        #expect(Cup.page("lions")?.division == nil)
    }

    @Test("a team the tournament does not have has no page")
    func unknown() {
        #expect(Cup.page("owls") == nil)
    }

    @Test("the list of teams by division, by name, each linking its page; the sheet holds each page's address")
    func list() {
        let open = Division(id: "open", name: "Open", teams: ["lions", "tigers", "bears"])
        let women = Division(id: "women", name: "Women", teams: ["wolves"])
        let both = TeamList(teams: Cup.teams, divisions: [open, women], games: Cup.games, standings: Cup.standings)
        #expect(both.blocks.map(\.name) == ["Open", "Women"])
        #expect(both.blocks[0].teams.map(\.name) == ["Bears", "Lions", "Tigers"])
        #expect(both.blocks[1].teams.map(\.path) == ["/teams/wolves"])
        let one = TeamList(teams: Cup.teams, divisions: [], games: [:], standings: [])
        #expect(one.blocks.count == 1 && one.blocks[0].name == nil && one.blocks[0].teams.count == 4)
        let sheet = TeamSheet(both, baseURL: "http://192.168.1.20:8080/")
        #expect(sheet.cards.map(\.url).first == "http://192.168.1.20:8080/teams/bears")
        #expect(sheet.cards.map(\.division) == ["Open", "Open", "Open", "Women"])
        // An id with a space or a slash is one path segment.
        #expect(TeamPage.path(of: "a b/c") == "/teams/a%20b%2Fc")
    }
}
