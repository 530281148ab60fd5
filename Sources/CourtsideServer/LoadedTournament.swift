import CourtsideModel
import CourtsideProtocol
import Synchronization

/// The tournament as last loaded: the teams `create_game` may name and the default rules.
/// SIGHUP replaces it with the reloaded file, keeping teams that disappeared from it.
final class LoadedTournament: Sendable {
    private let current: Mutex<TournamentConfiguration>
    private let reloaded = Mutex<String?>(nil)

    init(_ configuration: TournamentConfiguration) { current = Mutex(configuration) }

    /// The rules of the preset named `name` (built in, or the config's), or `invalid_game` naming
    /// the known ones.
    func preset(_ name: String) throws(CourtsideError) -> RuleSet {
        let presets = configuration.presets
        guard let rules = presets[name] else { throw CourtsideError(.invalidGame, RuleSpec.unknown(name, presets)) }
        return rules
    }

    /// The last reload's outcome in a few words, for systemd's status line; nil before any.
    var lastReload: String? { reloaded.withLock { $0 } }

    func noteReload(_ outcome: String) { reloaded.withLock { $0 = outcome } }

    var configuration: TournamentConfiguration { current.withLock { $0 } }

    /// Takes a reloaded tournament: new teams and scheduled games are added; existing ones stay
    /// as they were, so that a game in progress never changes under the scorekeeper.
    /// Returns the new teams, what the file would have changed in existing ones, and the
    /// schedule now in force.
    func merge(_ reloaded: TournamentConfiguration) -> (teams: [TeamID], unapplied: [UnappliedChange], schedule: Schedule) {
        current.withLock { current in
            let unapplied = UnappliedChange.between(running: current, file: reloaded)
            let added = reloaded.teams.keys.filter { current.schedule.teams[$0] == nil }
            current.schedule.teams.merge(reloaded.teams) { old, _ in old }
            let known = Set(current.schedule.games.map(\.id))
            current.schedule.games += reloaded.schedule.games.filter { !known.contains($0.id) }
            let groups = Set(current.schedule.groups.map(\.id))
            current.schedule.groups += reloaded.schedule.groups.filter { !groups.contains($0.id) }
            current.schedule.rounds += reloaded.schedule.rounds.filter { !current.schedule.rounds.contains($0) }
            current.schedule.courts += reloaded.schedule.courts.filter { !current.schedule.courts.contains($0) }
            current.presets.merge(reloaded.presets) { old, _ in old }
            current.rules = reloaded.rules
            current.name = reloaded.name
            current.language = reloaded.language
            return (added.sorted(), unapplied, current.schedule)
        }
    }

    /// The setup of a game `create_game` asks for; `teams`, when given, are the tournament's as
    /// the organiser has changed them at run time. Its court is held to the ``TextRule`` here,
    /// not in `GameSetup.validate`, which also creates the bracket's games from a log that may
    /// predate the rule.
    func setup(
        game: GameID, home: TeamID, away: TeamID, court: String?, rules: RuleSet?, teams: [TeamID: Team]? = nil
    ) throws(CourtsideError) -> GameSetup {
        try TextRule.check(court, as: .line, field: "court")
        try TextRule.check(rules?.preset, as: .line, field: "rules.preset")
        let configuration = self.configuration
        let teams = teams ?? configuration.teams
        if configuration.schedule.game(game) != nil {
            throw CourtsideError(
                .gameExists, "game \(game) is on the schedule; it is created when the results decide its teams")
        }
        guard let homeTeam = teams[home] else {
            throw CourtsideError(.unknownTeam, "the tournament has no team \(home)")
        }
        guard let awayTeam = teams[away] else {
            throw CourtsideError(.unknownTeam, "the tournament has no team \(away)")
        }
        return GameSetup(id: game, home: homeTeam, away: awayTeam, rules: rules ?? configuration.rules, court: court)
    }
}
