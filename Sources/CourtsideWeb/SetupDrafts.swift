import CourtsideModel

/// The Setup page's drafts, kept in the gateway under a random token between the review and
/// the confirmation: the draw reviewed is the draw published (the planner is not asked again,
/// and the draw never travels in the page: a body is at most 64 KiB).
///
/// Bounded: at most ``capacity`` drafts, each for ``lifetime``; a new draft past the bound
/// pushes out the oldest. A pure value, time passed in; the gateway holds it in a `Mutex`.
struct SetupDrafts {
    /// Where a draft stands.
    enum Stage: Sendable {
        /// Reviewed: confirming publishes it, named apart from games that exist outside the
        /// schedule then.
        case reviewed
        /// Sent once as this draw (its games named apart): confirming again sends the very
        /// same command, which the daemon applies once.
        case sent(PublishedDraw)
    }

    struct Entry: Sendable {
        var draft: SetupDraft
        var stage: Stage
        var made: ContinuousClock.Instant
    }

    static let capacity = 16
    static let lifetime: Duration = .seconds(30 * 60)

    private(set) var entries: [String: Entry] = [:]

    /// Keeps `draft` under `token`, made now, dropping the expired and, past the bound, the oldest.
    mutating func keep(_ draft: SetupDraft, token: String, now: ContinuousClock.Instant) {
        expire(now: now)
        while entries.count >= Self.capacity, let oldest = entries.min(by: { $0.value.made < $1.value.made })?.key {
            entries[oldest] = nil
        }
        entries[token] = Entry(draft: draft, stage: .reviewed, made: now)
    }

    /// The draft under `token`, if it is kept and not expired.
    mutating func entry(_ token: String, now: ContinuousClock.Instant) -> Entry? {
        expire(now: now)
        return entries[token]
    }

    /// Records that the draft under `token` went to the daemon as `draw`; later confirmations send it again.
    mutating func sent(_ token: String, as draw: PublishedDraw) {
        entries[token]?.stage = .sent(draw)
    }

    private mutating func expire(now: ContinuousClock.Instant) {
        entries = entries.filter { now - $0.value.made < Self.lifetime }
    }
}
