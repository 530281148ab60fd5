import CourtsideModel
import Logging

/// A change in a reloaded config file that the reload did not apply. A reload adds what is new
/// and never changes what exists: the log, not the file, decides what exists, so a change to a
/// team or a game is reported instead of dropped without a word.
struct UnappliedChange: Equatable, Sendable, CustomStringConvertible {
    /// What it is about: `team`, `game`, `group`, `preset` or `tournament`.
    var kind: String
    /// The team's, game's, group's or preset's id; empty for the tournament.
    var id: String
    /// The keys that differ (`players`, `court`); empty when the file no longer has it.
    var fields: [String]
    /// How they differ: `added: zoe`, `court: Court 1 → Court 2`.
    var details: [String]

    var description: String {
        let subject = id.isEmpty ? kind : "\(kind) \(id)"
        // "players differ", "court differs": the fields are the config's keys, plural or not.
        let verb = fields.count == 1 && !fields[0].hasSuffix("s") ? "differs" : "differ"
        let what =
            fields.isEmpty ? "no longer in the file" : "\(fields.joined(separator: ", ")) \(verb) from the running tournament"
        let how = details.isEmpty ? "" : " (\(details.joined(separator: "; ")))"
        return "\(subject): \(what)\(how); not applied: the log decides"
    }

    /// The structured form for the reload's log line.
    var metadata: Logger.Metadata {
        var metadata: Logger.Metadata = [
            "reload.kind": "\(kind)", "reload.fields": "\(fields.joined(separator: ","))",
            "reload.details": "\(details.joined(separator: "; "))",
        ]
        if !id.isEmpty { metadata["reload.id"] = "\(id)" }
        return metadata
    }

    /// What `file` would change in `running`: teams, games, groups and presets that both have
    /// but that differ, those the file no longer has, the tie-breakers, and courts and rounds
    /// the file dropped.
    static func between(running: TournamentConfiguration, file: TournamentConfiguration) -> [UnappliedChange] {
        var changes: [UnappliedChange] = []
        // A thing the file no longer has is kept: one line says so; otherwise only what differs.
        func removed(_ kind: String, _ id: String) {
            changes.append(UnappliedChange(kind: kind, id: id, fields: [], details: []))
        }
        func record(_ change: UnappliedChange) { if !change.fields.isEmpty { changes.append(change) } }
        let (old, new) = (running.schedule, file.schedule)
        for id in old.teams.keys.sorted() {
            guard let before = old.teams[id] else { continue }
            guard let after = new.teams[id] else {
                removed("team", id.rawValue)
                continue
            }
            var change = UnappliedChange(kind: "team", id: id.rawValue, fields: [], details: [])
            change.compare("name", before.name, after.name)
            let players = rosterDetails(before.players, after.players)
            if !players.isEmpty {
                change.fields.append("players")
                change.details += players
            }
            record(change)
        }
        let newGames = Dictionary(new.games.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for before in old.games {
            guard let after = newGames[before.id] else {
                removed("game", before.id.rawValue)
                continue
            }
            var change = UnappliedChange(kind: "game", id: before.id.rawValue, fields: [], details: [])
            change.compare("home", before.home, after.home)
            change.compare("away", before.away, after.away)
            change.compare("court", before.court, after.court)
            change.compare("start", before.start, after.start)
            change.compare("group", before.group, after.group)
            change.compare("round", before.round, after.round)
            if before.rules != after.rules {
                change.fields.append("rules")
                let (was, now) = (before.rules.preset ?? "custom", after.rules.preset ?? "custom")
                change.details.append(was == now ? "rules: \(was) with other values" : "rules: \(was) → \(now)")
            }
            record(change)
        }
        for before in old.groups {
            guard let after = new.groups.first(where: { $0.id == before.id }) else {
                removed("group", before.id)
                continue
            }
            var change = UnappliedChange(kind: "group", id: before.id, fields: [], details: [])
            change.compare("name", before.name, after.name)
            change.compare(
                "teams", before.teams.map(\.rawValue).joined(separator: ", "), after.teams.map(\.rawValue).joined(separator: ", ")
            )
            record(change)
        }
        for name in running.presets.keys.sorted() {
            guard let after = file.presets[name], running.presets[name] != after else { continue }
            changes.append(UnappliedChange(kind: "preset", id: name, fields: ["rules"], details: []))
        }
        var tournament = UnappliedChange(kind: "tournament", id: "", fields: [], details: [])
        tournament.compare(
            "tie_breakers", old.tieBreakers.map(\.rawValue).joined(separator: ", "),
            new.tieBreakers.map(\.rawValue).joined(separator: ", "))
        // New courts and rounds are added; those the file dropped stay.
        for (field, before, after) in [("courts", old.courts, new.courts), ("rounds", old.rounds, new.rounds)] {
            let dropped = before.filter { !after.contains($0) }
            guard !dropped.isEmpty else { continue }
            tournament.fields.append(field)
            tournament.details.append("\(field): no longer in the file: \(dropped.joined(separator: ", "))")
        }
        record(tournament)
        return changes
    }

    /// Players added, removed or renamed, by id.
    private static func rosterDetails(_ before: [Player], _ after: [Player]) -> [String] {
        let old = Dictionary(before.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(after.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        var details: [String] = []
        let added = after.map(\.id).filter { old[$0] == nil }
        let removed = before.map(\.id).filter { new[$0] == nil }
        let renamed = before.compactMap { player in
            new[player.id].flatMap { $0 == player.name ? nil : "\(player.id) (\(player.name) → \($0))" }
        }
        if !added.isEmpty { details.append("added: \(added.map(\.rawValue).joined(separator: ", "))") }
        if !removed.isEmpty { details.append("removed: \(removed.map(\.rawValue).joined(separator: ", "))") }
        if !renamed.isEmpty { details.append("renamed: \(renamed.joined(separator: ", "))") }
        // The same players in another order.
        if details.isEmpty, before.map(\.id) != after.map(\.id) { details.append("order") }
        return details
    }

    /// Notes `field` when its values differ.
    private mutating func compare<Value: Equatable>(_ field: String, _ before: Value?, _ after: Value?) {
        guard before != after else { return }
        fields.append(field)
        details.append("\(field): \(before.map { "\($0)" } ?? "none") → \(after.map { "\($0)" } ?? "none")")
    }
}
