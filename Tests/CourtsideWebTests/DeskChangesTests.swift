import CourtsideModel
import CourtsideProtocol
import Testing

@testable import CourtsideWeb

@Suite("The desk's teams and schedule: their forms, their pages")
struct DeskChangesTests {
    static let lions = Team(id: "lions", name: "Lions", players: [Player(id: "ann", name: "Ann"), Player(id: "bo", name: "Bo")])
    static let tigers = Team(id: "tigers", name: "Tigers", players: [Player(id: "di", name: "Di")])
    static let owls = Team(id: "owls", name: "Owls", players: [Player(id: "ola", name: "Ola")])

    /// Two rounds: g1 and g2 in the group stage, g3 (the winners) in the final; one game outside them.
    static let setup = TournamentSetup(
        tournament: "Test Open", tieBreakers: [], courts: ["Court 1", "Court 2"], teams: [lions, owls, tigers],
        groups: [Group(id: "A", name: "Group A", teams: ["lions", "tigers"])],
        rounds: [
            .init(
                name: "Group stage",
                games: [
                    .init(
                        id: "g1", home: .team("lions"), away: .team("tigers"), court: "Court 1", group: "A", start: "10:00",
                        rules: .standard),
                    .init(
                        id: "g2", home: .team("tigers"), away: .team("lions"), court: "Court 2", start: "10:30", rules: .standard),
                ]),
            .init(
                name: "Final",
                games: [.init(id: "g3", home: .winner(of: "g1"), away: .winner(of: "g2"), court: "Annex", rules: .standard)]),
        ],
        games: [.init(id: "friendly", home: .team("owls"), away: .team("lions"), rules: .standard)])

    static func parse(_ fields: [String: String], on page: DeskChange.Page) -> DeskChange? {
        try? DeskChange.parse(fields, on: page).get()
    }

