/// Slows down PIN guessing: a few wrong PINs are free (people mistype), then every further try
/// from the same address waits twice as long as the last, up to ``maximumWait``.
///
/// A try counts as wrong from the moment it is heard (``attempt(_:now:)``), before the PIN is
/// checked, so tries sent at once on many connections are all counted; a right one is then
/// taken back (``succeeded(_:now:)``) but clears nothing: knowing one court's PIN must not buy
/// endless guesses at the others'. Pure: the caller passes the time and keeps the value under
/// its lock.
public struct PINThrottle: Sendable {
    /// Wrong PINs an address may send before it must wait.
    public var freeTries = 5
    /// The first wait; each further wrong PIN doubles it.
    public var firstWait: Duration = .seconds(1)
    public var maximumWait: Duration = .seconds(300)
    /// An address quiet for this long starts afresh.
    public var forgetAfter: Duration = .seconds(900)
    /// Addresses remembered at most; the oldest go first (a flood of addresses cannot grow it).
    public var capacity = 10_000

    /// What one address did lately.
    struct Record: Sendable {
        var wrong: Int
        var last: ContinuousClock.Instant
        var notBefore: ContinuousClock.Instant
    }

    private var records: [String: Record] = [:]

    public init() {}

    /// Whether a try from `address` is heard now, or how long it must wait.
    public enum Decision: Sendable, Equatable {
        case allowed
        case wait(Duration)
    }

    /// Whether a try from `address` is heard now; one that is counts as wrong until
    /// ``succeeded(_:now:)`` says otherwise.
    public mutating func attempt(_ address: String, now: ContinuousClock.Instant) -> Decision {
        var record =
            records[address].flatMap { now - $0.last < forgetAfter ? $0 : nil } ?? Record(wrong: 0, last: now, notBefore: now)
        if now < record.notBefore { return .wait(record.notBefore - now) }
        record.wrong += 1
        record.last = now
        record.notBefore = notBefore(after: record.wrong, now: now)
        if records[address] == nil, records.count >= capacity { forgetOldest() }
        records[address] = record
        return .allowed
    }

    /// The try just heard from `address` was a right PIN: it is not counted as wrong.
    public mutating func succeeded(_ address: String, now: ContinuousClock.Instant) {
        guard var record = records[address] else { return }
        record.wrong = max(0, record.wrong - 1)
        record.notBefore = notBefore(after: record.wrong, now: now)
        records[address] = record
    }

    /// When the next try is heard after `wrong` wrong ones.
    private func notBefore(after wrong: Int, now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        guard wrong >= freeTries else { return now }
        return now + min(maximumWait, firstWait * (1 << min(wrong - freeTries, 20)))
    }

    private mutating func forgetOldest() {
        // Rare (only at capacity): a tenth go at once, so the next few thousand inserts are cheap.
        let oldest = records.sorted { $0.value.last < $1.value.last }.prefix(max(1, capacity / 10))
        for (address, _) in oldest { records[address] = nil }
    }
}
