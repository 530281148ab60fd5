import CourtsideEvent
import CourtsideLocalization
import CourtsideModel
import Foundation
import Testing

@testable import CourtsideWeb

@Suite("The desk's Setup page: its form as an event, its review, its drafts")
struct DeskSetupTests {
    static let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("config")

    static func teamsCSV() throws -> String {
        try String(contentsOf: config.appendingPathComponent("teams.csv"), encoding: .utf8)
    }

    /// config/event.yaml's values typed into the form's fields, config/teams.csv pasted (a
    /// browser sends CR LF), seed 7, the third block left blank.
    static func fields(csv: String) -> [String: String] {
        [
            "tournament": "Courtside Summer 3x3", "start": "09:00", "end": "17:00",
            "courts": "Court 1\r\nCourt 2\r\nCourt 3\r\nCourt 4\r\n", "game_minutes": "10", "changeover_minutes": "4",
            "rest_minutes": "20", "rules": "fiba3x3", "tie_breakers": "head_to_head, average_points_scored, seed", "seed": "7",
            "csv": csv.replacingOccurrences(of: "\n", with: "\r\n"),
            "division-0-id": "open", "division-0-name": "Open", "division-0-format": "pools_knockout", "division-0-pools": "4",
            "division-0-qualifiers": "2", "division-0-best_of_next": "0", "division-0-third_place": "true",
            "division-0-legs": "1",
            "division-1-id": "women", "division-1-name": "Women", "division-1-format": "pools_knockout",
            "division-1-pools": "2", "division-1-qualifiers": "2", "division-1-best_of_next": "0", "division-1-legs": "1",
            "division-2-id": "", "division-2-name": "", "division-2-format": "round_robin", "division-2-legs": "1",
        ]
    }

    static func review(_ fields: [String: String]) -> Result<SetupDraft, SetupForm.Problem> {
        SetupDraft.review(SetupForm(fields), newSeed: 99, effort: .quick)
    }

