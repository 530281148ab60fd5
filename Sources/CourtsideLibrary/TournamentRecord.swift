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
    /// The changes the seed in force disagrees with: kept over it, or not applied.
    var conflicts: [LaidChange] = []

    /// The record of the stream's events, as read from the log.
    init(stream events: [GameEvent]) {
        changes = events.compactMap { event in
            if case .tournamentChanged(let change, _) = event.kind { return change }
            return nil
        }
        version = events.last?.version ?? 0
    }
}
