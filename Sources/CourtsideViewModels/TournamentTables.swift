public import CourtsideModel
import Foundation

/// The schedule, the standings and a game's trail as text tables, for `courtside schedule`,
/// `courtside standings`, `courtside log` and boards.
public enum TournamentTables {
    /// Games by round, each with its time, court, teams (or the slots still open), score and state.
    ///
    /// With more than one of `divisions` (id to name), each game's line names its division after
    /// its court: the games of a round stay in playing order, the divisions' interleaved.
    public static func schedule(
        _ bracket: [BracketEntry], games: [GameID: Game], teamNames: [TeamID: String], divisions: [String: String] = [:]
    ) -> [String] {
        guard !bracket.isEmpty else { return ["no schedule"] }
        func side(_ team: TeamID?, _ slot: Slot) -> String { team.map { teamNames[$0] ?? $0.rawValue } ?? slot.description }
        let divisionWidth = divisions.count > 1 ? divisions.values.map(\.count).max() ?? 0 : 0
        var lines: [String] = []
        // Each round once, where it is first played, with all its games: a game added to a
        // round later (after the final's, say) joins its round rather than opening another.
        var order: [String?] = []
        var byRound: [String?: [BracketEntry]] = [:]
        for entry in bracket {
            if byRound[entry.round] == nil { order.append(entry.round) }
            byRound[entry.round, default: []].append(entry)
        }
        for (round, entry) in order.flatMap({ round in (byRound[round] ?? []).map { (round, $0) } }) {
            if entry.game == byRound[round]?.first?.game {
                if !lines.isEmpty { lines.append("") }
                lines.append(round ?? "Games")
            }
            let matchup = "\(side(entry.homeTeam, entry.home)) vs \(side(entry.awayTeam, entry.away))"
            let score = entry.score.map { "\($0.home) - \($0.away)" } ?? ""
            // Every screen's words for the game (GameViewModel's), not the bracket's own states.
            let state = GameViewModel.scheduleText(games[entry.game], teamsKnown: entry.state != .pending)
            let group = entry.group.map { "  (group \($0))" } ?? ""
            let division = divisionLabel(entry.division, divisions).map { [$0.padded(divisionWidth)] } ?? []
            lines.append(
                "  "
                    + ([(entry.start ?? "").padded(5), (entry.court ?? "").padded(8)] + division + [
                        entry.game.rawValue.padded(7), matchup.padded(36), score.padded(8), state,
                    ]).joined(separator: "  ") + group)
        }
        return lines
    }

    /// Each group's table, best first; with more than one of `divisions` (id to name), each
    /// headed by its division's name too ("Open · Group A").
    public static func standings(_ groups: [GroupStandings], divisions: [String: String] = [:]) -> [String] {
        guard !groups.isEmpty else { return ["no groups"] }
        var lines: [String] = []
        for table in groups {
            if !lines.isEmpty { lines.append("") }
            let title = divisionLabel(table.division, divisions).map { "\($0) · " } ?? ""
            lines.append("\(title)\(table.name)\(table.complete ? " (final)" : "")")
            lines.append("  #  " + "team".padded(16) + "   P   W   L    PF    PA   +/-")
            for row in table.rows {
                let difference = row.difference > 0 ? "+\(row.difference)" : "\(row.difference)"
                lines.append(
                    "  \(row.rank)  " + row.name.padded(16)
                        + [row.played, row.won, row.lost].map { "\($0)".leftPadded(4) }.joined()
                        + [row.pointsFor, row.pointsAgainst].map { "\($0)".leftPadded(6) }.joined() + difference.leftPadded(6))
            }
        }
        return lines
    }

    /// A division's name where there is more than one division, else nil.
    public static func divisionLabel(_ id: String?, _ divisions: [String: String]) -> String? {
        guard divisions.count > 1, let id else { return nil }
        return divisions[id] ?? id
    }

    /// A game's audit trail: every event, who sent it and when.
    public static func trail(_ events: [GameEvent]) -> [String] {
        AuditTrail(events).rows.map { row in
            "v\(row.version)".padded(5) + " #\(row.sequence)".padded(9) + "  \(row.at)  " + row.origin.padded(34)
                + "  \(row.what)"
        }
    }
}

extension String {
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
