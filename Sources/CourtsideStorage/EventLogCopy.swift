public import CourtsideModel

/// Copies one event log into another, on any engines, and checks the copy event by event: how a
/// venue that started on SQLite moves to PostgreSQL, and back.
///
/// A copy reads every event and refusal of the source, refuses a target that already holds any,
/// appends in batches (each one ``EventLog/append(_:refusals:)``, one transaction), then reads
/// the target back and compares it with what it read, field by field. Checkpoints are not
/// copied: they are derived from the events, and the daemon that opens the copy rebuilds the
/// games by replaying it (and writes new checkpoints as it goes).
///
/// Both logs must be still while it runs: no daemon may write to either. Both logs are held in
/// memory at once while the copy is checked.
public enum EventLogCopy {
    /// How many events one transaction of a copy appends unless told otherwise.
    public static let defaultBatchSize = 1_000

    /// What a copy or a check found: how much the logs hold, and how long it took.
    public struct Report: Sendable, Equatable {
        public var events: Int
        public var refusals: Int
        /// How many games have events, the tournament's own stream (``GameID/tournament``) not counted.
        public var games: Int
        /// Whether the tournament's own stream has events.
        public var tournamentStream: Bool
        /// How many transactions the copy appended (0 for a check).
        public var batches: Int
        public var duration: Duration

        public init(events: Int, refusals: Int, games: Int, tournamentStream: Bool, batches: Int, duration: Duration) {
            self.events = events
            self.refusals = refusals
            self.games = games
            self.tournamentStream = tournamentStream
            self.batches = batches
            self.duration = duration
        }

        init(events: [GameEvent], refusals: [CommandRefusal], batches: Int, duration: Duration) {
            let games = Set(events.lazy.map(\.gameID))
            self.init(
                events: events.count, refusals: refusals.count, games: games.subtracting([.tournament]).count,
                tournamentStream: games.contains(.tournament), batches: batches, duration: duration)
        }
    }

    /// Copies every event and refusal of `source` into `target`, `batchSize` events a transaction,
    /// then checks the target against them. Throws ``EventLogCopyError`` when the target is not
    /// empty (nothing is then written) or differs afterwards; `progress` hears how many events
    /// are in after each batch.
    ///
    /// A copy that fails part way leaves the batches it appended: empty the target (a new
    /// directory, a new database) before copying again.
    @discardableResult
    public static func copy(
        from source: any EventLog, to target: any EventLog, batchSize: Int = defaultBatchSize,
        progress: (_ copied: Int, _ total: Int) -> Void = { _, _ in }
    ) throws -> Report {
        let clock = ContinuousClock()
        let start = clock.now
        try checkEmpty(target)
        let events = try source.readAll()
        let refusals = try source.readRefusals()
        let batches = Self.batches(events, refusals, size: max(1, batchSize))
        var copied = 0
        for batch in batches {
            try target.append(batch.events, refusals: batch.refusals)
            copied += batch.events.count
            progress(copied, events.count)
        }
        if let difference = EventLogDifference.first(
            events: events, try target.readAll(), refusals: refusals, try target.readRefusals())
        {
            throw EventLogCopyError.logsDiffer(difference)
        }
        return Report(events: events, refusals: refusals, batches: batches.count, duration: clock.now - start)
    }

    /// Checks that `target` holds what `source` holds, event by event and refusal by refusal,
    /// writing nothing. Throws ``EventLogCopyError`` naming the first difference.
    @discardableResult
    public static func verify(_ source: any EventLog, against target: any EventLog) throws -> Report {
        let clock = ContinuousClock()
        let start = clock.now
        let events = try source.readAll()
        let refusals = try source.readRefusals()
        if let difference = EventLogDifference.first(
            events: events, try target.readAll(), refusals: refusals, try target.readRefusals())
        {
            throw EventLogCopyError.logsDiffer(difference)
        }
        return Report(events: events, refusals: refusals, batches: 0, duration: clock.now - start)
    }

    /// What one transaction of a copy appends.
    struct Batch: Equatable {
        var events: [GameEvent]
        var refusals: [CommandRefusal]
    }

    /// The events in batches of `size`, each refusal (in order) in the batch of the first event
    /// later than it, as ``LoggedAnswer/merge(nextEvent:refusals:_:)`` places it; the rest in
    /// the last batch. A log keeps its refusals in the order they were appended, so the target
    /// lists them as the source does.
    static func batches(_ events: [GameEvent], _ refusals: [CommandRefusal], size: Int) -> [Batch] {
        var batches: [Batch] = []
        var nextRefusal = refusals.startIndex
        for start in stride(from: events.startIndex, to: events.endIndex, by: size) {
            let slice = events[start..<min(start + size, events.endIndex)]
            let last = slice[slice.endIndex - 1].at
            var end = nextRefusal
            while end < refusals.endIndex, refusals[end].at < last { end += 1 }
            batches.append(Batch(events: Array(slice), refusals: Array(refusals[nextRefusal..<end])))
            nextRefusal = end
        }
        if nextRefusal < refusals.endIndex {
            if batches.isEmpty { batches.append(Batch(events: [], refusals: [])) }
            batches[batches.count - 1].refusals += refusals[nextRefusal...]
        }
        return batches
    }

    /// Throws unless `log` holds neither events nor refusals. Reads no further than its first
    /// event: a long log is not read through to be refused.
    private static func checkEmpty(_ log: any EventLog) throws {
        struct FoundAnEvent: Error {}
        var hasEvents = false
        do {
            try log.forEachAnswer { answer in
                guard case .event = answer.outcome else { return }
                hasEvents = true
                throw FoundAnEvent()
            }
        } catch is FoundAnEvent {}
        let refusals = try log.readRefusals().count
        if hasEvents || refusals > 0 { throw EventLogCopyError.targetNotEmpty(hasEvents: hasEvents, refusals: refusals) }
    }
}
