import CourtsideClient
import CourtsideLocalization
import CourtsideModel
import CourtsideViewModels
import Mustache

/// The pages screens show: server-rendered HTML that the page's own script keeps live from
/// `/api/events`. The templates (`Resources/templates`), the style sheet and the script
/// (`Resources/static`) are embedded in the executable at build time: a venue's network may have
/// no internet, so there is no CDN, and nothing is read from disk at run time.
///
/// A game's page renders its ``GameViewModel``, the values its script binds later from each
/// event's `view`; swift-mustache reads stored properties by reflection, and the templates
/// escape every value.
enum Pages {
    /// Every game at once, for a big screen, every word in `words`' language.
    static func allGames(_ view: LiveTournament.View, words: Words = .english) -> String {
        struct Page {
            var lang: String
            var title: String
            var kind = "all"
            var game = ""
            var inSync: Bool
            var text: ScreenWords.BigScreen
            var games: [GameViewModel]
            /// Each court's delay and next game, which the script binds from `courts` later.
            var courts: [CourtNow]
            /// Each division's knockout, drawn again when the tables change.
            var brackets: [BracketPicture]
        }
        let now = Timestamp(milliseconds: view.daemonNow)
        // The games in their id's order, as the script draws them (app.js's drawAll).
        let games = view.games.keys.sorted().compactMap { id in
            view.games[id].map { GameViewModel(GameState($0), now: now, lastPlays: 0, words: words) }
        }
        return render(
            "all-games",
            Page(
                lang: words.language.code, title: words(.allTitle), inSync: view.inSync, text: ScreenWords.BigScreen(words),
                games: games, courts: view.courtsNow().map { $0.worded(words) }, brackets: brackets(view, words: words)))
    }

