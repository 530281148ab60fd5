public import CourtsideModel

extension Planning {
    /// What breaks the venue's rules in games that already have a court and a start (written
    /// by hand, say, or moved on the day), in words, earliest first: empty when nothing does.
    ///
    /// The rules are the planner's: a court and a start for every game, in the court's hours and
    /// the day; a slot between games on a court; a rest after every game that feeds a game; no
    /// team twice at once or without its rest, counting every team a result may bring.
    public static func problems(in games: [ScheduledGame], venue: Venue) throws(PlanningError) -> [String] {
        if let problem = venue.problem() { throw PlanningError(.invalidVenue, problem) }
        let problem = try Problem(games: games.map { GameToPlace($0) }, venue: venue)
        let windows = venue.windows(relaxed: false)
        let length = problem.length
        var found: [(at: Int, text: String)] = []
        var starts: [Int?] = []
        var courts: [Int?] = []
        for game in games {
            let start = game.start.flatMap(TimeOfDay.init)?.minutes
            let court = game.court.flatMap { name in venue.courts.firstIndex { $0.name == name } }
            starts.append(start)
            courts.append(court)
            if game.start == nil {
                found.append((-1, "game \(game.id) has no start"))
            } else if start == nil {
                found.append((-1, "game \(game.id): its start is not a time of day"))
            }
            if game.court == nil {
                found.append((-1, "game \(game.id) has no court"))
            } else if court == nil {
                found.append((-1, "game \(game.id) is on \(game.court ?? ""), which is not one of the venue's courts"))
            }
            guard let start, let court else { continue }
            if !windows[court].contains(where: { $0.from <= start && start + length <= $0.until }) {
                found.append(
                    (start, "game \(game.id) at \(TimeOfDay(minutes: start)) is outside the hours of \(venue.courts[court].name)")
                )
            }
        }
        func clock(_ minutes: Int) -> TimeOfDay { TimeOfDay(minutes: minutes) }
        for (court, name) in venue.courts.map(\.name).enumerated() {
            let onCourt = games.indices.filter { courts[$0] == court && starts[$0] != nil }.sorted {
                (starts[$0] ?? 0, $0) < (starts[$1] ?? 0, $1)
            }
            for (first, second) in zip(onCourt, onCourt.dropFirst()) {
                guard let early = starts[first], let late = starts[second], late - early < problem.slot else { continue }
                found.append(
                    (
                        late,
                        "games \(games[first].id) and \(games[second].id) on \(name) start at \(clock(early)) and \(clock(late)), less than a slot apart"
                    ))
            }
        }
        for game in games.indices {
            guard let start = starts[game] else { continue }
            for other in problem.before[game] {
                guard let fed = starts[other], start < fed + length + problem.rest else { continue }
                found.append(
                    (
                        start,
                        "game \(games[game].id) starts at \(clock(start)), \(fed + length + problem.rest - start) minutes before the rest after \(games[other].id), which feeds it, ends"
                    ))
            }
            for other in problem.conflicts[game] where other > game {
                guard let theirs = starts[other] else { continue }
                let (first, second) = theirs < start ? (other, game) : (game, other)
                guard let early = starts[first], let late = starts[second], late < early + length + problem.rest else { continue }
                let named = Set(problem.teams[first]).intersection(problem.teams[second]).sorted()
                let who = named.isEmpty ? "a team the results may bring" : "team \(problem.teamIDs[named[0]])"
                let plays = "\(who) plays \(games[first].id) at \(clock(early)) and \(games[second].id) at \(clock(late))"
                let gap = late - early - length
                found.append(
                    (late, plays + (gap < 0 ? ", at once" : ", with \(gap) minutes between them where \(problem.rest) are due")))
            }
        }
        return found.sorted { ($0.at, $0.text) < ($1.at, $1.text) }.map(\.text)
    }
}
