import CourtsideLocalization
import CourtsideModel
import CourtsideProtocol
import Foundation

/// A change to the tournament the organiser makes at the desk, read from a form of the teams
/// page (a team registered, a player added or renamed) or of the schedule page (a game moved or
/// added), with the reason and the command id given when the organiser was asked to confirm it
/// (so a confirmation sent twice is one command to the daemon).
struct DeskChange: Equatable {
    /// The desk's page whose forms make the change, and which shows what came of it.
    enum Page: String {
        case teams, schedule

        /// The page's address.
        var path: String { "/desk/\(rawValue)" }
    }

    var page: Page
    var operation: Request.Operation
    var commandID: String?

    /// The change a form of `page` stands for, or why it is none (what the organiser can mend
    /// in `words`' language).
    static func parse(_ fields: [String: String], on page: Page, words: Words = .english) -> Result<
        DeskChange, CourtsideError
    > {
        let form = Form(fields, words: words)
        // Names, courts, rounds, start times and the reason are held to the model's text rule here,
        // so the page names the field at once; the daemon holds them to it again, and judges the ids.
        let reason = form.optional("reason")
        let operation: Request.Operation
        do throws(CourtsideError) {
            switch (page, fields["action"]) {
            case (.teams, "add_player"):
                let player = Player(
                    id: PlayerID(try form.required("player")),
                    name: try form.required("name"))
                operation = .changeTournament(
                    .playerAdded(team: TeamID(try form.required("team")), player: player), reason: reason)
            case (.teams, "rename_player"):
                operation = .changeTournament(
                    .playerRenamed(
                        team: TeamID(try form.required("team")),
                        player: PlayerID(try form.required("player")),
                        name: try form.required("name")),
                    reason: reason)
            case (.teams, "set_player_active"):
                guard let active = fields["active"].flatMap(Bool.init) else {
                    throw CourtsideError(.badRequest, Refusals.text(.badRequest, words: words))
                }
                operation = .changeTournament(
                    .playerActive(
                        team: TeamID(try form.required("team")),
                        player: PlayerID(try form.required("player")), active: active),
                    reason: reason)
            case (.teams, "register_team"):
                let team = Team(
                    id: TeamID(try form.required("team")), name: try form.required("name"),
                    players: try players(form.optional("players") ?? "", words: words))
                operation = .changeTournament(
                    .teamRegistered(team, group: form.optional("group"), division: form.optional("division")), reason: reason)
            case (.schedule, "edit_game"):
                operation = .changeTournament(.gameEdited(try edit(form, words: words)), reason: reason)
            case (.schedule, "schedule_game"):
                operation = .scheduleGame(
                    game: GameID(try form.required("game")),
                    home: TeamID(try form.required("home")),
                    away: TeamID(try form.required("away")), court: form.optional("court"),
                    start: form.optional("start"),
                    round: form.optional("round"), group: form.optional("group"), rules: nil, reason: reason)
            case (.teams, _):
                throw CourtsideError(.badRequest, Refusals.text(.badRequest, words: words))
            case (.schedule, _):
                throw CourtsideError(.badRequest, Refusals.text(.badRequest, words: words))
            }
            try checkText(operation)
        } catch {
            return .failure(error)
        }
        let commandID = fields["command_id"].flatMap { $0.isEmpty || $0.count > 64 ? nil : $0 }
        return .success(DeskChange(page: page, operation: operation, commandID: commandID))
    }

    /// Refuses an operation whose texts break the model's ``TextRule``: `invalid_text` (or
    /// `invalid_reason`) naming the field, as the daemon would.
    private static func checkText(_ operation: Request.Operation) throws(CourtsideError) {
        switch operation {
        case .changeTournament(let change, let reason):
            try change.checkText()
            try TextRule.check(reason, as: .reason, field: "reason")
        case .scheduleGame(let game, let home, let away, let court, let start, let round, let group, _, let reason, _):
            let scheduled = ScheduledGame(
                id: game, home: .team(home), away: .team(away), court: court, group: group, round: round, start: start)
            try TournamentChange.gameScheduled(scheduled).checkText()
            try TextRule.check(reason, as: .reason, field: "reason")
        default:
            break
        }
    }

    /// A team's players as the register form takes them, one a line: the id, a space, the name
    /// ("ola Ola Olsen").
    static func players(_ lines: String, words: Words = .english) throws(CourtsideError) -> [Player] {
        var players: [Player] = []
        for line in lines.split(whereSeparator: \.isNewline) {
            let parts = line.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
            guard !parts.isEmpty else { continue }
            guard parts.count == 2, !parts[1].allSatisfy(\.isWhitespace) else {
                throw CourtsideError(.badRequest, words(.deskRefusalPlayerLine, ["line": String(line)]))
            }
            players.append(Player(id: PlayerID(String(parts[0])), name: parts[1].trimmingCharacters(in: .whitespaces)))
        }
        if players.isEmpty { throw CourtsideError(.badRequest, words(.deskRefusalNoPlayers)) }
        return players
    }

    /// The edit a move form stands for: each field that differs from the one the page showed
    /// (`was_court`, `was_start`, `was_home`, `was_away`); a form that changes nothing is refused.
    private static func edit(_ form: Form, words: Words) throws(CourtsideError) -> GameEdit {
        let changed = { (name: String) in form.optional(name).flatMap { $0 == form.optional("was_" + name) ? nil : $0 } }
        let edit = GameEdit(
            game: GameID(try form.required("game")), court: changed("court"), start: changed("start"),
            home: changed("home").map { .team(TeamID($0)) }, away: changed("away").map { .team(TeamID($0)) },
            preset: form.optional("preset"))
        if edit.isEmpty {
            throw CourtsideError(.badRequest, words(.deskRefusalNothingChanged, ["game": edit.game.rawValue]))
        }
        return edit
    }

