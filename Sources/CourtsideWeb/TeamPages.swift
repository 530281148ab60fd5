import CourtsideLocalization
import CourtsideModel
import CourtsideViewModels
import QREncode

/// Each team's own page, the list of every team, and the printable sheet of their QR codes,
/// drawn from the live view as the other public pages are (``TeamPage``, ``TeamList``).
extension Pages {
    /// The frame's fields (`page.mustache`) around a team page's view model.
    struct TeamFrame<Model> {
        var lang: String
        var title: String
        var kind: String
        var game = ""
        var inSync: Bool
        var text: ScreenWords.Frame
        var model: Model
        /// The language picker, which sends a phone back to this page.
        var picker: LanguagePicker.Picker
    }

    /// One team's page, or nil when the tournament has no team of that id; every word in `words`' language.
    static func team(_ view: LiveTournament.View, team id: TeamID, words: Words = .english) -> String? {
        guard
            let page = TeamPage(
                team: id, teams: view.teams, divisions: view.divisions, games: view.games, bracket: view.bracket,
                standings: view.standings, estimates: view.estimates(), words: words)
        else { return nil }
        return render(
            "team",
            TeamFrame(
                lang: page.lang, title: page.title, kind: "team", inSync: view.inSync, text: ScreenWords.Frame(words),
                model: page, picker: LanguagePicker.picker(words, back: TeamPage.path(of: id))))
    }

    /// Every team by division, each linking to its page, sorted and worded in `words`' language.
    static func teams(_ view: LiveTournament.View, words: Words = .english) -> String {
        let list = teamList(view, words: words)
        return render(
            "teams",
            TeamFrame(
                lang: list.lang, title: list.title, kind: "teams", inSync: view.inSync, text: ScreenWords.Frame(words),
                model: list, picker: LanguagePicker.picker(words, back: "/teams")))
    }

    /// The sheet to print: each team's name and a QR code of its page's address, which starts
    /// with `baseURL`. Stands alone (its style inlined), as the join sheet does.
    static func teamSheet(_ view: LiveTournament.View, baseURL: String, words: Words = .english) throws -> String {
        struct Sheet {
            var style: String
            var sheet: TeamSheet
        }
        var sheet = TeamSheet(teamList(view, words: words), baseURL: baseURL, words: words)
        for index in sheet.cards.indices { sheet.cards[index].qr = try QRCode(sheet.cards[index].url).svg() }
        return render("team-sheet", Sheet(style: String(decoding: PackageResources.team_sheet_css, as: UTF8.self), sheet: sheet))
    }

    private static func teamList(_ view: LiveTournament.View, words: Words) -> TeamList {
        TeamList(teams: view.teams, divisions: view.divisions, games: view.games, standings: view.standings, words: words)
    }
}
