import CourtsideModel
import CourtsideViewModels
import Foundation

/// Each court's lineup and "now" (``CourtNow``) from what the gateway holds: what the desk lists
/// per court, and the line the big screen and a court's TV show ("next on Court 2: Bears v
/// Wolves, about 10:50"). Computed here once, on the server; the pages' script only binds it.
extension LiveTournament.View {
    /// Every court the schedule and the games (by id) name, in order of first appearance.
    var courts: [String] {
        (bracket.compactMap(\.court) + games.keys.sorted().compactMap { games[$0]?.setup.court }).reduce(into: [String]()) {
            if !$0.contains($1) { $0.append($1) }
        }
    }

    /// Every court's games in playing order (``CourtLineup``), in the order of ``courts``.
    var lineups: [CourtLineup] { courts.map { CourtLineup(court: $0, bracket: bracket, games: games) } }

    /// The court that `game` is on: its own setup's, or the schedule's for a game not created yet.
    func court(of game: GameID) -> String? {
        games[game]?.setup.court ?? bracket.first { $0.game == game }?.court
    }

    /// What `lineup`'s court is doing at `now` (the daemon's time now when nil). The schedule's
    /// times are the venue's: `calendar` is this machine's, whose time zone is the venue's.
    func courtNow(_ lineup: CourtLineup, at now: Date? = nil, calendar: Calendar = .current) -> CourtNow {
        let now = now ?? daemonDate
        return CourtNow(
            lineup: lineup, games: games, now: now, calendar: calendar, estimates: estimates(at: now, calendar: calendar))
    }

    /// Every court's ``CourtNow``, in the order of ``courts``.
    func courtsNow(at now: Date? = nil, calendar: Calendar = .current) -> [CourtNow] {
        let now = now ?? daemonDate
        // The lineups once: each walks the whole schedule, and the estimates' titles read them too.
        let lineups = self.lineups
        let estimates = estimates(at: now, calendar: calendar, lineups: lineups)
        return lineups.map { CourtNow(lineup: $0, games: games, now: now, calendar: calendar, estimates: estimates) }
    }

    /// When each game still to play can be expected to start (``DayEstimates``), at `now`;
    /// `lineups` name the games of a suggestion (``lineups`` when nil).
    func estimates(at now: Date? = nil, calendar: Calendar = .current, lineups: [CourtLineup]? = nil) -> DayEstimates {
        let titles = Dictionary(
            (lineups ?? self.lineups).flatMap(\.entries).map { ($0.game, $0.title) }, uniquingKeysWith: { first, _ in first })
        return DayEstimates(
            bracket: bracket, games: games, timing: timing, now: now ?? daemonDate, calendar: calendar, titles: titles)
    }

    /// The daemon's time now, as this machine's clock and the last heartbeat tell.
    var daemonDate: Date { Date(timeIntervalSince1970: Double(daemonNow) / 1000) }
}
