import CourtsideModel

/// A time of the tournament's day, in minutes since midnight: what the planner counts in.
///
/// It reads and writes the schedule's `H:MM`/`HH:MM` (``TextRule/time(_:)``). A time past
/// midnight (the end of a day that does not fit, say) is written `01:10 the next day`.
public struct TimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Minutes since midnight.
    public var minutes: Int

    public init(minutes: Int) { self.minutes = minutes }

    /// The time `text` writes (`H:MM` or `HH:MM`, 00:00 to 23:59), or nil when it is none.
    public init?(_ text: String) {
        guard let (hour, minute) = TextRule.time(text) else { return nil }
        minutes = hour * 60 + minute
    }

    /// Midnight at the end of the day: the latest a day may end.
    public static let endOfDay = TimeOfDay(minutes: 24 * 60)

    /// `HH:MM`, as ``ScheduledGame/start`` stores it (24:00 for the end of the day).
    public var description: String {
        let days = minutes / Self.endOfDay.minutes
        if minutes > Self.endOfDay.minutes {
            return Self.clock(minutes % Self.endOfDay.minutes) + (days == 1 ? " the next day" : " \(days) days later")
        }
        return Self.clock(minutes)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.minutes < rhs.minutes }

    /// `minutes` later.
    public func adding(_ minutes: Int) -> TimeOfDay { TimeOfDay(minutes: self.minutes + minutes) }

    private static func clock(_ minutes: Int) -> String {
        let hour = minutes / 60
        let minute = minutes % 60
        return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }
}
