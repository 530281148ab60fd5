import CourtsideViewModels
import Foundation

/// When the courts' lines (``CourtNow``) go out to the pages again: when they differ from those
/// last sent. They change with the games, and with the time alone (a game not started yet runs
/// later every minute), so they are looked at after every change of the view and at least every
/// ``interval`` besides.
struct CourtLinesWatch {
    /// How often the lines are looked at when nothing else changed.
    static let interval: TimeInterval = 5
    /// The lines the pages have.
    private(set) var sent: [CourtNow]
    private var due: Date

    /// Starts from the lines the pages were just sent (with a full state) at `now`.
    init(sent: [CourtNow], now: Date) {
        self.sent = sent
        due = now.addingTimeInterval(Self.interval)
    }

    /// The lines to send now, or nil when the pages have them already or it is not time to look.
    /// `lines` computes them; it is called only when `viewChanged` or the interval is over.
    mutating func check(viewChanged: Bool, now: Date, lines: () -> [CourtNow]) -> [CourtNow]? {
        guard viewChanged || now >= due else { return nil }
        due = now.addingTimeInterval(Self.interval)
        let fresh = lines()
        guard fresh != sent else { return nil }
        sent = fresh
        return fresh
    }
}
