import CourtsideEvent
import CourtsideLocalization
import CourtsideModel
import Foundation

/// The Setup page's form as the organiser filled it: the day, the courts, the slot, the rules,
/// up to ``blockCount`` divisions and the registration CSV, every value as typed (so the page
/// can show it again), and the event file's text it stands for (``eventFile()``), which
/// `courtside tournament plan` would read the same way.
struct SetupForm: Equatable, Sendable {
    /// One division's block: blank (no id and no name) is ignored.
    struct Block: Equatable, Sendable {
        var id = ""
        var name = ""
        /// A ``FormatDescription/Kind``'s raw value.
        var format = FormatDescription.Kind.poolsKnockout.rawValue
        var pools = ""
        var qualifiers = ""
        var bestOfNext = ""
        var thirdPlace = true
        var legs = "1"
        /// Rounds of a Swiss.
        var rounds = ""
        /// A double elimination's grand final reset.
        var reset = false
        /// Pools dealt at random (the seed recorded), not in snake order.
        var randomDeal = false
        /// Teams of one club in different pools where possible.
        var separateClubs = false
        /// Games for places 5 to 8 in a knockout.
        var fifthToEighth = false
        /// A rules preset of the division's own; blank: the event's.
        var rules = ""

        var isBlank: Bool { id.isEmpty && name.isEmpty }
    }

    /// Why the form stands for no event: the field it is about (its form name), if one, and
    /// what is wrong, in words.
    struct Problem: Error, Equatable {
        var field: String?
        /// In English, as the log and the tests read it.
        var message: String
        /// The form's own problems in the catalog's words; nil for the planner's.
        var worded: Worded?
        /// The planner's or the CSV reader's problem with its values, worded per request; nil
        /// for one said only in English (``message``).
        var event: EventProblem?

        /// A problem's key and values, and the label of the field it names (with its division's number).
        struct Worded: Sendable, Equatable {
            var key: MessageKey
            var values: [String: String] = [:]
            var label: MessageKey?
            var division = 0

            func text(_ words: Words) -> String {
                var values = values
                if let label {
                    let number = ["number": words.number(division)]
                    values["label"] = words(label, number.merging(["division": words(.deskSetupDivision, number)]) { $1 })
                }
                return words(key, values)
            }
        }

        init(field: String? = nil, message: String) { (self.field, self.message, worded) = (field, message, nil) }

        init(field: String?, _ worded: Worded) {
            (self.field, self.worded) = (field, worded)
            message = worded.text(.english)
        }

        /// The problem in `words`' language.
        func text(_ words: Words) -> String { worded?.text(words) ?? event?.text(words) ?? message }

        /// The same problem: the same field and the same English words.
        static func == (first: Problem, second: Problem) -> Bool {
            first.field == second.field && first.message == second.message
        }
    }

    /// Division blocks on the page; blank ones are ignored.
    static let blockCount = 3
    /// The name the event file gives the pasted CSV; every division reads it, split by its
    /// `division` column.
    static let csvName = "registration.csv"

    var tournament = "Courtside Summer 3x3"
    var start = "09:00"
    var end = "17:00"
    /// One court a line.
    var courts = "Court 1\nCourt 2\nCourt 3\nCourt 4"
    var gameMinutes = "10"
    var changeoverMinutes = "4"
    var restMinutes = "20"
    var rules = "fiba3x3"
    /// FIBA 3x3's order (Article 14), comma-separated.
    var tieBreakers = "head_to_head, average_points_scored, seed"
    /// Blank: a new one at each review.
    var seed = ""
    var csv = ""
    /// The blocks, ``blockCount`` of them: config/event.yaml's two divisions, then a blank one.
    var blocks = [
        Block(id: "open", name: "Open", pools: "4", qualifiers: "2", bestOfNext: "0", thirdPlace: true),
        Block(id: "women", name: "Women", pools: "2", qualifiers: "2", bestOfNext: "0", thirdPlace: false),
        Block(),
    ]

    init() {}

