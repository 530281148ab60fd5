import CourtsideLocalization
import CourtsideModel
import CourtsideViewModels

/// The fixed words of the public screens other than a game's (``Pages/GameWords``), in the
/// page's language: each page's template binds them as `text`, and the frame (`page.mustache`)
/// its `text.reconnecting`.
enum ScreenWords {
    /// The big screen: every game, each court's line.
    struct BigScreen {
        var reconnecting: String
        var heading: String
        var courts: String
        var columns: Columns

        init(_ words: Words) {
            (reconnecting, heading, courts) = (words(.pageReconnecting), words(.allHeading), words(.allCourts))
            columns = Columns(words)
        }
    }

    /// The headings of the screens' tables of games.
    struct Columns {
        var game: String
        var round: String
        var court: String
        var start: String
        var home: String
        var score: String
        var away: String
        var clock: String
        var status: String

        init(_ words: Words) {
            (game, round, court, start) = (words(.columnGame), words(.columnRound), words(.columnCourt), words(.columnStart))
            (home, score, away) = (words(.columnHome), words(.columnScore), words(.columnAway))
            (clock, status) = (words(.columnClock), words(.columnStatus))
        }
    }

    /// The results: the schedule's and the standings' headings.
    struct Results {
        var reconnecting: String
        var schedule: String
        var columns: Columns
        var table: TeamPage.Columns

        init(_ words: Words) {
            (reconnecting, schedule) = (words(.pageReconnecting), words(.resultsSchedule))
            (columns, table) = (Columns(words), TeamPage.Columns(words))
        }
    }

    /// The box score's headings, for each team's table (`box-team.mustache`).
    struct Box {
        var player: String
        var onePoint: String
        var twoPoints: String
        var freeThrow: String
        var assist: String
        var rebound: String
        var fouls: String
        var points: String
        var noGame: String
        /// "g1 box score".
        var heading: String

        init(_ words: Words, game: GameID) {
            heading = words(.boxHeading, ["game": game.rawValue])
            (player, onePoint, twoPoints) = (words(.boxPlayer), words(.boxOnePoint), words(.boxTwoPoints))
            (freeThrow, assist, rebound) = (words(.boxFreeThrow), words(.boxAssist), words(.boxRebound))
            (fouls, points, noGame) = (words(.boxFouls), words(.boxPoints), words(.boxNoGame))
        }
    }

    /// A frame with nothing but its own words: the team pages' (their view models word the rest).
    struct Frame {
        var reconnecting: String

        init(_ words: Words) { reconnecting = words(.pageReconnecting) }
    }
}