    @Test("the teams page's forms read as a player added or renamed or a team registered, and their fields read back the same")
    func teamForms() throws {
        let add = try #require(
            Self.parse(
                ["action": "add_player", "team": "lions", "player": " dee ", "name": "Dee Dunn", "reason": "late"], on: .teams))
        #expect(
            add.operation
                == .changeTournament(.playerAdded(team: "lions", player: Player(id: "dee", name: "Dee Dunn")), reason: "late"))
        #expect(add.summary == "Add Dee Dunn (dee) to team lions (late)")
        let rename = try #require(
            Self.parse(
                ["action": "rename_player", "team": "lions", "player": "ann", "name": "Ann Lee", "reason": ""], on: .teams))
        #expect(rename.operation == .changeTournament(.playerRenamed(team: "lions", player: "ann", name: "Ann Lee"), reason: nil))
        let register = try #require(
            Self.parse(
                [
                    "action": "register_team", "team": "owls", "name": "Owls",
                    "players": "ola Ola Olsen\r\n\r\n  pia   Pia Park \n", "group": "A",
                ],
                on: .teams))
        let owls = Team(
            id: "owls", name: "Owls", players: [Player(id: "ola", name: "Ola Olsen"), Player(id: "pia", name: "Pia Park")])
        #expect(register.operation == .changeTournament(.teamRegistered(owls, group: "A"), reason: nil))
        #expect(register.summary == "Register team Owls (owls) in group A: Ola Olsen (ola), Pia Park (pia)")
        let noGroup = try #require(
            Self.parse(
                ["action": "register_team", "team": "owls", "name": "Owls", "players": "ola Ola", "group": ""], on: .teams))
        #expect(
            noGroup.operation
                == .changeTournament(
                    .teamRegistered(Team(id: "owls", name: "Owls", players: [Player(id: "ola", name: "Ola")]), group: nil),
                    reason: nil))
        let intoDivision = try #require(
            Self.parse(
                ["action": "register_team", "team": "owls", "name": "Owls", "players": "ola Ola", "division": "w"], on: .teams))
        #expect(
            intoDivision.operation
                == .changeTournament(
                    .teamRegistered(
                        Team(id: "owls", name: "Owls", players: [Player(id: "ola", name: "Ola")]), group: nil, division: "w"),
                    reason: nil))
        #expect(intoDivision.summary == "Register team Owls (owls) in division w: Ola (ola)")
        #expect(intoDivision.fields.contains { $0.name == "division" && $0.value == "w" }, "the confirm form carries it")
        let bench = try #require(
            Self.parse(["action": "set_player_active", "team": "lions", "player": "bo", "active": "false"], on: .teams))
        #expect(bench.operation == .changeTournament(.playerActive(team: "lions", player: "bo", active: false), reason: nil))
        #expect(bench.summary.hasPrefix("Mark player bo of team lions inactive"))
        #expect(
            Self.parse(["action": "set_player_active", "team": "lions", "player": "bo", "active": "maybe"], on: .teams) == nil)
        for change in [add, rename, register, noGroup, bench] {
            var fields = Dictionary(uniqueKeysWithValues: change.fields.map { ($0.name, $0.value) })
            fields["command_id"] = "abc"
            #expect(Self.parse(fields, on: .teams) == DeskChange(page: .teams, operation: change.operation, commandID: "abc"))
        }
    }

    @Test("a move sends only what differs from what the page showed; an add names its teams; their fields read back the same")
    func scheduleForms() throws {
        let shown = [
            "action": "edit_game", "game": "g1", "was_court": "Court 1", "was_start": "10:00", "was_home": "lions",
            "was_away": "tigers",
        ]
        let moved = try #require(
            Self.parse(
                shown.merging(["court": "Court 2", "start": "10:00", "home": "lions", "away": "tigers"]) { $1 }, on: .schedule))
        #expect(moved.operation == .changeTournament(.gameEdited(GameEdit(game: "g1", court: "Court 2")), reason: nil))
        #expect(moved.summary == "Move g1 to Court 2")
        let swapped = try #require(
            Self.parse(
                shown.merging(["court": "Court 1", "start": "10:50", "home": "owls", "reason": "Tigers late"]) { $1 },
                on: .schedule))
        #expect(
            swapped.operation
                == .changeTournament(
                    .gameEdited(GameEdit(game: "g1", start: "10:50", home: .team("owls"))), reason: "Tigers late"))
        #expect(swapped.summary == "Move g1 at 10:50, home owls (Tigers late)")
        let added = try #require(
            Self.parse(
                [
                    "action": "schedule_game", "game": "g7", "home": "owls", "away": "tigers", "court": "Court 2", "start": "",
                    "round": "Friendlies", "group": "",
                ],
                on: .schedule))
        #expect(
            added.operation
                == .scheduleGame(
                    game: "g7", home: "owls", away: "tigers", court: "Court 2", start: nil, round: "Friendlies", group: nil,
                    rules: nil, reason: nil))
        #expect(added.summary == "Add game g7: owls v tigers, Court 2, round Friendlies")
        let ruled = try #require(
            Self.parse(
                shown.merging(["court": "Court 1", "start": "10:00", "preset": " fiba3x3 "]) { $1 }, on: .schedule))
        #expect(ruled.operation == .changeTournament(.gameEdited(GameEdit(game: "g1", preset: "fiba3x3")), reason: nil))
        #expect(ruled.summary == "Move g1 under the rules fiba3x3")
        for change in [moved, swapped, added, ruled] {
            let fields = Dictionary(uniqueKeysWithValues: change.fields.map { ($0.name, $0.value) })
            #expect(Self.parse(fields, on: .schedule)?.operation == change.operation)
        }
    }

    @Test("a form that is not the page's, misses a field, changes nothing or has a bad player line is refused as bad_request")
    func refusals() {
        let broken: [([String: String], DeskChange.Page)] = [
            ([:], .teams), (["action": "edit_game", "game": "g1", "court": "Court 2"], .teams),
            (["action": "add_player", "team": "lions", "player": "dee"], .teams),
            (["action": "add_player", "team": "lions", "name": "Dee"], .teams),
            (["action": "rename_player", "team": "lions", "name": "X"], .teams),
            (["action": "register_team", "team": "owls", "name": "Owls", "players": ""], .teams),
            (["action": "register_team", "team": "owls", "name": "Owls", "players": "ola"], .teams),
            (["action": "add_player", "team": "lions", "player": "dee", "name": "Dee"], .schedule),
            (["action": "edit_game", "game": "g1", "court": "Court 1", "was_court": "Court 1"], .schedule),
            (["action": "edit_game", "court": "Court 2"], .schedule),
            (["action": "schedule_game", "game": "g7", "home": "owls"], .schedule),
        ]
        for (fields, page) in broken {
            guard case .failure(let error) = DeskChange.parse(fields, on: page) else {
                Issue.record("\(fields) was read as a change on \(page)")
                continue
            }
            #expect(error.code == .badRequest)
        }
    }

    @Test("the teams page: every team with its players and group, the register form's groups; its forms name the team")
    func teamsPage() {
        let page = DeskTeamsPage(.success(Self.setup), notice: DeskNotice(text: "Done: Add Dee.", refused: false))
        #expect(page.teams.map(\.name) == ["Lions", "Owls", "Tigers"])
        #expect(page.teams[0].group == "Group A" && page.teams[1].group == nil)
        #expect(page.teams[0].players.map(\.id) == ["ann", "bo"] && page.teams[0].players.allSatisfy { $0.team == "lions" })
        #expect(page.groups == [.init(value: "", label: "no group"), .init(value: "A", label: "Group A")])
        let html = Pages.render("desk-teams", page)
        #expect(html.contains(#"<section class="team" data-team="lions">"#) && html.contains(#"<tr data-player="bo">"#))
        #expect(html.contains(#"<input type="hidden" name="team" value="lions"><input type="hidden" name="player" value="ann">"#))
        #expect(html.contains(#"role="status" id="teams-message">Done: Add Dee.</p>"#) && html.contains(#"id="register""#))
        #expect(!html.contains(#"name="division""#), "no division to choose in a tournament of one")
        var divided = Self.setup
        divided.divisions = [
            Division(id: "open", name: "Open", teams: ["lions", "tigers"]), Division(id: "w", name: "Women", teams: ["owls"]),
        ]
        let withDivisions = Pages.render("desk-teams", DeskTeamsPage(.success(divided), notice: nil))
        #expect(
            withDivisions.contains(
                #"<select name="division"><option value="">the group&#39;s</option><option value="open">Open</option>"#))

        var benched = Self.setup
        benched.inactivePlayers = ["bo"]
        let marked = DeskTeamsPage(.success(benched), notice: nil)
        #expect(marked.teams[0].players.map(\.inactive) == [false, true])
        let markedHTML = Pages.render("desk-teams", marked)
        #expect(markedHTML.contains(#"<tr data-player="bo" class="inactive">"#) && markedHTML.contains("Mark active"))
        #expect(markedHTML.contains(#"name="active" value="false""#) && markedHTML.contains(#"name="active" value="true""#))

        let unreachable = CourtsideError(.init(rawValue: "unreachable"), "no answer")
        let refused = DeskTeamsPage(.failure(unreachable), notice: DeskNotice(text: "Refused (team_exists): x", refused: true))
        let alert = Pages.render("desk-teams", refused)
        #expect(alert.contains(#"class="message refused" role="alert" id="teams-message">Refused (team_exists): x"#))
        #expect(
            alert.contains("could not be read: The scoring server did not answer in time: try again.")
                && !alert.contains("no answer") && !alert.contains(#"id="register""#))
    }

    @Test(
        "the schedule page: every game by round, then the others; its state; a move form only before it starts, teams only where the schedule names one"
    )
    func schedulePage() throws {
        var started = Game(setup: GameSetup(id: "g2", home: Self.tigers, away: Self.lions, court: "Court 2"))
        started.status = .running
        let games: [GameID: Game] = [
            "g1": Game(setup: GameSetup(id: "g1", home: Self.lions, away: Self.tigers, court: "Court 1")), "g2": started,
            "friendly": Game(setup: GameSetup(id: "friendly", home: Self.owls, away: Self.lions)),
        ]
        let page = DeskSchedulePage(.success(Self.setup), games: games, notice: nil)
        #expect(page.rounds.map(\.name) == ["Group stage", "Final", "Other games"])
        let g1 = page.rounds[0].games[0], g2 = page.rounds[0].games[1], g3 = page.rounds[1].games[0],
            friendly = page.rounds[2].games[0]
        // The words of every other screen (GameViewModel's).
        #expect(g1.state == "SCHEDULED" && g1.movable && g2.state == "LIVE" && !g2.movable)
        #expect(g3.state == "waiting for its teams" && g3.movable && g3.home.name == "winner of g1" && g3.home.team == nil)
        #expect(g1.home.name == "Lions" && g1.home.team == "lions" && g1.home.teams.filter(\.selected).map(\.value) == ["lions"])
        #expect(
            g1.courts.map(\.value) == ["Court 1", "Court 2", "Annex"] && g1.courts.filter(\.selected).map(\.value) == ["Court 1"])
        #expect(friendly.courts.first == .init(value: "", label: "no court", selected: true) && friendly.group == "")
        #expect(page.courts.map(\.value) == ["", "Court 1", "Court 2", "Annex"] && page.roundNames == ["Group stage", "Final"])
        #expect(page.teams.map(\.value) == ["lions", "owls", "tigers"])

        var finished = started
        finished.status = .finished
        #expect(DeskSchedulePage(.success(Self.setup), games: ["g2": finished], notice: nil).rounds[0].games[1].state == "FINAL")

        let html = Pages.render("desk-schedule", page)
        let row = { (game: String) in
            try #require(html.range(of: #"<tr data-game="\#(game)">"#)).upperBound
        }
        let g1Row = html[try row("g1")..<(try row("g2"))], g2Row = html[try row("g2")..<(try row("g3"))]
        let g3Row = html[try row("g3")..<(try row("friendly"))]
        #expect(
            g1Row.contains(#"<option value="Court 1" selected>Court 1</option>"#)
                && g1Row.contains(#"name="was_home" value="lions""#))
        #expect(g1Row.contains(#"<select name="home""#) && g1Row.contains(#"<option value="tigers" selected>Tigers</option>"#))
        #expect(!g2Row.contains("<form") && g2Row.contains("LIVE"))
        #expect(g3Row.contains("<form") && !g3Row.contains(#"name="home""#) && g3Row.contains("winner of g1"))
        #expect(html.contains(#"id="add-game""#) && html.contains(#"<option value="Final">"#))

        let unread = DeskSchedulePage(
            .failure(CourtsideError(.init(rawValue: "unreachable"), "no answer")), games: games, notice: nil)
        #expect(unread.rounds.isEmpty && unread.unreadable == "The scoring server did not answer in time: try again.")
        #expect(!Pages.render("desk-schedule", unread).contains(#"id="add-game""#))
        var loose = Self.setup
        loose.rounds = []
        #expect(DeskSchedulePage(.success(loose), games: games, notice: nil).rounds.map(\.name) == ["Games"])
    }

    @Test("a notice travels in the address it redirects to: done, or refused")
    func notice() {
        #expect(
            DeskNotice(text: "Refused (game_started): g1 has started", refused: true).location("/desk/schedule")
                == "/desk/schedule?refused=Refused%20%28game%5Fstarted%29%3A%20g1%20has%20started")
        #expect(DeskNotice(text: "Done", refused: false).location("/desk/teams") == "/desk/teams?done=Done")
    }

    @Test("the confirmation posts to the page's own confirm and goes back to it")
    func confirm() {
        let page = DeskGateway.ConfirmPage(
            summary: "Move g1 to Court 2", fields: [.init(name: "action", value: "edit_game")], action: "/desk/schedule/confirm",
            back: "/desk/schedule", note: "Every screen follows at once.")
        let html = Pages.render("desk-confirm", page)
        #expect(
            html.contains(#"<form method="post" action="/desk/schedule/confirm">"#)
                && html.contains(#"<a href="/desk/schedule">Back</a>"#))
        #expect(html.contains("Every screen follows at once.") && html.contains(#"id="summary">Move g1 to Court 2</p>"#))
        let forfeit = Pages.render("desk-confirm", DeskGateway.ConfirmPage(summary: "s", fields: []))
        #expect(forfeit.contains(#"action="/desk/confirm""#) && forfeit.contains("The game becomes final at once"))
    }
}
