import CourtsidePlanning
import Foundation

extension PlannedEvent {
    /// The plan's figures in words, beside what no plan can beat, as `courtside tournament plan`
    /// prints them and the desk's Setup page shows them: the day's end against its lower bound,
    /// the longest wait, the smallest rest, court repeats, and each division's end.
    public var figureLines: [String] {
        var lines = [
            "day: \(figures.start) to \(figures.end); no plan can end before \(figures.lowerBound) "
                + "(courts' capacity \(figures.capacityBound), longest chain \(figures.chainBound)); "
                + "ratio \(String(format: "%.3f", figures.ratio))"
        ]
        if let wait = figures.longestWait, let median = figures.medianLongestWait {
            lines.append("longest wait between games: \(wait) min (median team's longest: \(median) min)")
        }
        if let rest = figures.smallestRest {
            lines.append("smallest rest: \(rest) min (asked: \(venue.restMinutes))")
        }
        lines.append(
            "most games of one team on one court: \(figures.mostGamesOnOneCourt); court repeats beyond need: \(figures.courtRepeats)"
        )
        for (division, end) in figures.divisionEnds.sorted(by: { $0.key < $1.key }) where figures.divisionEnds.count > 1 {
            let name = schedule.division(division)?.name ?? division
            lines.append("\(name) ends at \(end)")
        }
        return lines
    }

}
