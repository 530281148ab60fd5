import CourtsideEvent
import CourtsideLocalization
import CourtsideModel
import CourtsideViewModels

/// The Setup page's form (`desk-setup`): every field with its label, its value as typed, and
/// the problem tied to it, if the last review found one there; the problem again, in words, at
/// the top. Made from a ``SetupForm``, so it is tested without a gateway.
struct DeskSetupPage {
    /// A text field (or a number, or a textarea): the template gives each a label, and ties
    /// its problem to it (`aria-describedby`, `aria-invalid`).
    struct Field {
        var name: String
        var label: String
        var value: String
        /// A few words under the field.
        var hint: String?
        var problem: String?
        /// `text` or `number`.
        var type = "text"
        /// Stored, as everything a template reads.
        var invalid: Bool
        /// The ids of the hint and the problem, for `aria-describedby`; nil when it has neither.
        var describedBy: String?

        init(
            _ name: String, _ label: String, _ value: String, hint: String? = nil, type: String = "text",
            problem: SetupForm.Problem?
        ) {
            (self.name, self.label, self.value, self.hint, self.type) = (name, label, value, hint, type)
            self.problem = problem?.field == name ? problem?.message : nil
            invalid = self.problem != nil
            let ids = [hint.map { _ in "\(name)-hint" }, self.problem.map { _ in "\(name)-problem" }].compactMap { $0 }
            describedBy = ids.isEmpty ? nil : ids.joined(separator: " ")
        }
    }

    /// A choice of a list, as the schedule page's.
    typealias Option = DeskSchedulePage.Option

    /// A choice among options: a select with its label.
    struct Choice {
        var field: Field
        var options: [Option]
    }

    /// One division's block.
    struct Block {
        var legend: String
        var id: Field
        var name: Field
        var format: Choice
        var pools: Field
        var qualifiers: Field
        var bestOfNext: Field
        var legs: Field
        var rounds: Field
        /// Its rules preset, or the event's.
        var rules: Choice
        /// The format's yes-or-no options, each a checkbox.
        var checks: [Check]
    }

    /// A yes-or-no option: a checkbox, with the formats it is for.
    struct Check {
        var field: Field
        var checked: Bool
        /// The formats it applies to, in a few words.
        var applies: String
    }

    var lang: String
    var title: String
    var notice: DeskNotice?
    /// The last review's problem, at the top of the page (an alert).
    var problem: String?
    /// The problem in a sentence: "Not reviewed: ...".
    var problemText: String?
    var t: [String: String]
    var picker: LanguagePicker.Picker
    var tournament: Field
    var start: Field
    var end: Field
    var courts: Field
    var gameMinutes: Field
    var changeoverMinutes: Field
    var restMinutes: Field
    var rules: Choice
    var tieBreakers: Field
    var seed: Field
    var blocks: [Block]
    var csv: Field

    /// The page of `form`, every word in `words`' language.
    init(_ form: SetupForm, problem: SetupForm.Problem? = nil, notice: DeskNotice? = nil, words: Words = .english) {
        (lang, title, t) = (words.language.code, words(.deskSetupTitle), DeskWords.table(words))
        picker = LanguagePicker.picker(words, back: "/desk/setup")
        self.notice = notice
        // The problem in the page's language, the fields' and the top's alike.
        let problem = problem.map { SetupForm.Problem(field: $0.field, message: $0.text(words)) }
        self.problem = problem?.message
        problemText = problem.map { words(.deskSetupNotReviewed, ["problem": $0.message]) }
        tournament = Field("tournament", words(.deskSetupTournament), form.tournament, problem: problem)
        start = Field("start", words(.deskSetupStart), form.start, hint: words(.deskSetupStartHint), problem: problem)
        end = Field("end", words(.deskSetupEnd), form.end, hint: words(.deskSetupEndHint), problem: problem)
        courts = Field("courts", words(.deskSetupCourts), form.courts, hint: words(.deskSetupCourtsHint), problem: problem)
        gameMinutes = Field(
            "game_minutes", words(.deskSetupGameMinutes), form.gameMinutes, type: "number", problem: problem)
        changeoverMinutes = Field(
            "changeover_minutes", words(.deskSetupChangeoverMinutes), form.changeoverMinutes,
            hint: words(.deskSetupChangeoverHint), type: "number", problem: problem)
        restMinutes = Field(
            "rest_minutes", words(.deskSetupRestMinutes), form.restMinutes, hint: words(.deskSetupRestHint),
            type: "number", problem: problem)
        let presets = RulePresets.builtIn.keys.sorted()
        rules = Choice(
            field: Field("rules", words(.deskSetupRules), form.rules, problem: problem),
            options: presets.map { Option(value: $0, label: $0, selected: $0 == form.rules) })
        tieBreakers = Field(
            "tie_breakers", words(.deskSetupTieBreakers), form.tieBreakers,
            hint: words(.deskSetupTieBreakersHint, ["list": TieBreaker.allCases.map(\.rawValue).joined(separator: ", ")]),
            problem: problem)
        seed = Field("seed", words(.deskSetupSeed), form.seed, hint: words(.deskSetupSeedHint), problem: problem)
        csv = Field("csv", words(.deskSetupCSV), form.csv, hint: words(.deskSetupCSVHint), problem: problem)
        blocks = form.blocks.enumerated().map { index, block in
            Self.block(block, index: index, presets: presets, problem: problem, words: words)
        }
    }

