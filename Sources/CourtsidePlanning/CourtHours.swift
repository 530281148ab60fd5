import CourtsideModel

/// A stretch of a court's time, in minutes since midnight: a game starts at `from` or later and
/// ends by `until`.
struct Window: Hashable, Sendable {
    var from: Int
    var until: Int

    /// No end: the courts of a day that is allowed to run on.
    static let open = Int.max / 4
}

extension Venue {
    /// Why the venue cannot be planned on, or nil.
    func problem() -> String? {
        if courts.isEmpty { return "the venue has no courts" }
        if gameMinutes <= 0 { return "a game must last at least a minute, not \(gameMinutes)" }
        if changeoverMinutes < 0 { return "the changeover cannot be negative (\(changeoverMinutes) minutes)" }
        if restMinutes < 0 { return "the rest cannot be negative (\(restMinutes) minutes)" }
        if start >= end { return "the day ends (\(end)) before it starts (\(start))" }
        var names = Set<String>()
        for court in courts {
            if let problem = TextRule.problem(court.name, as: .line) { return "court: \(problem)" }
            if !names.insert(court.name).inserted { return "court \(court.name) is given twice" }
            var last: Window?
            for hours in court.hours {
                let window = Window(from: (hours.from ?? start).minutes, until: (hours.until ?? end).minutes)
                if window.until <= window.from {
                    return "court \(court.name): its hours end (\(hours.until ?? end)) before they start (\(hours.from ?? start))"
                }
                if let last, window.from < last.until {
                    let from = hours.from ?? start
                    return "court \(court.name): its hours from \(from) overlap or come before the hours before them"
                }
                last = window
            }
        }
        return nil
    }

    /// Each court's windows within the day. Relaxed, a window that lasts to the day's end (or
    /// past it) runs on without end: the day the games would need.
    func windows(relaxed: Bool) -> [[Window]] {
        courts.map { court in
            let hours = court.hours.isEmpty ? [Hours()] : court.hours
            return hours.compactMap { hours -> Window? in
                let from = max((hours.from ?? start).minutes, start.minutes)
                let until = (hours.until ?? end).minutes
                if until >= end.minutes {
                    if relaxed { return Window(from: from, until: Window.open) }
                    return from < end.minutes ? Window(from: from, until: end.minutes) : nil
                }
                return from < until ? Window(from: from, until: until) : nil
            }
        }
    }
}
