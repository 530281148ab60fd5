public import CourtsideLocalization
public import CourtsideModel

/// A drawn and planned tournament as the desk's Setup page shows it before anything is sent:
/// each division's pools (a table per pool, in seed order) and its knockout (a
/// ``BracketPicture``), and the day as a court-by-time grid (``PlanTables/DayGrid``), every
/// cell's words made here.
public struct SetupPreview: Hashable, Sendable {
    /// A team's line in its pool's table.
    public struct PoolRow: Hashable, Sendable {
        /// "1": the team's seed in its division, or empty when it has none.
        public var seed: String
        public var team: String
        public var club: String
    }

    public struct Pool: Hashable, Sendable {
        /// The group's id, for an HTML id (`open-A`).
        public var id: String
        public var name: String
        /// The pool's teams in the order the draw dealt them (seed order).
        public var rows: [PoolRow]
    }

    public struct Division: Hashable, Sendable {
        /// The division's id, or `all` for a tournament of none.
        public var id: String
        public var name: String
        /// "16 teams, 32 games".
        public var counts: String
        public var pools: [Pool]
        /// The knockout, if the division has one.
        public var bracket: BracketPicture?
    }

    /// One cell of the grid: a game, or nothing.
    public struct Cell: Hashable, Sendable {
        /// The game's id; empty for a free slot.
        public var game: String
        /// "Harbour Hawks v Old Town Owls", or the slots' words ("A1 v B2", "winner open-sf1 v winner open-sf2").
        public var sides: String
        /// The court's name, for a screen reader reading the cell alone.
        public var court: String
        /// No game starts here then (stored: a template reads stored properties only).
        public var isFree: Bool
    }

    /// A row of the grid: a start time and a cell per court.
    public struct Row: Hashable, Sendable {
        public var start: String
        public var cells: [Cell]
    }

    public var divisions: [Division]
    /// The grid's columns.
    public var courts: [String]
    public var rows: [Row]

    /// The preview of `schedule`, a plan; `clubs` are the teams' clubs as registered; every
    /// word in `words`' language.
    public init(_ schedule: Schedule, clubs: [TeamID: String] = [:], words: Words = .english) {
        let pictures = BracketPicture.pictures(
            schedule.bracket([GameID: Game]()), teamNames: schedule.teams.mapValues(\.name),
            divisionNames: Dictionary(schedule.divisions.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first }),
            words: words)
        let divisions: [CourtsideModel.Division?] = schedule.divisions.isEmpty ? [nil] : schedule.divisions.map { $0 }
        self.divisions = divisions.map { division in
            let id = division?.id
            let pools = schedule.groups.filter { $0.division == id }.map { group in
                Pool(
                    id: group.id, name: group.name,
                    rows: group.teams.map { team in
                        PoolRow(
                            seed: schedule.seeds[team].map(String.init) ?? "", team: schedule.teams[team]?.name ?? team.rawValue,
                            club: clubs[team] ?? "")
                    })
            }
            let teams = division?.teams.count ?? schedule.teams.count
            let games = schedule.games.filter { $0.division == id }.count
            return Division(
                id: id ?? "all", name: division?.name ?? words(.deskSetupAll),
                counts: words(
                    .deskSetupDivisionCounts,
                    [
                        "teams": words.plural(.deskSetupTeamsCount, count: teams),
                        "games": words.plural(.deskSetupGamesCount, count: games),
                    ]), pools: pools,
                bracket: pictures.first { $0.division == id })
        }
        let grid = PlanTables.DayGrid(schedule)
        courts = grid.courts
        rows = grid.starts.map { start in
            Row(
                start: start,
                cells: grid.courts.map { court in
                    guard let game = grid.game(at: start, on: court) else {
                        return Cell(game: "", sides: "", court: court, isFree: true)
                    }
                    return Cell(
                        game: game.id.rawValue,
                        sides: words(
                            .gameTitle,
                            [
                                "home": PlanTables.side(game.home, schedule, words: words),
                                "away": PlanTables.side(game.away, schedule, words: words),
                            ]), court: court,
                        isFree: false)
                })
        }
    }
}
