import CourtsideModel

/// Fitting games to courts and times: pure, so the same games and venue always give the same plan.
///
/// ## The method: a heuristic in pure Swift, with its figures beside a lower bound
///
/// ``plan(_:venue:effort:)`` is list scheduling with critical-path priorities, then local
/// improvement, rather than a MILP solver (CBC or GLPK through a system-library target):
/// - A single day is small (at most a few hundred games) and the constraints are of one shape
///   (a court holds one game a slot; a team rests between games; a game waits for the games
///   that feed it), which a serial schedule builder meets by construction: every plan it
///   returns holds them, with no tolerance to tune and nothing to round.
/// - Speed and predictability: 128 teams on 16 courts (256 games) plan in well under the 2 s
///   goal, the same input always giving the same plan; a time-indexed MILP of that size has
///   ~100 000 binaries and its time to a good answer varies from run to run.
/// - No new package on the machines that build and run Courtside, and no C library's
///   thread-safety to wrap: CI installs nothing more.
/// - The figures keep the heuristic honest: every plan reports the day's end beside a lower
///   bound no plan can beat (``PlanFigures/lowerBound``), so a poor plan shows.
///
/// The steps:
/// 1. Each game's *tail*, the longest chain of dependent games (with rests) from its start to
///    the end of the day, is its priority; a game's place in its division breaks ties, so that
///    divisions take turns on shared courts.
/// 2. A serial builder takes the games in that order and puts each at the earliest start any
///    court offers it: in the court's hours, a slot (game plus changeover) from the court's
///    other games, a game plus a rest after every game it waits for, and a game plus a rest from
///    every game it may share a team with. Among courts offering the same start it takes the one
///    the game's teams have played on least.
/// 3. Forward-backward improvement: the plan is rebuilt with every game as late as the games
///    after it allow (latest first), then as early as the games before it allow (earliest first),
///    for as long as that helps; it closes the gaps the first pass left.
/// 4. Restarts: the tails again with each division's chains stretched to the longest
///    division's (so a shorter division's pools rank with the longer one's rather than after
///    them), then both shaken (seeded, so plans are reproducible). The best plan is kept: the
///    earliest end, then every division under way soonest, the shortest longest wait, the most
///    even waits, the best spread over the courts.
/// 5. Games trade courts (keeping their starts) while that puts teams on courts they have not
///    played on yet.
///
/// Teams the results fill are unknown when the plan is made. A game waits for every game its
/// slots name (and for every game of the groups whose ranks it takes), plus a rest, since its teams
/// come from them. Two games neither of which waits for the other are kept apart only when they
/// may share a team: both name it, or a placeholder of one may turn out to be a team the other
/// has (a winner, say, whose game had a team that also plays elsewhere). The two results of a
/// game (or two ranks of a group) are never the same team, so A1 v B2 and B1 v A2, or a final
/// and the game for third place, may be played at once.
public enum Planning {
    /// How hard the search tries: restarts with shaken priorities, each improved.
    public struct Effort: Hashable, Sendable {
        /// Attempts after the first.
        public var restarts: Int
        /// The seed of the shaking: the same seed, the same plan.
        public var seed: UInt64

        public init(restarts: Int, seed: UInt64 = 38) {
            self.restarts = restarts
            self.seed = seed
        }

        /// What ``plan(_:venue:effort:)`` does unless told otherwise.
        public static let standard = Effort(restarts: 24)
        /// One attempt and a few restarts: for tests, and for trying many venues.
        public static let quick = Effort(restarts: 2)
    }

