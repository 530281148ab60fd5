import CourtsideEvent
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

    var title = "Courtside: setup"
    var notice: DeskNotice?
    /// The last review's problem, at the top of the page (an alert).
    var problem: String?
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

    init(_ form: SetupForm, problem: SetupForm.Problem? = nil, notice: DeskNotice? = nil) {
        self.notice = notice
        self.problem = problem?.message
        tournament = Field("tournament", "Tournament", form.tournament, problem: problem)
        start = Field("start", "Day starts", form.start, hint: "HH:MM, the first game's earliest start", problem: problem)
        end = Field("end", "Day ends", form.end, hint: "HH:MM, the last game's latest end; blank: midnight", problem: problem)
        courts = Field(
            "courts", "Courts", form.courts,
            hint: "One a line; a court open part of the day: Court 4 from 11:00 until 15:00", problem: problem)
        gameMinutes = Field("game_minutes", "Game (min)", form.gameMinutes, type: "number", problem: problem)
        changeoverMinutes = Field(
            "changeover_minutes", "Changeover (min)", form.changeoverMinutes, hint: "Between two games on a court",
            type: "number",
            problem: problem)
        restMinutes = Field(
            "rest_minutes", "Rest (min)", form.restMinutes, hint: "At least this long between two games of a team",
            type: "number", problem: problem)
        let presets = RulePresets.builtIn.keys.sorted()
        rules = Choice(
            field: Field("rules", "Rules", form.rules, problem: problem),
            options: presets.map { Option(value: $0, label: $0, selected: $0 == form.rules) })
        tieBreakers = Field(
            "tie_breakers", "Tie-breakers", form.tieBreakers,
            hint: "In order, commas between: " + TieBreaker.allCases.map(\.rawValue).joined(separator: ", "), problem: problem)
        seed = Field(
            "seed", "Seed", form.seed, hint: "Of random draws; blank: a new one, shown with the preview", problem: problem)
        csv = Field(
            "csv", "Teams (registration CSV)", form.csv,
            hint: "A header row (team name, player 1, player 2, ..., ranking points, club, division), then a team a line; "
                + "the division column says which division each team enters",
            problem: problem)
        blocks = form.blocks.enumerated().map { index, block in
            let name = { (field: String) in SetupForm.blockField(index, field) }
            let number = index + 1
            return Block(
                legend: "Division \(number)" + (index >= 2 ? " (optional: left blank, it is ignored)" : ""),
                id: Field(name("id"), "Id", block.id, hint: "Letters, digits, -: starts its games' ids", problem: problem),
                name: Field(name("name"), "Name", block.name, problem: problem),
                format: Choice(
                    field: Field(name("format"), "Format", block.format, problem: problem),
                    options: FormatDescription.Kind.allCases.map {
                        Option(value: $0.rawValue, label: Self.formatLabel($0), selected: $0.rawValue == block.format)
                    }),
                pools: Field(name("pools"), "Pools", block.pools, hint: "Pools formats", type: "number", problem: problem),
                qualifiers: Field(
                    name("qualifiers"), "Qualifiers per pool", block.qualifiers, hint: "Pools and knockout", type: "number",
                    problem: problem),
                bestOfNext: Field(
                    name("best_of_next"), "Best of next", block.bestOfNext, hint: "Best of the next rank across pools",
                    type: "number",
                    problem: problem),
                legs: Field(
                    name("legs"), "Legs", block.legs, hint: "Round robin and pools: 1 or 2", type: "number", problem: problem),
                rounds: Field(
                    name("rounds"), "Rounds", block.rounds, hint: "Swiss: paired live from the results", type: "number",
                    problem: problem),
                rules: Choice(
                    field: Field(name("rules"), "Rules", block.rules, hint: "Blank: the event's", problem: problem),
                    options: [Option(value: "", label: "The event's", selected: block.rules.isEmpty)]
                        + presets.map { Option(value: $0, label: $0, selected: $0 == block.rules) }),
                checks: [
                    Check(
                        field: Field(name("third_place"), "A game for third place", "true", problem: problem),
                        checked: block.thirdPlace, applies: "knockouts"),
                    Check(
                        field: Field(name("fifth_to_eighth"), "Games for places 5 to 8", "true", problem: problem),
                        checked: block.fifthToEighth, applies: "knockouts"),
                    Check(
                        field: Field(name("deal"), "Deal at random (the seed is kept)", "random", problem: problem),
                        checked: block.randomDeal, applies: "pools and Swiss; else snake order by seed"),
                    Check(
                        field: Field(name("separate_clubs"), "Teams of one club in different pools", "true", problem: problem),
                        checked: block.separateClubs, applies: "pools"),
                    Check(
                        field: Field(
                            name("reset"), "A grand final reset, if the losers' champion wins", "true", problem: problem),
                        checked: block.reset, applies: "double elimination"),
                ])
        }
    }

    static func formatLabel(_ kind: FormatDescription.Kind) -> String {
        switch kind {
        case .roundRobin: "Round robin"
        case .pools: "Pools"
        case .poolsKnockout: "Pools, then a knockout"
        case .singleElimination: "Single elimination"
        case .doubleElimination: "Double elimination"
        case .swiss: "Swiss"
        }
    }
}

/// The Setup page's preview (`desk-setup-preview`): each division's pools and knockout, the day's
/// grid and figures, and the sentence that asks to publish, with the draft's token.
struct DeskSetupPreviewPage {
    var title = "Courtside: setup preview"
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

    init(_ draft: SetupDraft, token: String, refusal: String? = nil) {
        self.refusal = refusal
        summary = draft.summary
        figures = draft.figures
        seed = draft.draw.randomSeed == nil ? "\(draft.seed) (not used: every division is dealt by seed)" : String(draft.seed)
        divisions = draft.preview.divisions
        courts = draft.preview.courts
        rows = draft.preview.rows
        self.token = token
        back = "/desk/setup?draft=\(token)"
    }
}

/// The answer to a confirmed draw: published, with where to look next.
struct DeskSetupDonePage {
    var title = "Courtside: published"
    var message: String
}
