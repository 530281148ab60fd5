public import CourtsideLocalization
public import CourtsideModel
import Foundation

/// One team's own page, for a phone: its name (and its division's where there are several),
/// its pool's table with its own row marked, its games with their results, and its next game.
/// Every word the page shows is here; `courtside-web`'s `team.mustache` only binds it.
public struct TeamPage: Hashable, Sendable, Encodable {
    /// One row of a pool's table.
    public struct PoolRow: Hashable, Sendable, Encodable {
        public var rank: Int
        public var team: TeamID
        public var name: String
        /// The team's page.
        public var path: String
        public var played: Int
        public var won: Int
        public var lost: Int
        public var pointsFor: Int
        public var pointsAgainst: Int
        /// "+3", "0", "-5".
        public var difference: String
        /// The page's own team: its row is marked.
        public var isTeam: Bool
    }

    /// A pool (group) the team plays in, with its table best first.
    public struct Pool: Hashable, Sendable, Encodable {
        /// "Group A", or "Group A (final)" once every game of it is decided.
        public var title: String
        public var rows: [PoolRow]
    }

    /// One of the team's games.
    public struct GameLine: Hashable, Sendable, Encodable {
        public var game: GameID
        /// The game's own page (its court's TV).
        public var path: String
        /// The round, else the group's name, else "".
        public var round: String
        public var court: String?
        /// The schedule's start, as the organiser wrote it ("10:50").
        public var start: String?
        /// "v Tigers", or the slot still open ("v winner of g1").
        public var opponent: String
        /// The opponent's page, once the opponent is known.
        public var opponentPath: String?
        /// "15 - 12", this team's points first, once the game has started.
        public var score: String?
        /// "W", "L", "LIVE", "" (still to play) or "–" (decided with no winner).
        public var outcome: String
        /// "won", "lost", "live", "to play", "waiting for its teams" or "no result".
        public var outcomeText: String
        public var isWin: Bool
        public var isLoss: Bool
        public var isLive: Bool
        public var isFinished: Bool
    }

    /// The game the team plays now or next: the first of its games, by start, not yet final.
    public struct NextGame: Hashable, Sendable, Encodable {
        public var game: GameID
        public var path: String
        /// "Playing now" while it is under way, else "Next game".
        public var heading: String
        public var opponent: String
        public var opponentPath: String?
        /// The court, or "court to be announced".
        public var court: String
        /// When the game is expected to start ("10:58"): its estimate as the day slips
        /// (``DayEstimates``), else the schedule's time; nil when the schedule gives none.
        public var expectedStart: String?
        /// "8 min late: scheduled 10:50", when the estimate is later than the schedule.
        public var delayText: String?
        /// "time to be announced", shown when ``expectedStart`` is nil.
        public var noTimeText: String
        /// The score so far while it is under way.
        public var score: String?
        public var isLive: Bool
        /// The link to the game's own page: "Follow the game".
        public var followText: String
    }

    public var team: TeamID
    public var name: String
    /// The division's name where the tournament has more than one, else nil.
    public var division: String?
    /// The page's title: "Lions · Courtside".
    public var title: String
    public var pools: [Pool]
    /// The team's games by start: those without a time last, in the schedule's order.
    public var games: [GameLine]
    public var next: NextGame?
    /// What the page says where it has no next game: "No games scheduled yet." or "No more games to play."
    public var noNextText: String
    public var hasGames: Bool
    // The page's fixed words.
    public var poolHeading: String
    public var gamesHeading: String
    public var allTeamsText: String
    public var columns: Columns
    /// The page's language: what `<html lang>` says.
    public var lang: String

    /// The pool table's and game list's column headings.
    public struct Columns: Hashable, Sendable, Encodable {
        public var rank: String
        public var team: String
        public var played: String
        public var won: String
        public var lost: String
        public var pointsFor: String
        public var pointsAgainst: String
        public var difference: String

        /// A standings table's headings in `words`' language: the results page's too.
        public init(_ words: Words = .english) {
            (rank, team, played, won) = (words(.tableRank), words(.tableTeam), words(.tablePlayed), words(.tableWon))
            (lost, pointsFor) = (words(.tableLost), words(.tablePointsFor))
            (pointsAgainst, difference) = (words(.tablePointsAgainst), words(.tableDifference))
        }
    }