    /// The block of the division at `index` (its fields named `division<index>_...`).
    private static func block(
        _ block: SetupForm.Block, index: Int, presets: [String], problem: SetupForm.Problem?, words: Words
    ) -> Block {
        let name = { (field: String) in SetupForm.blockField(index, field) }
        let number = ["number": words.number(index + 1)]
        let check = { (field: String, label: MessageKey, value: String, checked: Bool, applies: MessageKey) in
            Check(field: Field(name(field), words(label), value, problem: problem), checked: checked, applies: words(applies))
        }
        return Block(
            legend: words(index >= 2 ? .deskSetupDivisionOptional : .deskSetupDivision, number),
            id: Field(name("id"), words(.deskID), block.id, hint: words(.deskSetupIDHint), problem: problem),
            name: Field(name("name"), words(.deskTeamsName), block.name, problem: problem),
            format: Choice(
                field: Field(name("format"), words(.deskSetupFormat), block.format, problem: problem),
                options: FormatDescription.Kind.allCases.map {
                    Option(value: $0.rawValue, label: formatLabel($0, words: words), selected: $0.rawValue == block.format)
                }),
            pools: Field(
                name("pools"), words(.deskSetupPools), block.pools, hint: words(.deskSetupPoolsHint), type: "number",
                problem: problem),
            qualifiers: Field(
                name("qualifiers"), words(.deskSetupQualifiers), block.qualifiers, hint: words(.deskSetupQualifiersHint),
                type: "number", problem: problem),
            bestOfNext: Field(
                name("best_of_next"), words(.deskSetupBestOfNext), block.bestOfNext, hint: words(.deskSetupBestOfNextHint),
                type: "number", problem: problem),
            legs: Field(
                name("legs"), words(.deskSetupLegs), block.legs, hint: words(.deskSetupLegsHint), type: "number",
                problem: problem),
            rounds: Field(
                name("rounds"), words(.deskSetupRounds), block.rounds, hint: words(.deskSetupRoundsHint), type: "number",
                problem: problem),
            rules: Choice(
                field: Field(
                    name("rules"), words(.deskSetupRules), block.rules, hint: words(.deskSetupRulesHint), problem: problem),
                options: [Option(value: "", label: words(.deskSetupRulesEvent), selected: block.rules.isEmpty)]
                    + presets.map { Option(value: $0, label: $0, selected: $0 == block.rules) }),
            checks: [
                check("third_place", .deskSetupThirdPlace, "true", block.thirdPlace, .deskSetupAppliesKnockouts),
                check("fifth_to_eighth", .deskSetupFifthToEighth, "true", block.fifthToEighth, .deskSetupAppliesKnockouts),
                check("deal", .deskSetupDeal, "random", block.randomDeal, .deskSetupAppliesDeal),
                check("separate_clubs", .deskSetupSeparateClubs, "true", block.separateClubs, .deskSetupAppliesPools),
                check("reset", .deskSetupReset, "true", block.reset, .deskSetupAppliesDouble),
            ])
    }

    static func formatLabel(_ kind: FormatDescription.Kind, words: Words = .english) -> String {
        switch kind {
        case .roundRobin: words(.deskSetupFormatRoundRobin)
        case .pools: words(.deskSetupFormatPools)
        case .poolsKnockout: words(.deskSetupFormatPoolsKnockout)
        case .singleElimination: words(.deskSetupFormatSingle)
        case .doubleElimination: words(.deskSetupFormatDouble)
        case .swiss: words(.deskSetupFormatSwiss)
        }
    }
}

/// The Setup page's preview (`desk-setup-preview`): each division's pools and knockout, the day's
/// grid and figures, and the sentence that asks to publish, with the draft's token.
struct DeskSetupPreviewPage {
    var lang: String
    var title: String
    var t: [String: String]
    var picker: LanguagePicker.Picker
    /// The daemon's refusal of an earlier confirmation, or why it was not sent: an alert.
    var refusal: String?
    var summary: String
    var figures: [String]
    /// The seed, and whether any division's draw used it.
    var seed: String
    var divisions: [SetupPreview.Division]
    var courts: [String]
    var rows: [SetupPreview.Row]
    var token: String
    /// The form again, as it was filled.
    var back: String

    /// The preview of `draft`, every word in `words`' language.
    init(_ draft: SetupDraft, token: String, refusal: String? = nil, words: Words = .english) {
        (lang, title, t) = (words.language.code, words(.deskSetupPreviewTitle), DeskWords.table(words))
        // Back to the form as it was filled: the preview itself is a POST's answer.
        picker = LanguagePicker.picker(words, back: "/desk/setup?draft=\(token)")
        self.refusal = refusal
        summary = draft.summary(words)
        figures = draft.figures(words)
        seed =
            draft.draw.randomSeed == nil
            ? words(.deskSetupSeedUnused, ["seed": String(draft.seed)]) : String(draft.seed)
        let preview =
            words.language == .english ? draft.preview : SetupPreview(draft.draw.schedule, clubs: draft.clubs, words: words)
        divisions = preview.divisions
        courts = preview.courts
        rows = preview.rows
        self.token = token
        back = "/desk/setup?draft=\(token)"
    }
}

/// The answer to a confirmed draw: published, with where to look next.
struct DeskSetupDonePage {
    var lang: String
    var title: String
    var message: String
    var t: [String: String]
    var picker: LanguagePicker.Picker

    /// The page saying `message`, every word in `words`' language.
    init(message: String, words: Words = .english) {
        (lang, title, t) = (words.language.code, words(.deskSetupDoneTitle), DeskWords.table(words))
        picker = LanguagePicker.picker(words, back: "/desk/setup")
        self.message = message
    }
}
