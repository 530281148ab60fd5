public import CourtsideModel

/// A durable, append-only log of committed game events, and of the commands games refused.
///
/// Calls are synchronous and may block on disk; the game library makes them from threads of its
/// own, never from Swift's cooperative pool: appends from whoever commits, one at a time, and
/// ``writeCheckpoint(_:)`` from its checkpoint thread, beside them.
public protocol EventLog: Sendable {
    /// Every event in the log, in sequence order.
    func readAll() throws -> [GameEvent]
    /// Every refusal in the log, oldest first.
    func readRefusals() throws -> [CommandRefusal]
    /// Appends a batch of events and refusals in one transaction. When this returns, the batch
    /// survives a crash or a power loss; when it throws, none of it was written.
    func append(_ events: [GameEvent], refusals: [CommandRefusal]) throws
    /// One game's events in order: its full audit trail. Reads never wait for the writer.
    func events(ofGame game: GameID) async throws -> [GameEvent]
    /// Whether the log holds an event or a refusal of this command (a look-up by index).
    func contains(_ origin: CommandOrigin) async throws -> Bool
    /// Flushes and releases the log. Further calls fail.
    func close() throws

    /// The events with a sequence greater than `sequence`, in order: what a checkpoint leaves to replay.
    func readEvents(after sequence: Int64) throws -> [GameEvent]
    /// One game's events in order, read at once on the calling thread: the library reads the
    /// tournament's stream (``GameID/tournament``) this way when it opens, checkpoint or not.
    func readEvents(ofGame game: GameID) throws -> [GameEvent]
    /// Calls `body` with every command's answer the log holds, events and refusals, in the order
    /// of ``LoggedAnswer/merge(nextEvent:refusals:_:)``, without decoding the events' payloads:
    /// what the retry memory is rebuilt from. Streamed, since a long log holds millions.
    func forEachAnswer(_ body: (LoggedAnswer) throws -> Void) throws
    /// The latest checkpoint; nil when the log has none. Throws ``CheckpointError`` when one
    /// exists but cannot be used: the caller then replays the whole log, which loses nothing.
    func readCheckpoint() throws -> Checkpoint?
    /// The sequence of the checkpoint ``readCheckpoint()`` would read, without its games; nil
    /// when there is none, or when the log cannot tell without reading them. A start reads the
    /// events after it while the checkpoint's games are read and decoded.
    func checkpointSequence() throws -> Int64?
    /// Writes a part of a checkpoint in a transaction of its own. The library calls it from a
    /// thread of its own while appends go on: a log must not make either wait for the other
    /// (the SQLite log keeps its checkpoints in a file of their own for this).
    func writeCheckpoint(_ part: CheckpointPart) throws
}

/// Logs that keep no checkpoints (wrappers in tests, say) still serve a full replay.
extension EventLog {
    public func readEvents(after sequence: Int64) throws -> [GameEvent] {
        try readAll().filter { $0.sequence > sequence }
    }

    public func forEachAnswer(_ body: (LoggedAnswer) throws -> Void) throws {
        var events = try readAll().makeIterator()
        try LoggedAnswer.merge(nextEvent: { events.next().map(LoggedAnswer.init) }, refusals: try readRefusals(), body)
    }

    public func readEvents(ofGame game: GameID) throws -> [GameEvent] {
        try readAll().filter { $0.gameID == game }
    }

    public func readCheckpoint() throws -> Checkpoint? { nil }

    public func checkpointSequence() throws -> Int64? { nil }

    public func writeCheckpoint(_ part: CheckpointPart) throws {}

    /// A whole checkpoint of `sequence` in one transaction: the `changed` games (every game, when
    /// `complete`), put in force at once.
    public func writeCheckpoint(sequence: Int64, changed: [Game], complete: Bool, gameCount: Int) throws {
        try writeCheckpoint(
            CheckpointPart(
                sequence: sequence, states: changed.map(CheckpointPart.State.init), first: true, complete: complete,
                completion: gameCount))
    }
}

/// The answer a command got, as the log records it: one per event (a command's last event is
/// its receipt) and one per refusal.
public struct LoggedAnswer: Hashable, Sendable {
    public enum Outcome: Hashable, Sendable {
        case event(game: GameID, version: Int, sequence: Int64)
        case refusal(CommandRefusal)
    }

    public var origin: CommandOrigin
    public var at: Timestamp
    public var outcome: Outcome

    public init(origin: CommandOrigin, at: Timestamp, outcome: Outcome) {
        self.origin = origin
        self.at = at
        self.outcome = outcome
    }

    public init(_ event: GameEvent) {
        self.init(
            origin: event.origin, at: event.at,
            outcome: .event(game: event.gameID, version: event.version, sequence: event.sequence))
    }

    /// The events' answers in sequence order, each refusal (oldest first) just before the first
    /// event later than it: one order, whoever reads the log, and for events in time order the
    /// order of time (events first when times are equal).
    public static func merge(
        nextEvent: () throws -> LoggedAnswer?, refusals: [CommandRefusal], _ body: (LoggedAnswer) throws -> Void
    ) throws {
        var next = refusals.startIndex
        func emitRefusals(before time: Timestamp?) throws {
            while next < refusals.endIndex, time.map({ refusals[next].at < $0 }) ?? true {
                let refusal = refusals[next]
                try body(LoggedAnswer(origin: refusal.origin, at: refusal.at, outcome: .refusal(refusal)))
                next += 1
            }
        }
        while let event = try nextEvent() {
            try emitRefusals(before: event.at)
            try body(event)
        }
        try emitRefusals(before: nil)
    }
}

/// Some of the games of a checkpoint, written in one transaction. A checkpoint reflects one
/// sequence (an event already in the log) and holds the games changed since the previous one
/// (every game, when `complete`); it may take several parts, and is in force only once its last
/// part, which carries the `completion`, is written.
public struct CheckpointPart: Sendable {
    /// A game's state in the form ``CheckpointCoding`` writes.
    public struct State: Sendable {
        public var game: GameID
        public var bytes: [UInt8]

        public init(game: GameID, bytes: [UInt8]) {
            self.game = game
            self.bytes = bytes
        }

        public init(_ game: Game) { self.init(game: game.id, bytes: CheckpointCoding.encode(game)) }
    }

    public var sequence: Int64
    public var states: [State]
    /// The checkpoint's first part: one of every game first drops whatever rows earlier attempts
    /// left at or after its sequence.
    public var first: Bool
    public var complete: Bool
    /// In the last part: how many games exist, for the reader to check. The checkpoint is then
    /// put in force.
    public var completion: Int?

    public init(sequence: Int64, states: [State], first: Bool, complete: Bool, completion: Int?) {
        self.sequence = sequence
        self.states = states
        self.first = first
        self.complete = complete
        self.completion = completion
    }
}

/// The state of every game as of one event of the log.
public struct Checkpoint: Sendable {
    /// The sequence of the last event the games reflect.
    public var sequence: Int64
    /// That event's time.
    public var at: Timestamp
    public var games: [Game]

    public init(sequence: Int64, at: Timestamp, games: [Game]) {
        self.sequence = sequence
        self.at = at
        self.games = games
    }
}

/// Why a checkpoint in the log cannot be used.
public struct CheckpointError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