    /// Each division's knockout as the results fill it, its teams and divisions named as the
    /// tournament's setup names them (or, before the gateway has read it, as their games do).
    static func brackets(_ view: LiveTournament.View, words: Words = .english) -> [BracketPicture] {
        var names = Dictionary(view.teams.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        for game in view.games.values {
            for team in [game.setup.home, game.setup.away] where names[team.id] == nil { names[team.id] = team.name }
        }
        let divisions = Dictionary(view.divisions.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        return BracketPicture.pictures(view.schedule, teamNames: names, divisionNames: divisions, words: words)
    }

    /// One team's place on a page; without its game yet (a bracket slot), its fields wait
    /// empty for the game's `game_created`.
    struct TeamPlace {
        var side: String
        var team: GameViewModel.TeamLine?
    }

    /// The words a game's page shows around its view's, in the page's language.
    struct GameWords {
        var reconnecting: String
        var waiting: String
        var lastPlays: String
        var fouls: String
        var timeouts: String
        var undone: String
        /// The box score's headings.
        var box: ScreenWords.Box

        init(_ words: Words, game: GameID) {
            (reconnecting, waiting, lastPlays) = (words(.pageReconnecting), words(.courtWaiting), words(.courtLastPlays))
            (fouls, timeouts, undone) = (words(.courtFouls), words(.courtTimeouts), words(.playUndone))
            box = ScreenWords.Box(words, game: game)
        }
    }

    /// One game's page: its view, if the gateway has the game yet.
    struct GamePage {
        var lang: String
        var title: String
        var kind: String
        var game: String
        var inSync: Bool
        var view: GameViewModel?
        var home: TeamPlace
        var away: TeamPlace
        /// The game's court now: its delay and its next game (a court's TV shows them).
        var courtNow: CourtNow?
        var text: GameWords
        /// The language picker, on pages that speak the request's language.
        var picker: LanguagePicker.Picker?

        /// `words`: the page's language.
        init(
            _ view: LiveTournament.View, game id: GameID, kind: String, title: String, words: Words = .english,
            picker: LanguagePicker.Picker? = nil
        ) {
            (self.title, self.kind, game, inSync) = (title, kind, id.rawValue, view.inSync)
            (lang, text, self.picker) = (words.language.code, GameWords(words, game: id), picker)
            self.view = view.games[id].map { GameViewModel($0, now: Timestamp(milliseconds: view.daemonNow), words: words) }
            courtNow = view.court(of: id).map {
                view.courtNow(CourtLineup(court: $0, bracket: view.bracket, games: view.games)).worded(words)
            }
            home = TeamPlace(side: Side.home.rawValue, team: self.view?.home)
            away = TeamPlace(side: Side.away.rawValue, team: self.view?.away)
        }
    }

    /// One court's TV: huge digits, readable from across a gym; each team's fouls against the
    /// rules' tiers and its time-outs left; the last plays, those before the page opened too.
    /// Every word in `words`' language, with a picker that sends the browser back to `path`.
    static func court(_ view: LiveTournament.View, game id: GameID, words: Words = .english, path: String? = nil) -> String {
        render(
            "court",
            GamePage(
                view, game: id, kind: "court", title: words(.courtTitle, ["game": id.rawValue]), words: words,
                picker: LanguagePicker.picker(words, back: path ?? "/games/\(id.rawValue)")))
    }

    /// A compact score bug on a transparent background, for a stream's browser source, in
    /// `words`' language (a stream's `?lang=`).
    static func overlay(_ view: LiveTournament.View, game id: GameID, words: Words = .english) -> String {
        render(
            "overlay",
            GamePage(view, game: id, kind: "overlay", title: words(.overlayTitle, ["game": id.rawValue]), words: words))
    }

    /// The box score: every player's counts, refreshed whenever the game changes.
    static func box(_ view: LiveTournament.View, game id: GameID, words: Words = .english) -> String {
        let title = words(view.games[id] == nil ? .courtTitle : .boxTitle, ["game": id.rawValue])
        return render("box", GamePage(view, game: id, kind: "box", title: title, words: words))
    }

    /// Schedule, standings and bracket, refreshed whenever they change; every word in `words`' language.
    static func results(_ view: LiveTournament.View, words: Words = .english) -> String {
        struct ScheduleRow {
            var game: String
            var round: String
            var court: String
            var start: String
            var home: String
            var score: String
            var away: String
            var state: String
            /// Each team's page, once the team is known.
            var homePath: String?
            var awayPath: String?
        }
        /// A table's row, its numbers as the language writes them.
        struct StandingLine {
            var rank: String
            var name: String
            /// The team's page.
            var path: String
            var played: String
            var won: String
            var lost: String
            var pointsFor: String
            var pointsAgainst: String
            var difference: String
        }
        struct Group {
            /// "Group A", or "Group A (final)" once every game of it is decided.
            var title: String
            var rows: [StandingLine]
        }
        struct Page {
            var lang: String
            var title: String
            var kind = "results"
            var game = ""
            var inSync: Bool
            var text: ScreenWords.Results
            var schedule: [ScheduleRow]
            var groups: [Group]
            var brackets: [BracketPicture]
            /// The language picker, for a phone: it comes back here.
            var picker: LanguagePicker.Picker
        }
        let groups = view.standings.map { group in
            Group(
                title: group.complete ? words(.tableFinal, ["group": group.name]) : group.name,
                rows: group.rows.map {
                    StandingLine(
                        rank: words.number($0.rank), name: $0.name, path: TeamPage.path(of: $0.team),
                        played: words.number($0.played), won: words.number($0.won), lost: words.number($0.lost),
                        pointsFor: words.number($0.pointsFor), pointsAgainst: words.number($0.pointsAgainst),
                        difference: words.number($0.difference))
                })
        }
        let names = TeamPage.names(teams: view.teams, games: view.games, standings: view.standings)
        // A side is its team once known, else its slot in the words the knockout's picture uses ("A1").
        let side = { (team: TeamID?, slot: Slot, division: String?) in
            team.map { names[$0] ?? $0.rawValue }
                ?? BracketPicture.words(slot, teamNames: names, division: division, words: words)
        }
        let schedule = view.schedule.map { entry in
            ScheduleRow(
                game: entry.game.rawValue, round: entry.round ?? entry.group ?? "", court: entry.court ?? "",
                start: entry.start ?? "", home: side(entry.homeTeam, entry.home, entry.division),
                score: entry.score.map { "\($0.home) - \($0.away)" } ?? "",
                away: side(entry.awayTeam, entry.away, entry.division),
                // Every screen's words for the game (its status), not the bracket's own states.
                state: GameViewModel.scheduleText(view.games[entry.game], teamsKnown: entry.state != .pending, words: words),
                homePath: entry.homeTeam.map(TeamPage.path(of:)),
                awayPath: entry.awayTeam.map(TeamPage.path(of:)))
        }
        return render(
            "results",
            Page(
                lang: words.language.code, title: words(.resultsTitle), inSync: view.inSync, text: ScreenWords.Results(words),
                schedule: schedule, groups: groups, brackets: brackets(view, words: words),
                picker: LanguagePicker.picker(words, back: "/results")))
    }

    /// The page's template applied to `page`.
    static func render(_ template: String, _ page: Any) -> String {
        guard let html = templates.render(page, withTemplate: template) else {
            preconditionFailure("no template named \(template)")
        }
        return html
    }

    /// Every template, by its file's name without `.mustache`; a page names its frame and its
    /// parts by these names (`{{<page}}`, `{{>play}}`).
    static let templates: MustacheLibrary = {
        let files: [String: [UInt8]] = [
            "page": PackageResources.page_mustache, "all-games": PackageResources.all_games_mustache,
            "court": PackageResources.court_mustache, "court-team": PackageResources.court_team_mustache,
            "play": PackageResources.play_mustache, "overlay": PackageResources.overlay_mustache,
            "box": PackageResources.box_mustache, "box-team": PackageResources.box_team_mustache,
            "results": PackageResources.results_mustache, "join-sheet": PackageResources.join_sheet_mustache,
            "join": PackageResources.join_mustache, "keeper": PackageResources.keeper_mustache,
            "desk-login": PackageResources.desk_login_mustache, "desk": PackageResources.desk_mustache,
            "desk-confirm": PackageResources.desk_confirm_mustache, "desk-audit": PackageResources.desk_audit_mustache,
            "desk-codes": PackageResources.desk_codes_mustache, "desk-teams": PackageResources.desk_teams_mustache,
            "desk-schedule": PackageResources.desk_schedule_mustache, "team": PackageResources.team_mustache,
            "teams": PackageResources.teams_mustache, "team-sheet": PackageResources.team_sheet_mustache,
            "bracket": PackageResources.bracket_mustache, "desk-setup": PackageResources.desk_setup_mustache,
            "desk-setup-field": PackageResources.desk_setup_field_mustache,
            "desk-setup-preview": PackageResources.desk_setup_preview_mustache,
            "desk-setup-done": PackageResources.desk_setup_done_mustache,
            "language-picker": PackageResources.language_picker_mustache,
        ]
        do {
            return MustacheLibrary(
                templates: try files.mapValues { try MustacheTemplate(string: String(decoding: $0, as: UTF8.self)) })
        } catch {
            // The templates are part of the executable: one that does not parse is a build defect.
            preconditionFailure("a page template does not parse: \(error)")
        }
    }()

    /// The style sheet every page links, as written in `Resources/static/style.css`.
    static let style = PackageResources.style_css

    /// The language picker's style, as written in `Resources/static/language.css`.
    static let languageStyle = PackageResources.language_css

    /// The script every page runs, as written in `Resources/static/app.js`.
    static let script = PackageResources.app_js

    /// The running clock every page ticks, as written in `Resources/static/clock.js`.
    static let clockScript = PackageResources.clock_js
}
