import CourtsideModel
import Testing

/// The one rule for every name, court, round, group, start time and reason the daemon stores.
@Suite("the text rule: names, courts, rounds, start times and reasons")
struct TextRuleTests {
    static let schedule = TournamentChangeTests.schedule
    static func notStarted(_: GameID) -> Bool { false }

    /// The error `change` gets, or nil when it applies.
    static func refusal(of change: TournamentChange) -> CourtsideError? {
        do {
            _ = try schedule.applying(change, hasStarted: notStarted)
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "control characters (C0, DEL, C1), line separators and bidirectional overrides, embeddings and isolates are refused",
        arguments: [
            "Court\u{0}1", "Court\u{1}1", "Court\t1", "Court\n1", "Court\r1", "Court\u{1B}[31m1", "Court\u{1F}1",
            "Court\u{7F}1", "Court\u{80}1", "Court\u{85}1", "Court\u{9F}1", "Court\u{2028}1", "Court\u{2029}1",
            "Court\u{202A}1", "Court\u{202B}1", "Court\u{202C}1", "Court\u{202D}1", "\u{202E}1 truoC",
            "Court\u{2066}1", "Court\u{2067}1", "Court\u{2068}1", "Court\u{2069}1",
        ])
    func refusedCharacters(text: String) {
        let problem = TextRule.problem(text, as: .line)
        #expect(problem?.hasPrefix("contains U+") == true, "\(problem ?? "accepted")")
        // The refusal never quotes the text: it may hold what the rule keeps out of logs.
        #expect(problem.map { $0.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 } } == true)
        #expect(TextRule.problem(text, as: .time) != nil)
    }

    @Test(
        "names in every script are accepted: Japanese, Korean, Arabic (with its marks), emoji, combining accents",
        arguments: [
            "山田 太郎", "김민준", "محمد علي", "\u{200F}فريق النسور\u{200F}", "Ann\u{200E} (سارة)", "🏀 Ballers 👨‍👩‍👧‍👦",
            "Zoe\u{0308} Ło", "Court 1", "Cancha Nº 2 — Ñandú", String(repeating: "🏀", count: 80),
        ])
    func acceptedNames(text: String) {
        #expect(TextRule.problem(text, as: .line) == nil)
        #expect(TextRule.problem(text, as: .reason) == nil)
    }

    @Test("lengths: 80 characters for a line, 500 for a reason, and no character hiding hundreds of marks")
    func lengths() {
        #expect(TextRule.problem(String(repeating: "n", count: 80), as: .line) == nil)
        #expect(TextRule.problem(String(repeating: "n", count: 81), as: .line) == "is 81 characters long; the most is 80")
        #expect(TextRule.problem(String(repeating: "C", count: 5000), as: .line) == "is 5000 characters long; the most is 80")
        #expect(TextRule.problem(String(repeating: "x", count: 500), as: .reason) == nil)
        #expect(TextRule.problem(String(repeating: "x", count: 501), as: .reason) != nil)
        // One character to a reader, 1,001 bytes: over 80 × 8.
        let marks = "Z" + String(repeating: "\u{0301}", count: 500)
        #expect(marks.count == 1)
        #expect(TextRule.problem(marks, as: .line)?.contains("bytes of UTF-8") == true)
        for blank in ["", " ", "\u{3000}"] { #expect(TextRule.problem(blank, as: .line) == "is empty") }
    }

    @Test("a reason may break lines (LF alone), nothing else; its refusal keeps its code, invalid_reason")
    func reasons() {
        #expect(TextRule.problem("late\nvery late", as: .reason) == nil)
        for refused in ["late\r\nvery", "late\u{0}", "late\u{202E}", "late\u{7F}", "late\u{2028}"] {
            #expect(TextRule.problem(refused, as: .reason) != nil, "\(refused.unicodeScalars.map(\.value))")
        }
        #expect(throws: CourtsideError(.invalidReason, "reason: contains U+202E, a bidirectional embedding, override or isolate"))
        {
            try TextRule.check("x\u{202E}", as: .reason, field: "reason")
        }
    }

    @Test(
        "a start time is H:MM or HH:MM from 00:00 to 23:59; anything else is refused",
        arguments: [
            "25:99", "11:00\u{0}", "", "abc", "24:00", "10:60", "1030", "10:5", "10:305", "+1:00", "-1:00", "10 :30", "10:30 ",
            " 10:30", "１０:３０", "١٠:٣٠", "10:30:00", "10h30", "10.30", ":30", "10:",
        ])
    func refusedTimes(text: String) {
        #expect(TextRule.problem(text, as: .time) != nil)
        #expect(TextRule.time(text) == nil)
    }

    @Test("times the schedule writes are read as hour and minute")
    func times() {
        for (text, hour, minute) in [("10:30", 10, 30), ("9:05", 9, 5), ("00:00", 0, 0), ("23:59", 23, 59), ("09:00", 9, 0)] {
            #expect(TextRule.problem(text, as: .time) == nil)
            #expect(TextRule.time(text).map { [$0.hour, $0.minute] } == [hour, minute])
        }
    }

    @Test("check names the field and gives invalid_text; nil passes")
    func check() throws {
        #expect(throws: CourtsideError(.invalidText, "court: contains U+0000, a control character")) {
            try TextRule.check("Court\u{0}1", as: .line, field: "court")
        }
        #expect(throws: CourtsideError(.invalidText, "start: is not a time of day: H:MM or HH:MM, from 00:00 to 23:59")) {
            try TextRule.check("25:99", as: .time, field: "start")
        }
        try TextRule.check(nil, as: .time, field: "start")
    }

