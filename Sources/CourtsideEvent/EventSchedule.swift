public import CourtsideModel
public import CourtsidePlanning

/// An event drawn and planned: the tournament a config file starts, and how good its day is.
public struct PlannedEvent: Hashable, Sendable {
    public var draft: EventDraft
    /// The draft's schedule with a court and a start for every game, its rounds in the order
    /// they are first played and each round's games by start, then court.
    public var schedule: Schedule
    public var figures: PlanFigures
    public var venue: Venue
}

extension EventPlanner {
    /// The venue the event describes: its courts and their hours, the day, the slot and the rest.
    public static func venue(_ event: EventDescription) throws(EventError) -> Venue {
        func time(_ text: String, _ key: String) throws(EventError) -> TimeOfDay {
            guard let time = TimeOfDay(text) else { throw invalid("\(key): \"\(text)\" is not a time of day (HH:MM)") }
            return time
        }
        var courts: [Court] = []
        for (index, court) in event.courts.enumerated() {
            if let problem = TextRule.problem(court.name, as: .line) { throw invalid("courts.\(index).name: \(problem)") }
            courts.append(
                Court(
                    court.name, from: try court.from.map { text throws(EventError) in try time(text, "courts.\(index).from") },
                    until: try court.until.map { text throws(EventError) in try time(text, "courts.\(index).until") }))
        }
        return Venue(
            courts: courts, start: try time(event.start, "start"),
            end: try event.end.map { text throws(EventError) in try time(text, "end") } ?? .endOfDay,
            gameMinutes: event.gameMinutes, changeoverMinutes: event.changeoverMinutes, restMinutes: event.restMinutes)
    }

    /// The draft's games on the venue's courts: a court and a start for each, every constraint
    /// of ``Planning/plan(_:venue:effort:)`` held. A day that cannot fit is
    /// ``CourtsideError/Code/doesNotFit`` with what it needs ("needs 5 courts, or until 18:40").
    public static func plan(_ draft: EventDraft, venue: Venue, effort: Planning.Effort = .standard) throws(EventError)
        -> PlannedEvent
    {
        let games = draft.schedule.games.map(GameToPlace.init)
        let plan: Plan
        do {
            plan = try Planning.plan(games, venue: venue, effort: effort)
        } catch {
            let problem =
                error.code == .doesNotFit
                ? EventProblem.doesNotFit(
                    games: games.count, courts: venue.courts.count, end: venue.end, courtsNeeded: error.courtsNeeded,
                    until: error.endWithCourtsGiven) : nil
            throw EventError(error.code, error.message, problem: problem)
        }
        var schedule = draft.schedule
        let placed = plan.applied(to: schedule.games)
        let startOf = Dictionary(
            plan.placements.map { ($0.game, $0.start.minutes) }, uniquingKeysWith: { first, _ in first })
        let courtOrder = Dictionary(
            venue.courts.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
        schedule.games = placed.enumerated().sorted { left, right in
            let (a, b) = (left.element, right.element)
            let (startA, startB) = (startOf[a.id] ?? 0, startOf[b.id] ?? 0)
            if startA != startB { return startA < startB }
            let (courtA, courtB) = (courtOrder[a.court ?? ""] ?? 0, courtOrder[b.court ?? ""] ?? 0)
            if courtA != courtB { return courtA < courtB }
            return left.offset < right.offset
        }.map(\.element)
        // Rounds in the order they are first played: a division's pools before its knockout,
        // and two divisions' "Round 1" as one round.
        var rounds: [String] = []
        for game in schedule.games { if let round = game.round, !rounds.contains(round) { rounds.append(round) } }
        schedule.rounds = rounds
        schedule.timing = DayTiming(
            gameMinutes: venue.gameMinutes, changeoverMinutes: venue.changeoverMinutes, restMinutes: venue.restMinutes)
        return PlannedEvent(draft: draft, schedule: schedule, figures: plan.figures, venue: venue)
    }
}
