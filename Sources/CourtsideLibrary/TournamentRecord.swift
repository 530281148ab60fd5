public import CourtsideModel

/// The log's tournament stream as the library holds it: the organiser's changes to teams and
/// the schedule, in log order, over the config's schedule (the seed).
///
/// The config file seeds the tournament; these changes, laid over it in order, decide it.
struct TournamentRecord: Sendable {
    /// The config's schedule, as last given to ``GameLibrary/useSchedule(_:)``.
    var seed: Schedule?
    var changes: [TournamentChange] = []
    /// The stream's last version: 0 before its first change.
    var version = 0
    /// The sequence of the stream's last change known committed: 0 before its first.
    var sequence: Int64 = 0
    /// The changes the seed in force disagrees with: kept over it, or not applied.
    var conflicts: [LaidChange] = []
    /// The games a published draw took out of the schedule: those that exist and have not
    /// started are ended with no result. A game the config file drops is not among them: a file
    /// is edited by hand, and a slip in it must not end games.
    var dropped: Set<GameID> = []

    /// The record of the stream's events, as read from the log.
    init(stream events: [GameEvent]) {
        changes = events.compactMap { event in
            if case .tournamentChanged(let change, _) = event.kind { return change }
            return nil
        }
        version = events.last?.version ?? 0
        sequence = events.last?.sequence ?? 0
    }

    /// The games of `before` that `after` no longer schedules.
    static func dropped(from before: Schedule, to after: Schedule) -> Set<GameID> {
        Set(before.games.map(\.id)).subtracting(after.games.map(\.id))
    }

    /// The games the log's draws dropped, its changes laid one by one over `seed`.
    static func dropped(by changes: [TournamentChange], over seed: Schedule) -> Set<GameID> {
        guard changes.contains(where: { if case .drawPublished = $0 { true } else { false } }) else { return [] }
        var schedule = seed
        var dropped = Set<GameID>()
        for change in changes {
            let next = schedule.laying([change]).schedule
            if case .drawPublished = change { dropped.formUnion(Self.dropped(from: schedule, to: next)) }
            schedule = next
        }
        return dropped
    }
}