    @Test("every change that stores a text is refused with invalid_text naming the field")
    func changes() {
        let court5000 = String(repeating: "C", count: 5000)
        let owls = Team(id: "owls2", name: "\u{202E}slwO", players: [Player(id: "o2", name: "Ola")])
        let cases: [(TournamentChange, String)] = [
            (.gameEdited(GameEdit(game: "g1", start: "25:99\u{0}")), "start: contains U+0000"),
            (.gameEdited(GameEdit(game: "g1", start: "25:99")), "start: is not a time of day"),
            (.gameEdited(GameEdit(game: "g1", start: "11:00\u{0}")), "start: contains U+0000"),
            (.gameEdited(GameEdit(game: "g1", start: "")), "start: is empty"),
            (.gameEdited(GameEdit(game: "g1", court: "Court\u{0}1")), "court: contains U+0000"),
            (.gameEdited(GameEdit(game: "g1", court: court5000)), "court: is 5000 characters long"),
            (.teamRegistered(owls, group: nil), "team owls2 name: contains U+202E"),
            (
                .teamRegistered(Team(id: "owls2", name: "Owls", players: [Player(id: "o2", name: "O\u{2066}la")]), group: nil),
                "player o2 name: contains U+2066"
            ),
            (
                .teamRegistered(Team(id: "owls2", name: "Owls", players: [Player(id: "o2", name: "Ola")]), group: "A\u{0}"),
                "group: "
            ),
            (
                .playerAdded(team: "lions", player: Player(id: "dee", name: String(repeating: "D", count: 81))),
                "player dee name: is 81"
            ),
            (.playerAdded(team: "lions", player: Player(id: "d\u{0}e", name: "Dee\u{85}")), "player name: contains U+0085"),
            (.playerRenamed(team: "lions", player: "h1", name: "Ann\u{7F}"), "player h1 name: contains U+007F"),
            (.playerRenamed(team: "lions", player: "h1", name: " "), "player h1 name: is empty"),
            (
                .gameScheduled(ScheduledGame(id: "g9", home: .team("owls"), away: .team("tigers"), round: "Final\u{202D}")),
                "round: contains U+202D"
            ),
            (
                .gameScheduled(ScheduledGame(id: "g9", home: .team("owls"), away: .team("tigers"), start: "abc")),
                "start: is not a time of day"
            ),
            (
                .gameScheduled(ScheduledGame(id: "g9", home: .team("owls"), away: .team("tigers"), court: "Court\n2")),
                "court: contains U+000A"
            ),
            (
                .gameEdited(GameEdit(game: "g1", rules: RuleSet(preset: "fiba\u{202E}"))),
                "rules.preset: contains U+202E"
            ),
        ]
        for (change, message) in cases {
            let refusal = Self.refusal(of: change)
            #expect(refusal?.code == .invalidText, "\(change): \(refusal.map(String.init(describing:)) ?? "applied")")
            #expect(refusal?.message.hasPrefix(message) == true, "\(refusal?.message ?? "applied") for \(message)")
        }
        // The same changes with good texts apply: Japanese, Korean, Arabic and emoji names.
        let good: [TournamentChange] = [
            .teamRegistered(
                Team(
                    id: "owls2", name: "فريق النسور 🦉", players: [Player(id: "o2", name: "山田 太郎"), Player(id: "o3", name: "김민준")]),
                group: "A"),
            .playerRenamed(team: "lions", player: "h1", name: "Ann 🏀"),
            .gameEdited(GameEdit(game: "g1", court: "コート 2", start: "9:05")),
        ]
        for change in good { #expect(Self.refusal(of: change) == nil, "\(change)") }
    }

    @Test("a log written before the rule is laid as it is: its changes were accepted when made")
    func layingKeepsThePast() {
        let laid = Self.schedule.laying([.gameEdited(GameEdit(game: "g1", start: "11:00\u{0}"))])
        #expect(laid.conflicts.isEmpty && laid.schedule.game("g1")?.start == "11:00\u{0}")
    }

    @Test("an organiser's reason is held to the same rule: the game refuses it with invalid_reason")
    func decisions() {
        var book = Scorebook()
        #expect(book.refusal(.forfeit(side: .home, reason: "late\u{2066}")) == .invalidReason)
        #expect(book.refusal(.forfeit(side: .home, reason: "late\r")) == .invalidReason)
        #expect(book.refusal(.forfeit(side: .home, reason: "遅刻\n二度目")) == nil)
    }
}
