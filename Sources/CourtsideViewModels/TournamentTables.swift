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

/// A game's audit trail as rows: what each event did, who sent it and when; the desk filters
/// them by origin and kind, the terminal pads them into lines.
public struct AuditTrail: Sendable {
    public struct Row: Sendable, Hashable {
        public var game: String
        public var version: Int
        public var sequence: Int64
        /// When, in ISO 8601 with milliseconds (UTC).
        public var at: String
        /// `client_id/command_id`: on a secured daemon the key's name leads, `court-1/...`.
        public var origin: String
        /// The event's type on the wire: `move`, `retraction`, `forfeit`, ...
        public var kind: String
        /// What happened, in words.
        public var what: String
        /// A move that still counts: the organiser may take it back (a correction).
        public var correctable: Bool
    }

    public var rows: [Row]

    public init(_ events: [GameEvent]) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let retracted = Set(
            events.compactMap { event -> Int? in
                if case .retraction(let target, _) = event.kind { return target }
                return nil
            })
        rows = events.map { event in
            let isMove = if case .move = event.kind { true } else { false }
            return Row(
                game: event.gameID.rawValue, version: event.version, sequence: event.sequence,
                at: formatter.string(from: Date(timeIntervalSince1970: Double(event.at.rawValue) / 1000)),
                origin: "\(event.origin.clientID)/\(event.origin.commandID)", kind: event.kind.typeName,
                what: Self.describe(event.kind), correctable: isMove && !retracted.contains(event.version))
        }
    }

    /// The rows whose origin contains `origin` and whose kind is `kind` (either may be nil or empty).
    public func filtered(origin: String?, kind: String?) -> [Row] {
        rows.filter { row in
            (origin.map { $0.isEmpty || row.origin.localizedCaseInsensitiveContains($0) } ?? true)
                && (kind.map { $0.isEmpty || row.kind == $0 } ?? true)
        }
    }

    /// An event's kind in words.
    public static func describe(_ kind: GameEvent.Kind) -> String {
        switch kind {
        case .gameCreated(let setup): "game created: \(setup.home.name) vs \(setup.away.name)"
        case .move(let player, let move): "\(player) \(GameViewModel.moveText(move))"
        case .retraction(let version, let reason): "retraction of v\(version)" + (reason.map { ": \($0)" } ?? "")
        case .clockStarted: "clock started"
        case .clockPaused: "clock paused"
        case .timeExpired: "time expired"
        case .timeout(let side): "time-out \(side.rawValue)"
        case .teamsAssigned(let home, let away): "teams assigned: \(home.name) vs \(away.name)"
        case .forfeit(let side, let reason): "forfeit by \(side.rawValue)\(reason.map { ": \($0)" } ?? "")"
        case .ended(let result, let reason):
            "ended early, \(result == .noResult ? "no result" : "as it stood"): \(reason)"
        case .setupChanged(let court, _): "moved to \(court ?? "no court") (or rules changed)"
        case .tournamentChanged(let change, let reason): describe(change) + (reason.map { ": \($0)" } ?? "")
        }
    }

    /// A tournament change in words: "Dee Day (dee) joins lions".
    public static func describe(_ change: TournamentChange) -> String {
        switch change {
        case .teamRegistered(let team, let group, let division):
            "team registered: \(team.name) (\(team.id))" + (group.map { " in group \($0)" } ?? "")
                + (division.map { " (division \($0))" } ?? "")
        case .playerAdded(let team, let player): "\(player.name) (\(player.id)) joins \(team)"
        case .playerRenamed(let team, let player, let name): "\(player) of \(team) renamed \(name)"
        case .playerActive(let team, let player, let active): "\(player) of \(team) marked \(active ? "active" : "inactive")"
        case .gameScheduled(let game):
            "game \(game.id) scheduled: \(game.home) v \(game.away)"
                + [game.court, game.start.map { "at \($0)" }].compactMap { $0 }.map { ", \($0)" }.joined()
        case .gameEdited(let edit):
            "game \(edit.game) changed: "
                + [
                    edit.court.map { "court \($0)" }, edit.start.map { "start \($0)" }, edit.rules.map { _ in "rules" },
                    edit.home.map { "home \($0)" }, edit.away.map { "away \($0)" },
                ].compactMap { $0 }.joined(separator: ", ")
        case .teamWithdrawn(let team): "team \(team) withdrawn: its games left are forfeited"
        case .swissRoundPaired(let pairing):
            "round \(pairing.round) of group \(pairing.group) paired: "
                + pairing.games.map { "\($0.home) v \($0.away)" }.joined(separator: ", ")
                + (pairing.bye.map { "; \($0) has the bye" } ?? "")
        case .drawPublished(let draw):
            "draw published for \(draw.subject): \(draw.schedule.teams.count) teams, \(draw.schedule.games.count) games"
                + (draw.randomSeed.map { ", random seed \($0)" } ?? "")
        }
    }
}

extension String {
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
