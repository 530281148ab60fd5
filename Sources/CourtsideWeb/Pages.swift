import CourtsideModel
import CourtsideProtocol
import Foundation
import Mustache

/// The pages screens show: server-rendered HTML that the page's own script keeps live from
/// `/api/events`. The templates (`Resources/templates`), the style sheet and the script
/// (`Resources/static`) are embedded in the executable at build time: a venue's network may have
/// no internet, so there is no CDN, and nothing is read from disk at run time.
///
/// Each page renders a plain struct of ready-made values (swift-mustache reads stored
/// properties by reflection), and the templates escape every value.
enum Pages {
    /// Every game at once, for a big screen.
    static func allGames(_ view: LiveTournament.View) -> String {
        struct Row {
            var game: String
            var court: String
            var home: String
            var score: String
            var away: String
            var clock: String
            var status: String
        }
        struct Page {
            var title = "Courtside: every game"
            var kind = "all"
            var game = ""
            var inSync: Bool
            var rows: [Row]
        }
        let rows = view.summaries.map { game in
            Row(
                game: game.game.rawValue, court: game.court ?? "", home: game.home.name,
                score: "\(game.state.score.home) - \(game.state.score.away)", away: game.away.name,
                clock: clock(game.state.clock.accumulated), status: status(game))
        }
        return render("all-games", Page(inSync: view.inSync, rows: rows))
    }

    /// One team on a court's TV. Without its game yet (a bracket slot), the fields wait empty
    /// for its game_created.
    struct CourtTeam {
        var side: String
        var name = "…"
        var score = "–"
        var tier = ""
        var fouls = ""
        var tierText = ""
        var nextText = ""
        var timeoutsLabel = "time-outs"
        var timeouts = ""
        var timeoutPips = ""

        init(_ game: Game?, _ side: Side) {
            self.side = side.rawValue
            guard let game else { return }
            let board = CourtSideBoard(game, side)
            name = game.setup.team(side).name
            score = String(game.score[side])
            tier = board.tier?.rawValue ?? ""
            fouls = String(board.fouls)
            (tierText, nextText) = (board.tierText, board.nextText)
            (timeoutsLabel, timeouts, timeoutPips) = (board.timeoutsLabel, String(board.timeouts), board.timeoutPips)
        }
    }

    /// One line of a court's last plays, newest first.
    struct PlayLine {
        var side: String
        var undone: Bool
        var version: Int
        var who: String
        var team: String
        var what: String

        init(_ game: Game, _ play: Play) {
            let team = game.setup.team(play.side)
            side = play.side.rawValue
            undone = play.retractedBy != nil
            version = play.version
            who = team.players.first { $0.id == play.player }?.name ?? play.player.rawValue
            self.team = team.name
            what = play.moveText
        }
    }

    /// One court's TV: huge digits, readable from across a gym; each team's fouls against the
    /// rules' tiers and its time-outs left; the last plays, those before the page opened too.
    static func court(_ view: LiveTournament.View, game id: GameID) -> String {
        struct Page {
            var title: String
            var kind = "court"
            var game: String
            var inSync: Bool
            var home: CourtTeam
            var away: CourtTeam
            var clock: String
            var status: String
            var keep = CourtGame.recentPlays
            var plays: [PlayLine]
        }
        let game = view.games[id]
        let now = Timestamp(milliseconds: view.daemonNow)
        let plays = game.map { game in game.plays.suffix(CourtGame.recentPlays).reversed().map { PlayLine(game, $0) } } ?? []
        return render(
            "court",
            Page(
                title: "Courtside: \(id.rawValue)", game: id.rawValue, inSync: view.inSync, home: CourtTeam(game, .home),
                away: CourtTeam(game, .away), clock: game.map { clock($0.clock.elapsed(at: now)) } ?? "",
                status: game.map { status(GameSummary($0)) } ?? "waiting for its teams", plays: plays))
    }

    /// A compact score bug on a transparent background, for a stream's browser source.
    static func overlay(_ view: LiveTournament.View, game id: GameID) -> String {
        struct Page {
            var title: String
            var kind = "overlay"
            var game: String
            var inSync: Bool
            var homeName = "…"
            var homeScore = "–"
            var clock = ""
            var awayScore = "–"
            var awayName = "…"
        }
        var page = Page(title: "Courtside overlay: \(id.rawValue)", game: id.rawValue, inSync: view.inSync)
        if let summary = view.games[id].map(GameSummary.init) {
            (page.homeName, page.awayName) = (summary.home.name, summary.away.name)
            (page.homeScore, page.awayScore) = (String(summary.state.score.home), String(summary.state.score.away))
            page.clock = clock(summary.state.clock.accumulated)
        }
        return render("overlay", page)
    }

