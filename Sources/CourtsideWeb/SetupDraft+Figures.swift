import CourtsideLocalization
import Foundation

extension SetupDraft {
    /// The plan's figures in `words`' language, as `courtside tournament plan` prints them in
    /// English (``PlannedEvent/figureLines``): the day against what no plan can beat, waits,
    /// rests, courts, and each division's end.
    func figures(_ words: Words) -> [String] {
        var lines = [
            words(
                .planDay,
                [
                    "start": "\(plan.start)", "end": "\(plan.end)", "bound": "\(plan.lowerBound)",
                    "capacity": "\(plan.capacityBound)", "chain": "\(plan.chainBound)",
                    "ratio": String(format: "%.3f", plan.ratio),
                ])
        ]
        if let wait = plan.longestWait, let median = plan.medianLongestWait {
            lines.append(words(.planWait, ["wait": words.number(wait), "median": words.number(median)]))
        }
        if let rest = plan.smallestRest {
            lines.append(words(.planRest, ["rest": words.number(rest), "asked": words.number(restMinutes)]))
        }
        lines.append(
            words(.planCourts, ["most": words.number(plan.mostGamesOnOneCourt), "repeats": words.number(plan.courtRepeats)]))
        for (division, end) in plan.divisionEnds.sorted(by: { $0.key < $1.key }) where plan.divisionEnds.count > 1 {
            lines.append(words(.planDivisionEnds, ["division": divisionNames[division] ?? division, "end": "\(end)"]))
        }
        return lines
    }
}
