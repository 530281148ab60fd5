import CourtsideModel
import CourtsideProtocol
import Testing

@testable import CourtsideWeb

/// The desk's forms hold names, courts, rounds, start times and reasons to the model's text rule
/// before anything goes to the daemon, naming the field.
@Suite("the desk's forms and the text rule")
struct DeskTextRuleTests {
    static func refusal(_ fields: [String: String], on page: DeskChange.Page) -> CourtsideError? {
        if case .failure(let error) = DeskChange.parse(fields, on: page) { error } else { nil }
    }

    @Test("a move to 11:00 and a NUL (the reproduced defect), a bad court, round or name is refused naming the field")
    func refused() {
        let cases: [([String: String], DeskChange.Page, String)] = [
            (["action": "edit_game", "game": "g4", "start": "11:00\u{0}", "command_id": "z14"], .schedule, "start: "),
            (["action": "edit_game", "game": "g4", "start": "25:99"], .schedule, "start: "),
            (["action": "edit_game", "game": "g4", "court": "Court\u{0}1"], .schedule, "court: "),
            (["action": "edit_game", "game": "g4", "court": String(repeating: "C", count: 5000)], .schedule, "court: "),
            (
                ["action": "schedule_game", "game": "g7", "home": "owls", "away": "tigers", "round": "R\u{202E}"], .schedule,
                "round: "
            ),
            (["action": "schedule_game", "game": "g7", "home": "owls", "away": "tigers", "start": "abc"], .schedule, "start: "),
            (
                ["action": "register_team", "team": "owls", "name": "\u{202E}slwO", "players": "ola Ola"], .teams,
                "team owls name: "
            ),
            (
                ["action": "register_team", "team": "owls", "name": "Owls", "players": "ola Ola\u{2066}"], .teams,
                "player ola name: "
            ),
            (["action": "rename_player", "team": "lions", "player": "ann", "name": "Ann\u{7F}"], .teams, "player ann name: "),
        ]
        for (fields, page, field) in cases {
            let error = Self.refusal(fields, on: page)
            #expect(
                error?.code == .invalidText && error?.message.hasPrefix(field) == true, "\(fields): \(String(describing: error))")
        }
        let reason = Self.refusal(
            ["action": "edit_game", "game": "g4", "start": "11:00", "reason": "late\u{202E}"], on: .schedule)
        #expect(reason?.code == .invalidReason && reason?.message.hasPrefix("reason: ") == true)
        let decision = DeskAction.parse(["action": "forfeit", "game": "g1", "side": "away", "reason": "no show\u{0}"])
        if case .failure(let error) = decision { #expect(error.code == .invalidReason) } else { Issue.record("accepted") }
    }

    @Test("names in every script and a time the schedule writes go through")
    func accepted() {
        #expect(Self.refusal(["action": "edit_game", "game": "g4", "court": "コート 2", "start": "9:05"], on: .schedule) == nil)
        #expect(
            Self.refusal(
                ["action": "register_team", "team": "owls", "name": "النسور 🦉", "players": "ola 山田 太郎\npia 김민준"], on: .teams)
                == nil)
    }
}
