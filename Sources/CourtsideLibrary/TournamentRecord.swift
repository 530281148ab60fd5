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
    /// Whether the stream has been read from the log.
    var loaded = false
    /// The changes the seed in force disagrees with: kept over it, or not applied.
    var conflicts: [LaidChange] = []
}
