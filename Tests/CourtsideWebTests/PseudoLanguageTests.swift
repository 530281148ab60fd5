import CourtsideEvent
import CourtsideLocalization
import CourtsideModel
import CourtsideViewModels
import Foundation
import Testing

@testable import CourtsideWeb

/// Every page rendered in the pseudo-language (``Catalog/pseudo(of:)``): any text a person reads,
/// text node or accessible name, either came through the catalog (marked `⟦…⟧`) or is the
/// tournament's own data (a name, a number). Unmarked words are words written in code or a
/// template, which no translator could reach.
@Suite("The pages in the pseudo-language: no word left outside the catalogs")
struct PseudoLanguageTests {
    static let words = Words(catalog: Catalog.pseudo())

    /// A game of the pages' fixture, a few plays in, so that its plays and counts are worded too.
    static var view: LiveTournament.View {
        var view = CourtLinesTests.view
        let at = Timestamp(milliseconds: 1_000)
        var game = view.games["g1"]!
        for (version, (player, move)) in [("ann", MoveKind.twoPoints), ("di", .foul), ("ann", .onePoint)].enumerated() {
            game.apply(
                GameEvent(
                    gameID: "g1", version: version + 2, at: at, origin: CommandOrigin(clientID: "t", commandID: "\(version)"),
                    kind: .move(player: PlayerID(player), move: move)))
        }
        view.games["g1"] = game
        return view
    }

    /// What the tournament's data puts on a page: names, courts and ids, never translated; and
    /// the shape of a PIN, shown as an example in the PIN's field.
    static let data: [String] =
        ["Lions", "Tigers", "Ann", "Di", "Court 1", "Court 2", "g1", "g2", "g3", "Courtside", "K7M-4PX", "device-1"]
        // The desk's fixtures (DeskChangesTests.setup, the Setup form's config/event.yaml).
        + [
            "Owls", "Bo", "Ola", "lions", "tigers", "owls", "ann", "bo", "di", "ola", "Group A", "A", "Group stage", "Final",
            "Annex",
        ]
        + ["friendly", "Court 3", "Court 4", "Courtside Summer 3x3", "Open", "Women", "open", "women", "ACD-EFH"]
        + RulePresets.builtIn.keys.sorted()

