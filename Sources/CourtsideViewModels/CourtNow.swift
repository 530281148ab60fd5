public import CourtsideLocalization
public import CourtsideModel
public import Foundation

/// What a court is doing now and next, and how far it runs behind its schedule, from the games'
/// real start times (``Game/startedAt``) against the times the schedule gives: the desk's "Now",
/// and the line a screen shows ("next on Court 2: Bears v Wolves, about 10:50").
public struct CourtNow: Hashable, Sendable, Encodable {
    public var court: String
    /// The court's current game: the one in play, or the first still to play.
    public var current: CourtLineup.Entry?
    /// The game after it that is not final.
    public var next: CourtLineup.Entry?
    /// How many minutes the court runs behind (0 when on time or ahead); nil when the schedule
    /// gives the current game no time.
    public var minutesBehind: Int?
    /// "on time", "12 min behind", or nil when unknown.
    public var delayText: String?
    /// "next on Court 2: Bears v Wolves, about 10:50" (the scheduled time moved by the delay),
    /// or nil when nothing follows.
    public var nextLine: String?
    /// When the next game can be expected, on a 24-hour clock ("10:50"); nil when unknown.
    public var nextAbout: String?

    /// The court's state at `now`; `calendar` reads the schedule's "HH:MM" (the venue's time zone).
    /// The next game's time is its estimate where `estimates` has one (``DayEstimates``), else its
    /// scheduled time moved by the court's delay.
    /// `words`: the language of ``delayText`` and ``nextLine``.
    public init(
        lineup: CourtLineup, games: [GameID: Game], now: Date, calendar: Calendar, estimates: DayEstimates? = nil,
        words: Words = .english
    ) {
        court = lineup.court
        let open = lineup.entries.filter { $0.state != .final }
        current = open.first { $0.state == .live } ?? open.first
        next = current.flatMap { current in open.first { $0.game != current.game } }
        func scheduled(_ entry: CourtLineup.Entry?) -> Date? {
            guard let start = entry?.start, let (hour, minute) = TextRule.time(start) else { return nil }
            return calendar.date(bySettingHour: hour, minute: minute, second: 0, of: now)
        }
        // A game under way is as late as it started; one still to play, as late as now is past its time.
        if let due = scheduled(current) {
            let started = current.flatMap { games[$0.game]?.startedAt }.map {
                Date(timeIntervalSince1970: Double($0.rawValue) / 1000)
            }
            minutesBehind = max(0, Int((started ?? now).timeIntervalSince(due) / 60))
        }
        if let estimate = next.flatMap({ estimates?.estimates[$0.game] }) {
            nextAbout = estimate.time
        } else if let due = scheduled(next) {
            let expected = due.addingTimeInterval(Double(minutesBehind ?? 0) * 60)
            let parts = calendar.dateComponents([.hour, .minute], from: expected)
            nextAbout = "\(parts.hour ?? 0):\(String(format: "%02d", parts.minute ?? 0))"
        }
        self = worded(words)
    }

    /// The same court with its lines in `words`' language: each browser's stream gets the lines
    /// of the language its page speaks, from one computation of the court's state.
    public func worded(_ words: Words) -> CourtNow {
        var court = self
        court.delayText = minutesBehind.map { $0 == 0 ? words(.courtOnTime) : words.plural(.courtBehind, count: $0) }
        court.nextLine = next.map { next in
            let values = ["court": self.court, "game": next.title(words)]
            return nextAbout.map { words(.courtNextAbout, values.merging(["time": $0]) { $1 }) } ?? words(.courtNext, values)
        }
        return court
    }
}
