public import CourtsideModel
public import CourtsidePlanning

/// A game already on the courts that a division planned alone must leave where it is: its
/// court and its start.
public struct FixedGame: Hashable, Sendable {
    public var court: String
    public var start: TimeOfDay

    public init(court: String, start: TimeOfDay) {
        self.court = court
        self.start = start
    }

}

extension EventPlanner {
    /// One division of the event drawn as the whole event would draw it (the same ids, seeds
    /// and groups), and planned into the time its courts have left around `fixed`: the other
    /// divisions' games in force, which do not move. The schedule keeps its division, so that
    /// publishing it replaces that division alone. `invalid_event` when the event has no such
    /// division; `does_not_fit` when what is left cannot hold it.
    public static func planned(
        division: String, of event: EventDescription, teams: [String: [RegisteredTeam]], seed: UInt64,
        around fixed: [FixedGame], effort: Planning.Effort = .standard
    ) throws(EventError) -> PlannedEvent {
        guard let described = event.divisions.first(where: { $0.id == division }) else {
            let known = event.divisions.map(\.id).joined(separator: ", ")
            throw invalid("the event has no division \(division) (it has \(known))")
        }
        var draft = try draw(event, teams: teams, seed: seed)
        var schedule = draft.schedule
        if schedule.divisions.isEmpty {
            // A single-division event forgets its division when drawn: name it again.
            let seeded = schedule.teams.keys.sorted { (schedule.seeds[$0] ?? .max, $0) < (schedule.seeds[$1] ?? .max, $1) }
            schedule.divisions = [
                Division(id: division, name: described.name, teams: seeded, tieBreakers: described.tieBreakers)
            ]
        }
        draft.schedule = alone(division, in: schedule)
        draft.draws = draft.draws.filter { $0.key == division }
        return try plan(draft, venue: try venue(event).around(fixed), effort: effort)
    }

    /// The schedule's one division: its teams, seeds, groups, rounds and games, still named as
    /// a division (a tournament of one would replace every division when published).
    static func alone(_ division: String, in schedule: Schedule) -> Schedule {
        guard let kept = schedule.division(division) else { return schedule }
        var alone = schedule
        let teams = Set(kept.teams)
        alone.divisions = [kept]
        alone.teams = schedule.teams.filter { teams.contains($0.key) }
        alone.seeds = schedule.seeds.filter { teams.contains($0.key) }
        alone.groups = schedule.groups.filter { $0.teams.allSatisfy(teams.contains) }
        alone.games = schedule.games.filter { $0.division == division || $0.division == nil }
        for index in alone.groups.indices { alone.groups[index].division = division }
        for index in alone.games.indices { alone.games[index].division = division }
        alone.rounds = schedule.rounds.filter { round in alone.games.contains { $0.round == round } }
        return alone
    }
}

extension Venue {
    /// The venue with each court's hours less the time the fixed games take on it: a game there
    /// from its start for a game's length and the changeover, and a changeover before it.
    public func around(_ fixed: [FixedGame]) -> Venue {
        var venue = self
        let busy = Dictionary(grouping: fixed, by: \.court)
        venue.courts = courts.compactMap { court in
            guard let games = busy[court.name] else { return court }
            var free = (court.hours.isEmpty ? [Hours()] : court.hours).map { hours in
                ((hours.from ?? start).minutes, (hours.until ?? end).minutes)
            }
            for game in games {
                let (taken, until) = (
                    game.start.minutes - changeoverMinutes, game.start.minutes + gameMinutes + changeoverMinutes
                )
                free = free.flatMap { window -> [(Int, Int)] in
                    guard taken < window.1, until > window.0 else { return [window] }
                    return [(window.0, taken), (until, window.1)].filter { $0.0 < $0.1 }
                }
            }
            // A court the fixed games fill all day is no court for this plan.
            if free.isEmpty { return nil }
            return Court(
                court.name,
                hours: free.sorted { $0.0 < $1.0 }.map {
                    Hours(from: TimeOfDay(minutes: $0.0), until: TimeOfDay(minutes: $0.1))
                })
        }
        return venue
    }
}
