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
    static func unmarked(_ html: String) -> [String] {
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
            var rest = text.replacingOccurrences(of: #"⟦[^⟧]*⟧"#, with: " ", options: .regularExpression)
            for name in (data + names).sorted(by: { $0.count > $1.count }) {
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
}
