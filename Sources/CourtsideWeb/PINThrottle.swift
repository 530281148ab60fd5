/// Slows down PIN guessing: a few wrong PINs are free (people mistype), then every further
/// wrong one from the same address doubles the wait before the next try is heard, up to
/// ``maximumWait``. A right PIN clears the address. Pure: the caller passes the time and keeps
/// the value under its lock.
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

    public func decision(for address: String, now: ContinuousClock.Instant) -> Decision {
        guard let record = records[address], now - record.last < forgetAfter, now < record.notBefore else { return .allowed }
        return .wait(record.notBefore - now)
    }

    /// Notes a try that was heard: a right PIN clears the address, a wrong one counts.
    public mutating func record(_ address: String, right: Bool, now: ContinuousClock.Instant) {
        guard !right else {
            records[address] = nil
            return
        }
        var record =
            records[address].flatMap { now - $0.last < forgetAfter ? $0 : nil } ?? Record(wrong: 0, last: now, notBefore: now)
        record.wrong += 1
        record.last = now
        if record.wrong >= freeTries {
            let doublings = min(record.wrong - freeTries, 20)
            record.notBefore = now + min(maximumWait, firstWait * (1 << doublings))
        }
        if records[address] == nil, records.count >= capacity { forgetOldest() }
        records[address] = record
    }

    private mutating func forgetOldest() {
        // Rare (only at capacity): a tenth go at once, so the next few thousand inserts are cheap.
        let oldest = records.sorted { $0.value.last < $1.value.last }.prefix(max(1, capacity / 10))
        for (address, _) in oldest { records[address] = nil }
    }
}
