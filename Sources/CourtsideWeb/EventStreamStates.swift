import CourtsideLocalization

/// The `state` message each language's new streams start with, encoded once for many: thousands
/// of phones opening the page at once would otherwise each have the whole tournament encoded for
/// them. A stream that joins within ``freshness`` of the last one made, with no broadcast since,
/// gets that one. Pure: ``LiveTournament`` keeps it under its subscribers' lock, with the time passed in.
struct EventStreamStates {
    /// How old a state may be: its `daemon_now` and running clocks' words are as of when it was
    /// made, so a page that starts from it runs its clocks this much behind at most, until
    /// its next event.
    let freshness: Duration
    private var made: [Language: Made] = [:]

    private struct Made {
        var generation: UInt64
        var at: ContinuousClock.Instant
        var message: EventStreamMessage?
    }

    init(freshness: Duration = .milliseconds(50)) { self.freshness = freshness }

    /// The state made for `language` at `generation` within ``freshness`` of `now`; nil when
    /// there is none (a state that could not be encoded is `.some(nil)`).
    func state(_ language: Language, generation: UInt64, now: ContinuousClock.Instant) -> EventStreamMessage?? {
        guard let made = made[language], made.generation == generation, now - made.at <= freshness else { return nil }
        return .some(made.message)
    }

    /// Keeps `message`, the state of the view at `generation`, made at `now`.
    mutating func keep(_ message: EventStreamMessage?, _ language: Language, generation: UInt64, now: ContinuousClock.Instant) {
        made[language] = Made(generation: generation, at: now, message: message)
    }
}