    /// The texts of `html` a person reads (text nodes, and `aria-label`, `title`, `alt` and
    /// `placeholder`) that hold letters outside the catalog's marks and the tournament's data.
    static func unmarked(_ html: String, data more: [String] = []) -> [String] {
        var page = html
        for block in [#"<script\b[^>]*>[\s\S]*?</script>"#, #"<style\b[^>]*>[\s\S]*?</style>"#, #"<!--[\s\S]*?-->"#] {
            page = page.replacingOccurrences(of: block, with: " ", options: .regularExpression)
        }
        var texts: [String] = []
        let attribute = try! Regex(#"(?:aria-label|title|alt|placeholder)="([^"]*)""#)
        for match in page.matches(of: attribute) { texts.append(String(match.output[1].substring ?? "")) }
        let withoutTags = page.replacingOccurrences(of: #"<[^>]*>"#, with: "\n", options: .regularExpression)
        texts += withoutTags.split(separator: "\n").map(String.init)
        // Each shipped language's own name, in its own words: the picker offers them so.
        let names = Catalogs.languages.map { Words.of($0)(.languageName) }
        return texts.filter { text in
            // A catalog's text may hold another's (a slot's words in a game's title): the
            // innermost marks first. A box cut short ends its text with an ellipsis, not a mark.
            var rest = text
            while rest.range(of: #"⟦[^⟦⟧]*⟧"#, options: .regularExpression) != nil {
                rest = rest.replacingOccurrences(of: #"⟦[^⟦⟧]*⟧"#, with: " ", options: .regularExpression)
            }
            rest = rest.replacingOccurrences(of: #"⟦[^⟦⟧]*…"#, with: " ", options: .regularExpression)
            for name in (data + more + names).sorted(by: { $0.count > $1.count }) {
                rest = rest.replacingOccurrences(of: name, with: " ")
            }
            return rest.unicodeScalars.contains { $0.properties.isAlphabetic }
        }
    }

    @Test("the marks: every text marked and 40% longer, its placeholders kept")
    func marks() {
        #expect(Catalog.pseudo("Court PIN") == "⟦Çóúrt PÍÑ····⟧")
        #expect(Catalog.pseudo("next on {court}: {home} v {away}") == "⟦ñéxt óñ {court}: {home} v {away}···⟧")
        #expect(Self.words(.joinPIN) == "⟦Çóúrt PÍÑ····⟧")
        // What the check finds: words outside the marks, in text or in an accessible name.
        #expect(
            Self.unmarked(#"<p>⟦Ñéxt···⟧ Lions</p><button aria-label="Undo">⟦x⟧</button><p>Hello ⟦x⟧</p>"#) == [
                "Undo", "Hello ⟦x⟧",
            ])
    }

    @Test("the join page")
    func joinPage() {
        let page = Pages.render(
            "join", KeeperGateway.JoinPage(link: nil, pin: "wrong", seconds: nil, words: Self.words, path: "/keep"))
        #expect(page.contains("⟦"), "\(page)")
        #expect(Self.unmarked(page).isEmpty, "\(Self.unmarked(page))")
    }

    @Test("a court's TV, a game three plays in")
    func courtTV() {
        let page = Pages.court(Self.view, game: "g1", words: Self.words)
        #expect(page.contains("⟦"), "\(page)")
        #expect(Self.unmarked(page).isEmpty, "\(Self.unmarked(page))")
    }

    @Test("the keeper page of Court 1")
    func keeperPage() {
        let view = Self.view
        let lineup = CourtLineup(court: "Court 1", bracket: view.bracket, games: view.games)
        let page = Pages.render("keeper", KeeperGateway.KeeperPage(device: "device-1", lineup: lineup, words: Self.words))
        #expect(page.contains("⟦"), "\(page)")
        #expect(Self.unmarked(page).isEmpty, "\(Self.unmarked(page))")
    }

    @Test("the screens: every game, the overlay, the box score, results, the teams and a team's page")
    func screens() throws {
        let view = Self.view
        let pages: [(String, String)] = [
            ("every game", Pages.allGames(view, words: Self.words)),
            ("overlay", Pages.overlay(view, game: "g1", words: Self.words)),
            ("box score", Pages.box(view, game: "g1", words: Self.words)),
            ("results", Pages.results(view, words: Self.words)),
            ("teams", Pages.teams(view, words: Self.words)),
            ("a team", try #require(Pages.team(view, team: "lions", words: Self.words))),
        ]
        for (name, page) in pages {
            #expect(page.contains("⟦"), "\(name): \(page)")
            #expect(Self.unmarked(page).isEmpty, "\(name): \(Self.unmarked(page))")
        }
    }

    @Test("the desk: sign-in, the courts' games, confirm, audit, schedule, teams, join codes and the Setup form")
    func desk() throws {
        for (name, page) in try DeskWordsTests.pages(Self.words, setupPreview: false) {
            #expect(page.contains("⟦"), "\(name): \(page)")
            #expect(Self.unmarked(page).isEmpty, "\(name): \(Self.unmarked(page))")
        }
    }

    @Test("the desk's audit of a game, each kind of event a row, and the Setup preview of config/teams.csv")
    func deskRowsAndPreview() throws {
        let view = Self.view
        let setup = try #require(view.games["g1"]).setup
        let origin = CommandOrigin(clientID: "court-1", commandID: "c1")
        let kinds: [GameEvent.Kind] = [
            .gameCreated(setup), .move(player: "ann", move: .twoPoints), .move(player: "di", move: .foul),
            .retraction(targetVersion: 2, reason: nil), .clockStarted, .clockPaused, .timeout(side: .home),
        ]
        let events = kinds.enumerated().map { index, kind in
            GameEvent(gameID: "g1", version: index + 1, at: Timestamp(milliseconds: 0), origin: origin, kind: kind)
        }
        let audit = Pages.render(
            "desk-audit",
            DeskGateway.AuditPage(
                games: [.init(value: "g1", selected: true)], origin: "", kind: "",
                rows: AuditTrail(events, words: Self.words).rows, words: Self.words))
        // A row's time, origin and wire type are the log's own (what the filters take), not words.
        let wire =
            ["court-1/c1", "1970-01-01T00:00:00.000Z"]
            + ["game_created", "move", "retraction", "clock_started", "clock_paused", "timeout"]
        let words = Self.unmarked(audit).filter { !wire.contains($0.trimmingCharacters(in: .whitespaces)) }
        #expect(audit.contains("⟦") && words.isEmpty, "\(words)")

        // The preview names config/teams.csv's teams, players and clubs: the tournament's data.
        // The draw's games, groups and rounds are named by the formats as the schedule stores
        // them ("Pool A", "Semi-finals"): the tournament's data, published as they are.
        let registered = try TeamsCSV.read(try DeskSetupTests.teamsCSV())
        let draft = try DeskSetupTests.review(DeskSetupTests.fields(csv: try DeskSetupTests.teamsCSV())).get()
        let schedule = draft.draw.schedule
        let names =
            registered.flatMap { [$0.team.name] + $0.team.players.map(\.name) + [$0.club].compactMap { $0 } }
            + schedule.games.flatMap { [$0.id.rawValue, $0.round, $0.group].compactMap { $0 } }
            + schedule.groups.map(\.name)
        let preview = try #require(try DeskWordsTests.pages(Self.words).last { $0.name == "setup, preview" }).html
        // A group's place in a bracket's box ("B2") is the group's letter and a number.
        let left = Self.unmarked(preview, data: names).filter { $0.wholeMatch(of: /\s*[A-Z][0-9]+\s*/) == nil }
        #expect(preview.contains("⟦") && left.isEmpty, "\(left)")
    }
}
