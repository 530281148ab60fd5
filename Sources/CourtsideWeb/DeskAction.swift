import CourtsideLocalization
import CourtsideModel
import CourtsideProtocol

/// A decision the organiser makes at the desk, read from its form: a forfeit, an early end, or a
/// correction (a move retracted, from the audit page), with the reason, and the command id given when the organiser was asked to confirm it (so a
/// confirmation sent twice is one command to the daemon).
struct DeskAction: Equatable {
    var game: GameID
    var operation: Request.Operation
    var commandID: String?

    /// The action a form stands for, or why it is none.
    /// What the organiser can mend is said in `words`' language.
    static func parse(_ fields: [String: String], words: Words = .english) -> Result<DeskAction, CourtsideError> {
        guard let game = fields["game"], !game.isEmpty else {
            return .failure(CourtsideError(.badRequest, words(.deskRefusalMissing)))
        }
        let id = GameID(game)
        let reason = fields["reason"].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        let operation: Request.Operation
        switch fields["action"] {
        case "forfeit":
            guard let side = fields["side"].flatMap(Side.init(rawValue:)) else {
                return .failure(CourtsideError(.badRequest, Refusals.text(.badRequest, words: words)))
            }
            operation = .forfeit(game: id, side: side, reason: reason.flatMap { $0.isEmpty ? nil : $0 })
        case "end_game":
            guard let result = fields["result"].flatMap(EarlyResult.init(rawValue:)) else {
                return .failure(CourtsideError(.badRequest, Refusals.text(.badRequest, words: words)))
            }
            operation = .endGame(game: id, result: result, reason: reason ?? "")
        case "retract":
            guard let version = fields["version"].flatMap({ Int($0) }), version > 0 else {
                return .failure(CourtsideError(.badRequest, Refusals.text(.badRequest, words: words)))
            }
            // A correction at the desk always says why: the log keeps it beside the retraction.
            guard let reason, !reason.isEmpty else {
                return .failure(CourtsideError(.badRequest, words(.deskRefusalRetractReason)))
            }
            operation = .retract(game: id, version: version, reason: reason)
        default:
            return .failure(CourtsideError(.badRequest, Refusals.text(.badRequest, words: words)))
        }
        // The model's text rule, so the page says what is wrong with the reason before the daemon does.
        if let reason, !reason.isEmpty {
            do throws(CourtsideError) {
                try TextRule.check(reason, as: .reason, field: "reason")
            } catch {
                return .failure(error)
            }
        }
        let commandID = fields["command_id"].flatMap { $0.isEmpty || $0.count > 64 ? nil : $0 }
        return .success(DeskAction(game: id, operation: operation, commandID: commandID))
    }

    /// The action in words, for the organiser to confirm: "Wolves forfeit g2 (reason: …)", in
    /// `words`' language.
    func summary(home: String, away: String, words: Words = .english) -> String {
        var values = ["game": game.rawValue, "title": words(.gameTitle, ["home": home, "away": away])]
        switch operation {
        case .forfeit(_, let side, let reason):
            values["team"] = side == .home ? home : away
            guard let reason else { return words(.deskActionForfeit, values) }
            values["reason"] = reason
            return words(.deskActionForfeitReason, values)
        case .endGame(_, let result, let reason):
            values["reason"] = reason
            return words(result == .noResult ? .deskActionEndNoResult : .deskActionEndAsItStands, values)
        case .retract(_, let version, let reason):
            (values["version"], values["reason"]) = ("\(version)", reason ?? "")
            return words(.deskActionRetract, values)
        default: return ""
        }
    }

    /// What the desk says once the daemon has applied it, in English.
    var done: String { done(.english) }

    /// What the desk says once the daemon has applied it, in `words`' language.
    func done(_ words: Words = .english) -> String {
        if case .retract(_, let version, _) = operation {
            return words(.deskActionDoneRetract, ["version": "\(version)", "game": game.rawValue])
        }
        return words(.deskActionDone, ["game": game.rawValue])
    }

    /// The form's fields, to send again with the confirmation.
    var fields: [(name: String, value: String)] {
        switch operation {
        case .forfeit(_, let side, let reason):
            [("action", "forfeit"), ("game", game.rawValue), ("side", side.rawValue), ("reason", reason ?? "")]
        case .endGame(_, let result, let reason):
            [("action", "end_game"), ("game", game.rawValue), ("result", result.rawValue), ("reason", reason)]
        case .retract(_, let version, let reason):
            [("action", "retract"), ("game", game.rawValue), ("version", "\(version)"), ("reason", reason ?? "")]
        default: []
        }
    }
}