    /// The page of `team`, or nil when the tournament has no such team: `teams` (the tournament
    /// as it stands), the games, the standings and the bracket name none.
    ///
    /// `bracket` is the schedule as the display last received it: each entry is brought up to
    /// `games` (``BracketEntry/following(_:)``), so scores follow every basket. Every word in
    /// `words`' language.
    public init?(
        team: TeamID, teams: [Team] = [], divisions: [Division] = [], games: [GameID: Game], bracket: [BracketEntry],
        standings: [GroupStandings], estimates: DayEstimates? = nil, words: Words = .english
    ) {
        let names = Self.names(teams: teams, games: games, standings: standings)
        let entries = Self.entries(of: team, games: games, bracket: bracket)
        guard let name = names[team] ?? (entries.isEmpty ? nil : team.rawValue) else { return nil }
        self.team = team
        self.name = name
        title = words(.teamTitle, ["team": name])
        (poolHeading, gamesHeading, allTeamsText) = (words(.teamPool), words(.teamGames), words(.teamAll))
        (columns, lang) = (Columns(words), words.language.code)
        let divisionID =
            divisions.first { $0.teams.contains(team) }?.id ?? standings.first { $0.rows.contains { $0.team == team } }?.division
            ?? entries.lazy.compactMap(\.division).first
        division = TournamentTables.divisionLabel(
            divisionID, Dictionary(divisions.map { ($0.id, $0.name) }) { first, _ in first })
        pools = standings.filter { $0.rows.contains { $0.team == team } }.map { table in
            Pool(
                title: table.complete ? words(.tableFinal, ["group": table.name]) : table.name,
                rows: table.rows.map { row in
                    PoolRow(
                        rank: row.rank, team: row.team, name: row.name, path: Self.path(of: row.team), played: row.played,
                        won: row.won, lost: row.lost, pointsFor: row.pointsFor, pointsAgainst: row.pointsAgainst,
                        difference: row.difference > 0 ? "+\(row.difference)" : "\(row.difference)", isTeam: row.team == team)
                })
        }
        let groupNames = Dictionary(standings.map { ($0.group, $0.name) }) { first, _ in first }
        self.games = entries.map { entry in
            let home = entry.homeTeam == team
            let (other, otherSlot) = home ? (entry.awayTeam, entry.away) : (entry.homeTeam, entry.home)
            let score = entry.score.map { home ? "\($0.home) - \($0.away)" : "\($0.away) - \($0.home)" }
            let won = entry.state == .final && entry.winner == team
            let lost = entry.state == .final && entry.winner != nil && entry.winner != team
            let (outcome, outcomeText): (String, String) =
                switch entry.state {
                case .final:
                    won
                        ? (words(.teamOutcomeWin), words(.teamWon))
                        : lost ? (words(.teamOutcomeLoss), words(.teamLost)) : ("–", words(.teamNoResult))
                // The game's own word ("IN PLAY", "PAUSED", ...), as every other screen says it.
                case .live:
                    (words(.teamOutcomeLive), GameViewModel.scheduleText(games[entry.game], teamsKnown: true, words: words))
                case .ready: ("", words(.teamToPlay))
                case .pending: ("", words(.courtWaiting))
                }
            return GameLine(
                game: entry.game, path: "/games/\(Self.escaped(entry.game.rawValue))",
                round: entry.round ?? entry.group.map { groupNames[$0] ?? $0 } ?? "",
                court: games[entry.game]?.setup.court ?? entry.court, start: entry.start,
                opponent: words(
                    .teamOpponent,
                    [
                        "team": other.map { names[$0] ?? $0.rawValue }
                            ?? BracketPicture.words(otherSlot, teamNames: names, division: entry.division, words: words)
                    ]),
                opponentPath: other.map(Self.path(of:)), score: score, outcome: outcome, outcomeText: outcomeText, isWin: won,
                isLoss: lost, isLive: entry.state == .live, isFinished: entry.state == .final)
        }
        hasGames = !self.games.isEmpty
        next = self.games.first { !$0.isFinished }.map { line in
            let estimate = line.isLive ? nil : estimates?.estimates[line.game]
            return NextGame(
                game: line.game, path: line.path, heading: words(line.isLive ? .teamPlayingNow : .teamNextGame),
                opponent: line.opponent, opponentPath: line.opponentPath, court: line.court ?? words(.teamCourtUnknown),
                expectedStart: estimate?.time ?? line.start,
                delayText: estimate.flatMap { estimate in
                    estimate.minutesLate > 0
                        ? words.plural(.teamLate, count: estimate.minutesLate, ["time": line.start ?? ""]) : nil
                }, noTimeText: words(.teamTimeUnknown), score: line.isLive ? line.score : nil, isLive: line.isLive,
                followText: words(.teamFollow))
        }
        noNextText = words(self.games.isEmpty ? .teamNoGames : .teamNoMore)
    }

    /// The team's games, as the schedule and the games hold them, sorted by start (those with
    /// no time last), then in the schedule's order; games outside the schedule after it, by id.
    static func entries(of team: TeamID, games: [GameID: Game], bracket: [BracketEntry]) -> [BracketEntry] {
        var found = bracket.map { $0.following(games[$0.game]) }.filter { $0.homeTeam == team || $0.awayTeam == team }
        let scheduled = Set(bracket.map(\.game))
        for id in games.keys.sorted() where !scheduled.contains(id) {
            guard let game = games[id], game.setup.home.id == team || game.setup.away.id == team else { continue }
            let unscheduled = BracketEntry(
                game: id, round: nil, group: nil, court: game.setup.court, start: nil, home: .team(game.setup.home.id),
                away: .team(game.setup.away.id), homeTeam: nil, awayTeam: nil, state: .ready, score: nil, winner: nil)
            found.append(unscheduled.following(game))
        }
        let minutes = { (entry: BracketEntry) in entry.start.flatMap(TextRule.time).map { $0.hour * 60 + $0.minute } ?? .max }
        return found.enumerated().sorted { a, b in
            let (first, second) = (minutes(a.element), minutes(b.element))
            return first != second ? first < second : a.offset < b.offset
        }.map(\.element)
    }

    /// Every team's name: the tournament's own first, then as the standings and games name it.
    public static func names(teams: [Team], games: [GameID: Game], standings: [GroupStandings]) -> [TeamID: String] {
        var names: [TeamID: String] = [:]
        for team in teams where names[team.id] == nil { names[team.id] = team.name }
        for row in standings.lazy.flatMap(\.rows) where names[row.team] == nil { names[row.team] = row.name }
        for id in games.keys.sorted() {
            guard let setup = games[id]?.setup else { continue }
            for team in [setup.home, setup.away] where names[team.id] == nil { names[team.id] = team.name }
        }
        return names
    }

    /// A team's page: `/teams/ID`.
    public static func path(of team: TeamID) -> String { "/teams/\(escaped(team.rawValue))" }

    /// An id as one segment of a path.
    static func escaped(_ id: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;")
        return id.addingPercentEncoding(withAllowedCharacters: allowed) ?? id
    }
}