    /// The change in English words.
    var summary: String { summary(.english) }

    /// The change in words, for the organiser to confirm, in `words`' language.
    func summary(_ words: Words) -> String {
        let why = { (summary: String, reason: String?) in
            reason.map { words(.deskChangeWhy, ["summary": summary, "reason": $0]) } ?? summary
        }
        let separator = words(.deskSetupListSeparator)
        switch operation {
        case .changeTournament(.playerAdded(let team, let player), let reason):
            return why(
                words(.deskChangeAddPlayer, ["name": player.name, "player": player.id.rawValue, "team": team.rawValue]), reason)
        case .changeTournament(.playerRenamed(let team, let player, let name), let reason):
            return why(words(.deskChangeRename, ["player": player.rawValue, "team": team.rawValue, "name": name]), reason)
        case .changeTournament(.playerActive(let team, let player, let active), let reason):
            return why(
                words(active ? .deskChangeActive : .deskChangeInactive, ["player": player.rawValue, "team": team.rawValue]),
                reason)
        case .changeTournament(.teamRegistered(let team, let group, let division), let reason):
            let players = team.players.map { words(.deskChangePlayer, ["name": $0.name, "player": $0.id.rawValue]) }
                .joined(separator: separator)
            let place =
                (division.map { words(.deskChangeInDivision, ["division": $0]) } ?? "")
                + (group.map { words(.deskChangeInGroup, ["group": $0]) } ?? "")
            return why(
                words(
                    .deskChangeRegister,
                    ["name": team.name, "team": team.id.rawValue, "place": place, "players": players]), reason)
        case .changeTournament(.gameEdited(let edit), let reason):
            let parts = [
                edit.court.map { words(.deskChangeToCourt, ["court": $0]) },
                edit.start.map { words(.deskChangeAt, ["start": $0]) },
                edit.home.map { words(.deskChangeHome, ["team": "\($0)"]) },
                edit.away.map { words(.deskChangeAway, ["team": "\($0)"]) },
                edit.preset.map { words(.deskChangeRules, ["preset": $0]) },
            ]
            return why(
                words(
                    .deskChangeMove,
                    ["game": edit.game.rawValue, "changes": parts.compactMap { $0 }.joined(separator: separator)]), reason)
        case .scheduleGame(let game, let home, let away, let court, let start, let round, let group, _, let reason, _):
            let details = [
                court, start.map { words(.deskChangeAt, ["start": $0]) }, round.map { words(.deskChangeRound, ["round": $0]) },
                group.map { words(.deskChangeGroup, ["group": $0]) },
            ].compactMap { $0 }
            let added = words(
                .deskChangeAddGame,
                ["game": game.rawValue, "title": words(.gameTitle, ["home": "\(home)", "away": "\(away)"])])
            return why(([added] + details).joined(separator: separator), reason)
        default:
            return ""
        }
    }

    /// The form's fields, to send again with the confirmation.
    var fields: [(name: String, value: String)] {
        var fields: [(name: String, value: String)]
        let reason: String?
        switch operation {
        case .changeTournament(.playerAdded(let team, let player), let why):
            fields = [("action", "add_player"), ("team", team.rawValue), ("player", player.id.rawValue), ("name", player.name)]
            reason = why
        case .changeTournament(.playerRenamed(let team, let player, let name), let why):
            fields = [("action", "rename_player"), ("team", team.rawValue), ("player", player.rawValue), ("name", name)]
            reason = why
        case .changeTournament(.playerActive(let team, let player, let active), let why):
            fields = [
                ("action", "set_player_active"), ("team", team.rawValue), ("player", player.rawValue), ("active", "\(active)"),
            ]
            reason = why
        case .changeTournament(.teamRegistered(let team, let group, let division), let why):
            let players = team.players.map { "\($0.id) \($0.name)" }.joined(separator: "\n")
            fields = [("action", "register_team"), ("team", team.id.rawValue), ("name", team.name), ("players", players)]
            fields += group.map { [("group", $0)] } ?? []
            fields += division.map { [("division", $0)] } ?? []
            reason = why
        case .changeTournament(.gameEdited(let edit), let why):
            fields = [("action", "edit_game"), ("game", edit.game.rawValue)]
            fields += [
                ("court", edit.court), ("start", edit.start), ("home", edit.home?.team), ("away", edit.away?.team),
                ("preset", edit.preset),
            ]
            .compactMap { name, value in value.map { (name, $0) } }
            reason = why
        case .scheduleGame(let game, let home, let away, let court, let start, let round, let group, _, let why, _):
            fields = [("action", "schedule_game"), ("game", game.rawValue), ("home", home.rawValue), ("away", away.rawValue)]
            fields += [("court", court), ("start", start), ("round", round), ("group", group)]
                .compactMap { name, value in value.map { (name, $0) } }
            reason = why
        default:
            return []
        }
        return fields + [("reason", reason ?? "")]
    }

    /// A form's fields, trimmed; a refusal in `words`' language.
    private struct Form {
        let fields: [String: String]
        let words: Words

        init(_ fields: [String: String], words: Words) { (self.fields, self.words) = (fields, words) }

        /// The field, or nil when it is missing or blank.
        func optional(_ name: String) -> String? {
            fields[name].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }

        /// The field, or a refusal that asks for it.
        func required(_ name: String) throws(CourtsideError) -> String {
            guard let value = optional(name) else { throw CourtsideError(.badRequest, words(.deskRefusalMissing)) }
            return value
        }
    }
}

extension Slot {
    /// The team, when the slot names one.
    fileprivate var team: String? {
        if case .team(let team) = self { team.rawValue } else { nil }
    }
}