    /// The form of a posted body's fields; a field missing is blank (a checkbox: off).
    init(_ fields: [String: String]) {
        let text = { (name: String) in (fields[name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }
        tournament = text("tournament")
        start = text("start")
        end = text("end")
        courts = text("courts")
        gameMinutes = text("game_minutes")
        changeoverMinutes = text("changeover_minutes")
        restMinutes = text("rest_minutes")
        rules = text("rules")
        tieBreakers = text("tie_breakers")
        seed = text("seed")
        // The CSV as pasted (a browser sends a textarea's lines ended by CR LF): only its outer blank lines go.
        csv = (fields["csv"] ?? "").replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        blocks = (0..<Self.blockCount).map { index in
            let field = { (name: String) in text(Self.blockField(index, name)) }
            return Block(
                id: field("id"), name: field("name"), format: field("format"), pools: field("pools"),
                qualifiers: field("qualifiers"), bestOfNext: field("best_of_next"), thirdPlace: field("third_place") == "true",
                legs: field("legs"), rounds: field("rounds"), reset: field("reset") == "true",
                randomDeal: field("deal") == "random", separateClubs: field("separate_clubs") == "true",
                fifthToEighth: field("fifth_to_eighth") == "true", rules: field("rules"))
        }
    }

    /// A block's field's form name: `division-0-pools`.
    static func blockField(_ index: Int, _ name: String) -> String { "division-\(index)-\(name)" }

    /// The court names, one a line, blank lines left out.
    var courtNames: [String] { courtLines.map(\.name) }

    /// Each court line: its name, and its hours where it says "from HH:MM" and/or "until HH:MM"
    /// after the name ("Court 4 from 11:00 until 15:00"): a court open part of the day.
    var courtLines: [(name: String, from: String?, until: String?)] {
        courts.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .map { line in
                let hours = #/^(?<name>.+?)(?:\s+from\s+(?<from>\d{1,2}:\d{2}))?(?:\s+until\s+(?<until>\d{1,2}:\d{2}))?$/#
                guard let match = try? hours.wholeMatch(in: line) else { return (line, nil, nil) }
                return (String(match.output.name), match.output.from.map(String.init), match.output.until.map(String.init))
            }
    }

    /// A court as the event file writes it: its name, or `{name, from, until}` with its hours.
    static func court(_ line: (name: String, from: String?, until: String?)) -> String {
        guard line.from != nil || line.until != nil else { return quoted(line.name) }
        let hours = [line.from.map { "from: \(quoted($0))" }, line.until.map { "until: \(quoted($0))" }].compactMap { $0 }
        return "{name: \(quoted(line.name)), \(hours.joined(separator: ", "))}"
    }

    /// The seed typed, if any; a problem if it is no whole number.
    func typedSeed() throws(Problem) -> UInt64? {
        guard !seed.isEmpty else { return nil }
        guard let value = UInt64(seed) else { throw Problem(field: "seed", .init(key: .deskSetupProblemSeed)) }
        return value
    }

    /// The event file this form stands for, with the pasted CSV below it as comments (for the
    /// audit: the draw's `event` keeps it); or the first field that cannot be one.
    func eventFile() throws(Problem) -> String {
        func number(_ value: String, _ field: String, _ label: MessageKey) throws(Problem) -> Int {
            guard let number = Int(value), number >= 0 else {
                throw Problem(field: field, .init(key: .deskSetupProblemMinutes, label: label))
            }
            return number
        }
        func count(_ value: String, _ field: String, _ label: MessageKey, division: Int, _ example: Int) throws(Problem) -> Int {
            guard let number = Int(value), number >= 0 else {
                throw Problem(
                    field: field,
                    .init(key: .deskSetupProblemCount, values: ["example": "\(example)"], label: label, division: division))
            }
            return number
        }
        guard !tournament.isEmpty else { throw Problem(field: "tournament", .init(key: .deskSetupProblemTournament)) }
        guard !courtNames.isEmpty else { throw Problem(field: "courts", .init(key: .deskSetupProblemCourts)) }
        guard !start.isEmpty else { throw Problem(field: "start", .init(key: .deskSetupProblemStart)) }
        let breakers = tieBreakers.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
        if let unknown = breakers.first(where: { TieBreaker(rawValue: $0) == nil }) {
            let known = TieBreaker.allCases.map(\.rawValue).joined(separator: ", ")
            throw Problem(
                field: "tie_breakers", .init(key: .deskSetupProblemTieBreakers, values: ["unknown": unknown, "known": known]))
        }
        var lines = [
            "# The event as entered on the desk's Setup page; \(Self.csvName), as pasted, is below.",
            "tournament: \(Self.quoted(tournament))",
            "courts: [\(courtLines.map(Self.court).joined(separator: ", "))]",
            "start: \(Self.quoted(start))",
        ]
        if !end.isEmpty { lines.append("end: \(Self.quoted(end))") }
        lines.append("game_minutes: \(try number(gameMinutes, "game_minutes", .deskSetupLabelGameMinutes))")
        lines.append(
            "changeover_minutes: \(try number(changeoverMinutes, "changeover_minutes", .deskSetupLabelChangeoverMinutes))")
        lines.append("rest_minutes: \(try number(restMinutes, "rest_minutes", .deskSetupLabelRestMinutes))")
        if !rules.isEmpty { lines.append("rules: \(Self.quoted(rules))") }
        if !breakers.isEmpty { lines.append("tie_breakers: [\(breakers.joined(separator: ", "))]") }
        if let seed = try typedSeed() { lines.append("seed: \(seed)") }
        lines.append("divisions:")
        var described = 0
        for (index, block) in blocks.enumerated() where !block.isBlank {
            let field = { (name: String) in Self.blockField(index, name) }
            let division = index + 1
            guard !block.id.isEmpty else {
                throw Problem(field: field("id"), .init(key: .deskSetupProblemID, label: .deskSetupDivision, division: division))
            }
            guard let kind = FormatDescription.Kind(rawValue: block.format) else {
                throw Problem(
                    field: field("format"), .init(key: .deskSetupProblemFormat, label: .deskSetupDivision, division: division))
            }
            var format = ["type: \(kind.rawValue)"]
            switch kind {
            case .roundRobin:
                format.append("legs: \(try count(block.legs, field("legs"), .deskSetupLabelLegs, division: division, 1))")
            case .pools:
                format.append("pools: \(try count(block.pools, field("pools"), .deskSetupLabelPools, division: division, 4))")
                format.append("legs: \(try count(block.legs, field("legs"), .deskSetupLabelLegs, division: division, 1))")
                format += Self.dealing(block)
            case .poolsKnockout:
                format.append("pools: \(try count(block.pools, field("pools"), .deskSetupLabelPools, division: division, 4))")
                format += Self.dealing(block)
                format.append(
                    "qualifiers: \(try count(block.qualifiers, field("qualifiers"), .deskSetupLabelQualifiers, division: division, 2))"
                )
                if !block.bestOfNext.isEmpty {
                    format.append(
                        "best_of_next: \(try count(block.bestOfNext, field("best_of_next"), .deskSetupLabelBestOfNext, division: division, 0))"
                    )
                }
                format.append("third_place: \(block.thirdPlace)")
                if block.fifthToEighth { format.append("fifth_to_eighth: true") }
            case .singleElimination:
                format.append("third_place: \(block.thirdPlace)")
                if block.fifthToEighth { format.append("fifth_to_eighth: true") }
            case .doubleElimination:
                format.append("reset: \(block.reset)")
            case .swiss:
                format.append("rounds: \(try count(block.rounds, field("rounds"), .deskSetupLabelRounds, division: division, 1))")
                if block.randomDeal { format.append("deal: random") }
            }
            lines.append("  - id: \(Self.quoted(block.id))")
            if !block.name.isEmpty { lines.append("    name: \(Self.quoted(block.name))") }
            if !block.rules.isEmpty { lines.append("    rules: \(Self.quoted(block.rules))") }
            lines.append("    teams: \(Self.csvName)")
            lines.append("    format: { \(format.joined(separator: ", ")) }")
            described += 1
        }
        guard described > 0 else {
            throw Problem(field: Self.blockField(0, "id"), message: "Divisions: describe at least one (an id and a format)")
        }
        guard !csv.isEmpty else {
            throw Problem(field: "csv", message: "Teams: paste the registration CSV (a header row, then a team a line)")
        }
        lines.append("")
        lines += csv.split(separator: "\n", omittingEmptySubsequences: false).map { "# \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A pools format's deal options: at random, and clubs kept apart, when asked for.
    private static func dealing(_ block: Block) -> [String] {
        (block.randomDeal ? ["deal: random"] : []) + (block.separateClubs ? ["separate_clubs: true"] : [])
    }

    /// `value` as a YAML double-quoted scalar: every character kept, none read as YAML.
    static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\x" + String(scalar.value, radix: 16).leftPadded(2)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// The field an event's error is about, from the key path its message starts with
    /// (`divisions.1.format: ...`, `end: ...`), or the CSV's for the CSV's errors; nil when
    /// the error is about the whole day (it does not fit).
    func field(of error: EventError) -> String? {
        if error.code == .invalidCSV { return "csv" }
        let key = error.message.prefix { $0 != ":" && $0 != " " }
        let parts = key.split(separator: ".")
        guard let first = parts.first else { return nil }
        if first == "divisions", parts.count > 1, let number = Int(parts[1]) {
            // The event's divisions are the blocks that are not blank, in order.
            let described = blocks.indices.filter { !blocks[$0].isBlank }
            guard number < described.count else { return nil }
            // divisions.N.format.pools is the block's pools; divisions.N.format.type its format.
            var name = parts.count > 2 ? String(parts[2] == "format" && parts.count > 3 ? parts[3] : parts[2]) : "id"
            if name == "type" { name = "format" }
            let known = [
                "id", "name", "format", "pools", "qualifiers", "best_of_next", "third_place", "legs", "rounds", "reset", "deal",
                "separate_clubs", "fifth_to_eighth", "rules",
            ]
            return Self.blockField(described[number], known.contains(name) ? name : "id")
        }
        let general = ["tournament", "courts", "start", "end", "game_minutes", "changeover_minutes", "rest_minutes", "rules"]
        return general.contains(String(first)) ? String(first) : nil
    }
}

extension String {
    /// The string with `0`s before it up to `width` characters.
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