    @Test(
        "config/event.yaml and config/teams.csv entered through the form: the same schedule as the CLI's reading with the same seed"
    )
    func sameAsCommandLine() throws {
        let draft = try Self.review(Self.fields(csv: try Self.teamsCSV())).get()
        // The CLI's path: the event file read by the shared reader, its CSV beside it.
        let text = try String(contentsOf: Self.config.appendingPathComponent("event.yaml"), encoding: .utf8)
        let event = try EventDescription(yaml: text)
        let teams = try EventPlanner.teams(of: event) { file in
            try String(contentsOf: Self.config.appendingPathComponent(file), encoding: .utf8)
        }
        let planned = try EventPlanner.planned(event, teams: teams, seed: 7, effort: .quick)
        #expect(draft.draw.schedule == planned.schedule)
        #expect(draft.draw.schedule.games.count == 47 && draft.draw.schedule.teams.count == 24)
        #expect(draft.seed == 7)
        #expect(draft.figures(.english) == planned.figureLines)
        // The same figures in the page's language: Japanese, each line from the catalog.
        let japanese = draft.figures(Words(Language(tag: "ja")!))
        #expect(japanese.count == planned.figureLines.count && japanese[0].hasPrefix("一日: 09:00〜"), "\(japanese)")
        #expect(japanese.contains { $0.hasPrefix("1チームが同じコートで行う最多試合数: ") }, "\(japanese)")
        #expect(
            draft.summary.hasPrefix("Publish the draw of Open and Women: 24 teams, 47 games on 4 courts, 09:00 to "),
            "\(draft.summary)")
        // The draw keeps the event as entered, and the CSV as pasted, for the audit.
        let event2 = try #require(draft.draw.event)
        #expect(event2.contains("format: { type: pools_knockout, pools: 4, qualifiers: 2, best_of_next: 0, third_place: true }"))
        #expect(event2.contains("# open,\"Harbour Hawks\",Ned Zeller"))
        #expect(try EventDescription(yaml: event2).divisions.map(\.id) == ["open", "women"])
        // The preview's pools: Open's four, Women's two.
        #expect(draft.preview.divisions.map { $0.pools.count } == [4, 2])
        #expect(draft.preview.divisions.allSatisfy { $0.bracket != nil })
    }

    @Test(
        "bad input names what is wrong, tied to its field: a broken CSV line, a day too short, a bad number, an unknown tie-breaker"
    )
    func badInput() throws {
        let csv = try Self.teamsCSV()
        // Line 4 of the pasted CSV has text after a quoted field's closing quote.
        var lines = csv.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[3] = "open,\"Broken\" Team,Ann,Bo,Cy,,100,Club"
        var fields = Self.fields(csv: lines.joined(separator: "\n"))
        var problem = try #require(Self.review(fields).failure)
        #expect(problem.field == "csv")
        #expect(problem.message.hasPrefix("invalid_csv: registration.csv line 4"), "\(problem.message)")

        fields = Self.fields(csv: csv)
        fields["end"] = "10:30"
        problem = try #require(Self.review(fields).failure)
        // By how much: "47 games do not fit on 4 courts by 10:30: needs until 12:22; ...".
        #expect(
            problem.message.hasPrefix("does_not_fit: 47 games do not fit on 4 courts by 10:30: needs until "),
            "\(problem.message)")

        fields = Self.fields(csv: csv)
        fields["game_minutes"] = "ten"
        problem = try #require(Self.review(fields).failure)
        #expect(problem == SetupForm.Problem(field: "game_minutes", message: "Game minutes: a whole number of minutes, as 10"))

        fields = Self.fields(csv: csv)
        fields["tie_breakers"] = "head_to_head, coin_toss"
        problem = try #require(Self.review(fields).failure)
        #expect(problem.field == "tie_breakers" && problem.message.contains("coin_toss is none of"))

        // A format that needs more teams than the division has: the block's field.
        fields = Self.fields(csv: csv)
        fields["division-1-pools"] = "5"
        problem = try #require(Self.review(fields).failure)
        #expect(problem.field?.hasPrefix("division-1-") == true || problem.field == nil, "\(problem)")

        // No teams at all.
        problem = try #require(Self.review(Self.fields(csv: "")).failure)
        #expect(problem.field == "csv")

        // The page shows the problem at the top (an alert) and on its field; the inputs are kept.
        fields = Self.fields(csv: csv)
        fields["game_minutes"] = "ten"
        let form = SetupForm(fields)
        let minutes: SetupForm.Problem = try #require(Self.review(fields).failure)
        let html = Pages.render("desk-setup", DeskSetupPage(form, problem: minutes))
        #expect(html.contains(#"role="alert" id="setup-problem">Not reviewed: Game minutes: a whole number of minutes, as 10"#))
        #expect(
            html.contains(
                #"id="game_minutes" name="game_minutes" type="number" value="ten" aria-describedby="game_minutes-problem" aria-invalid="true""#
            ), "\(html)")
        #expect(html.contains("Harbour Hawks") && html.contains(#"value="women""#))
    }

    @Test("an empty division block is ignored, whatever its format says; an id missing where a name is given is asked for")
    func blocks() throws {
        var fields = Self.fields(csv: try Self.teamsCSV())
        fields["division-2-format"] = "double_elimination"
        fields["division-2-legs"] = "2"
        let draft = try Self.review(fields).get()
        #expect(draft.draw.schedule.divisions.map(\.id) == ["open", "women"])
        fields["division-2-name"] = "Veterans"
        let problem = try #require(Self.review(fields).failure)
        #expect(problem == SetupForm.Problem(field: "division-2-id", message: "Division 3: give it an id, as open"))
    }

    @Test("a Swiss division from the form: its rounds asked for, its later rounds shown as to be paired")
    func swiss() throws {
        var fields = Self.fields(csv: try Self.teamsCSV())
        fields["division-1-format"] = "swiss"
        fields["division-1-rounds"] = ""
        #expect(try #require(Self.review(fields).failure).field == "division-1-rounds")
        fields["division-1-rounds"] = "3"
        let draft = try Self.review(fields).get()
        let women = draft.draw.schedule.games.filter { $0.division == "women" }
        #expect(women.count == 12 && women.filter { $0.swissRound != nil }.count == 8)
        #expect(draft.draw.event?.contains("format: { type: swiss, rounds: 3 }") == true)
        let html = Pages.render("desk-setup", DeskSetupPage(SetupForm(fields)))
        #expect(html.contains(#"name="division-1-rounds""#) && html.contains(">Swiss<"))
        // A double elimination with its reset.
        fields["division-1-format"] = "double_elimination"
        fields["division-1-reset"] = "true"
        let reset = try Self.review(fields).get()
        #expect(reset.draw.schedule.games.contains { $0.id == "women-GF2" && $0.playedIf == .won(game: "women-GF", by: .away) })
    }

    @Test("a division's own options: a random deal (its seed kept), clubs apart, places 5 to 8 and its own rules")
    func divisionOptions() throws {
        var fields = Self.fields(csv: try Self.teamsCSV())
        fields["seed"] = "11"
        fields["division-0-deal"] = "random"
        fields["division-0-separate_clubs"] = "true"
        fields["division-0-fifth_to_eighth"] = "true"
        fields["division-1-rules"] = "pickup-15w2-cap21"
        let form = SetupForm(fields)
        let event = try form.eventFile()
        #expect(event.contains("deal: random, separate_clubs: true"), "\(event)")
        #expect(event.contains("fifth_to_eighth: true") && event.contains(#"rules: "pickup-15w2-cap21""#), "\(event)")
        let draft = try Self.review(fields).get()
        #expect(draft.draw.randomSeed == 11, "a random deal keeps its seed")
        #expect(draft.draw.schedule.games.contains { $0.id == "open-5th" })
        #expect(draft.draw.schedule.games.filter { $0.division == "women" }.allSatisfy { $0.rules.preset == "pickup-15w2-cap21" })
        // The page shows them as chosen.
        let html = Pages.render("desk-setup", DeskSetupPage(form))
        #expect(html.contains(#"id="division-0-deal" name="division-0-deal" value="random" checked"#), "\(html)")
        #expect(html.contains(#"<option value="pickup-15w2-cap21" selected>"#))
    }

    @Test("drafts: kept under their token for 30 minutes, at most 16 (the oldest goes first); an unknown token is none")
    func drafts() throws {
        let draft = try Self.review(Self.fields(csv: try Self.teamsCSV())).get()
        var drafts = SetupDrafts()
        let start = ContinuousClock.now
        drafts.keep(draft, token: "first", now: start)
        #expect(drafts.entry("first", now: start + .seconds(29 * 60)) != nil)
        #expect(drafts.entry("unknown", now: start) == nil)
        #expect(drafts.entry("first", now: start + .seconds(30 * 60)) == nil, "expired")
        for number in 0..<17 { drafts.keep(draft, token: "t\(number)", now: start + .seconds(number)) }
        #expect(drafts.entries.count == 16)
        #expect(drafts.entry("t0", now: start + .seconds(20)) == nil && drafts.entry("t16", now: start + .seconds(20)) != nil)
        // Sent once, the draft keeps the draw it was sent as.
        var renamed = draft.draw
        renamed.schedule = renamed.schedule.renamingGames(avoiding: ["open-A-1"])
        drafts.sent("t5", as: renamed)
        guard case .sent(let sent) = drafts.entry("t5", now: start + .seconds(20))?.stage else {
            Issue.record("not marked sent")
            return
        }
        #expect(sent.schedule.games.contains { $0.id == "open-A-1-2" })
    }

    @Test("a value with quotes, a colon or a hash stays itself in the event file")
    func quoting() throws {
        var fields = Self.fields(csv: try Self.teamsCSV())
        fields["tournament"] = #"Summer: "3x3" # one"#
        fields["courts"] = "Court #1\nCourt: 2\nCourt 3\nCourt 4"
        let text = try SetupForm(fields).eventFile()
        let event = try EventDescription(yaml: text)
        #expect(event.tournament == #"Summer: "3x3" # one"#)
        #expect(event.courts.map(\.name) == ["Court #1", "Court: 2", "Court 3", "Court 4"])
    }

    @Test("a court open part of the day: its hours after its name, as the event file's {name, from, until}")
    func courtHours() throws {
        var fields = Self.fields(csv: try Self.teamsCSV())
        fields["courts"] = "Court 1\nCourt 2 until 11:00\nCourt 3 from 10:00\nCourt 4 from 9:30 until 16:00\nCourt from the hall"
        let event = try EventDescription(yaml: try SetupForm(fields).eventFile())
        let courts = event.courts.map { "\($0.name)|\($0.from ?? "")|\($0.until ?? "")" }
        #expect(courts == ["Court 1||", "Court 2||11:00", "Court 3|10:00|", "Court 4|9:30|16:00", "Court from the hall||"])
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
