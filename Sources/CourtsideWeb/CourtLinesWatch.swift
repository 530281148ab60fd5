import CourtsideViewModels
import Foundation

/// When the courts' lines (``CourtNow``) go out to the pages again: when they differ from those
/// last sent. They change with the games, and with the time alone (a game not started yet runs
/// later every minute), so they are looked at within ``soonest`` of a change of the view, and
/// every ``interval`` besides.
///
/// Never more often than ``soonest``, however many events come: every court's lines walk the
/// whole schedule (docs/FIGURES.md, "The pages", has their cost), too much to spend on every pump
/// of a busy event stream, and a screen's "next on" line may well follow its game a second late.
struct CourtLinesWatch {
    /// How soon after a change of the view the lines are looked at, at the most often.
    static let soonest: TimeInterval = 1
    /// How often the lines are looked at when nothing else changed.
    static let interval: TimeInterval = 5
    /// The lines the pages have.
    private(set) var sent: [CourtNow]
    private var looked: Date
    /// Whether the view changed since the lines were last looked at.
    private var changed = false

    /// Starts from the lines the pages were just sent (with a full state) at `now`.
    init(sent: [CourtNow], now: Date) {
        self.sent = sent
        looked = now
    }

    /// The lines to send now, or nil when the pages have them already or it is not time to look.
    /// `lines` computes them; it is called only when it is time to look.
    mutating func check(viewChanged: Bool, now: Date, lines: () -> [CourtNow]) -> [CourtNow]? {
        changed = changed || viewChanged
        let wait = changed ? Self.soonest : Self.interval
        guard now.timeIntervalSince(looked) >= wait else { return nil }
        (looked, changed) = (now, false)
        let fresh = lines()
        guard fresh != sent else { return nil }
        sent = fresh
        return fresh
    }
}