    /// A court and a start for every game, or why they do not fit.
    ///
    /// Every game starts in its court's hours and ends by the day's end, one game a slot on each
    /// court; no team plays twice at once or without its rest; a game starts a rest after every
    /// game that feeds it has ended. Throws ``PlanningError/Code/invalidVenue`` or
    /// ``PlanningError/Code/invalidGames`` for unusable input, and
    /// ``PlanningError/Code/doesNotFit`` with the courts or the time the games need when they
    /// cannot end by the day's end.
    public static func plan(_ games: [GameToPlace], venue: Venue, effort: Effort = .standard) throws(PlanningError)
        -> Plan
    {
        if let problem = venue.problem() { throw PlanningError(.invalidVenue, problem) }
        let problem = try Problem(games: games, venue: venue)
        let windows = venue.windows(relaxed: true)
        let bounds = problem.bounds(windows: windows, start: venue.start.minutes)
        let found =
            bounds.combined >= Window.open
            ? nil
            : problem.search(
                windows: windows, release: venue.start.minutes, effort: effort)
        guard let (timetable, measures) = found, measures.end <= venue.end.minutes else {
            throw shortfall(problem, venue: venue, endWithCourtsGiven: found?.1.end)
        }
        let placements = games.indices.map { game in
            let start = timetable.starts[game]
            return Plan.Placement(
                game: games[game].id, court: venue.courts[timetable.courts[game]].name, start: TimeOfDay(minutes: start),
                end: TimeOfDay(minutes: start + problem.length))
        }
        let figures = PlanFigures(
            start: venue.start, end: TimeOfDay(minutes: max(measures.end, venue.start.minutes)),
            lowerBound: TimeOfDay(minutes: bounds.combined), capacityBound: TimeOfDay(minutes: bounds.capacity),
            chainBound: TimeOfDay(minutes: bounds.chain), longestWait: measures.longestWait,
            medianLongestWait: measures.medianLongestWait, smallestRest: measures.smallestRest,
            mostGamesOnOneCourt: measures.mostGamesOnOneCourt, courtRepeats: measures.courtRepeats,
            divisionEnds: measures.divisionEnds.mapValues { TimeOfDay(minutes: $0) })
        return Plan(placements: placements, figures: figures)
    }

    /// The error for games that do not fit by the day's end: how many courts available all day
    /// they need, and when they would end on the courts given.
    private static func shortfall(_ problem: Problem, venue: Venue, endWithCourtsGiven: Int?) -> PlanningError {
        let windows = venue.windows(relaxed: true)
        let day = Window(from: venue.start.minutes, until: Window.open)
        func fits(_ extra: Int) -> Bool {
            let more = windows + Array(repeating: [day], count: extra)
            guard problem.bounds(windows: more, start: venue.start.minutes).combined <= venue.end.minutes else { return false }
            guard let (_, measures) = problem.search(windows: more, release: venue.start.minutes, effort: .quick) else {
                return false
            }
            return measures.end <= venue.end.minutes
        }
        // Double the extra courts until the games fit (a court a game is as many as can help),
        // then halve the range between the last that did not and the first that did.
        var enough: Int?
        var tooFew = 0
        var extra = 1
        while enough == nil, extra <= max(1, problem.count) {
            if fits(extra) { enough = extra } else { tooFew = extra }
            extra *= 2
        }
        if var high = enough {
            while high - tooFew > 1 {
                let middle = (tooFew + high) / 2
                if fits(middle) { high = middle } else { tooFew = middle }
            }
            enough = high
        }
        let courtsNeeded = enough.map { venue.courts.count + $0 }
        let end = endWithCourtsGiven.map { TimeOfDay(minutes: $0) }
        let courts = venue.courts.count == 1 ? "1 court" : "\(venue.courts.count) courts"
        let games = problem.count == 1 ? "1 game does" : "\(problem.count) games do"
        var message = "\(games) not fit on \(courts) by \(venue.end): "
        switch (courtsNeeded, end) {
        case (let needed?, let end?): message += "needs \(needed) courts, or until \(end)"
        case (let needed?, nil):
            message += "needs \(needed) courts (the courts' closing hours leave no room for every game, however long the day)"
        case (nil, let end?):
            let chain = TimeOfDay(minutes: problem.bounds(windows: windows + [[day]], start: venue.start.minutes).chain)
            message += "needs until \(end); more courts cannot help, "
            message +=
                chain > venue.end
                ? "the longest chain of dependent games alone ends at \(chain)"
                : "the teams' games and rests alone take too long"
        case (nil, nil):
            message += "the courts' closing hours leave no room for every game, and no number of courts fits them by then"
        }
        return PlanningError(.doesNotFit, message, courtsNeeded: courtsNeeded, endWithCourtsGiven: end)
    }
}