    /// The box score: every player's counts, refreshed whenever the game changes.
    static func box(_ view: LiveTournament.View, game id: GameID) -> String {
        struct PlayerRow {
            var name: String
            var onePoint: Int
            var twoPoints: Int
            var freeThrow: Int
            var assist: Int
            var rebound: Int
            var foul: Int
            var points: Int
        }
        struct TeamTable {
            var name: String
            var score: Int
            var players: [PlayerRow]
        }
        struct Page {
            var title: String
            var kind = "box"
            var game: String
            var inSync: Bool
            var found: Bool
            var teams: [TeamTable] = []
        }
        var page = Page(title: "Courtside: \(id.rawValue)", game: id.rawValue, inSync: view.inSync, found: false)
        if let game = view.games[id] {
            page.title = "Courtside: box score \(id.rawValue)"
            page.found = true
            page.teams = Side.allCases.map { side in
                let team = game.setup.team(side)
                let players = team.players.map { player in
                    let c = game.counts[player.id] ?? MoveCounts()
                    return PlayerRow(
                        name: player.name, onePoint: c.onePoint, twoPoints: c.twoPoints, freeThrow: c.freeThrow,
                        assist: c.assist, rebound: c.rebound, foul: c.foul, points: c.points)
                }
                return TeamTable(name: team.name, score: game.score[side], players: players)
            }
        }
        return render("box", page)
    }

    /// Schedule, standings and bracket, refreshed whenever they change.
    static func results(_ view: LiveTournament.View) -> String {
        struct ScheduleRow {
            var game: String
            var round: String
            var court: String
            var start: String
            var home: String
            var score: String
            var away: String
            var state: String
        }
        struct StandingLine {
            var rank: Int
            var name: String
            var played: Int
            var won: Int
            var lost: Int
            var pointsFor: Int
            var pointsAgainst: Int
            var difference: Int
        }
        struct Group {
            var name: String
            var complete: Bool
            var rows: [StandingLine]
        }
        struct Page {
            var title = "Courtside: results"
            var kind = "results"
            var game = ""
            var inSync: Bool
            var schedule: [ScheduleRow]
            var groups: [Group]
        }
        let groups = view.standings.map { group in
            Group(
                name: group.name, complete: group.complete,
                rows: group.rows.map {
                    StandingLine(
                        rank: $0.rank, name: $0.name, played: $0.played, won: $0.won, lost: $0.lost, pointsFor: $0.pointsFor,
                        pointsAgainst: $0.pointsAgainst, difference: $0.difference)
                })
        }
        let name = { (id: TeamID?) in
            id.flatMap { team in view.games.values.lazy.flatMap { [$0.setup.home, $0.setup.away] }.first { $0.id == team }?.name }
        }
        let schedule = view.schedule.map { entry in
            ScheduleRow(
                game: entry.game.rawValue, round: entry.round ?? entry.group ?? "", court: entry.court ?? "",
                start: entry.start ?? "", home: name(entry.homeTeam) ?? "\(entry.home)",
                score: entry.score.map { "\($0.home) - \($0.away)" } ?? "", away: name(entry.awayTeam) ?? "\(entry.away)",
                state: entry.state.rawValue)
        }
        return render("results", Page(inSync: view.inSync, schedule: schedule, groups: groups))
    }

    /// "final: Lions wins" once decided, else the status ("running").
    static func status(_ game: GameSummary) -> String {
        let winner = game.state.winner.map { $0 == .home ? game.home.name : game.away.name }
        return winner.map { "final: \($0) wins" } ?? game.state.status.rawValue
    }

    static func clock(_ milliseconds: Int64) -> String {
        let seconds = milliseconds / 1000
        return String(format: "%02d:%02d", seconds / 60, seconds % 60)
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
            "box": PackageResources.box_mustache, "results": PackageResources.results_mustache,
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

    /// The script every page runs, as written in `Resources/static/app.js`.
    static let script = PackageResources.app_js
}
