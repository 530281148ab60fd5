import CourtsideModel
import CourtsideStorage
import Dispatch
import Foundation
import Logging
import Metrics
import Synchronization

/// The write path: numbers events, commits them in batches on a dedicated thread, then
/// publishes them in sequence order and settles the waiting commands.
///
/// Commands enqueue synchronously from their game actor, which keeps each game's order, and
/// every command that arrives while a commit is in flight joins the next one (group commit):
/// one fsync serves them all. Disk I/O never runs on Swift's cooperative pool.
final class GroupCommitter: Sendable {
    private struct Entry {
        var events: [GameEvent]
        /// The game's state after each event, for the committed view and subscribers.
        var games: [Game]
        /// Set when the command was refused: the ticket then settles with this refusal once it
        /// is durable (with any events found on the way, such as time running out).
        var refusal: CommandRefusal?
        var ticket: CommitTicket
    }

    private struct Queue {
        var nextSequence: Int64
        var entries: [Entry] = []
        var closing = false
        var failure: CourtsideError?
        var onExit: CheckedContinuation<Void, Never>?
        /// When the oldest entry still queued was queued, and when the oldest of the batch being
        /// written was: together, how long the oldest command has waited for its commit.
        var queuedSince: ContinuousClock.Instant?
        var writingSince: ContinuousClock.Instant?
    }

    /// What has been committed: the state every snapshot reads and every subscriber starts from.
    private struct Committed {
        var games: [GameID: Game]
        var sequence: Int64
        var subscribers: [Int: AsyncStream<GameUpdate>.Continuation] = [:]
        var nextSubscriber = 0
        var closed = false
    }

    /// The most commands that may wait for a commit before new ones are refused with `overloaded`.
    static let defaultQueueLimit = 100_000  // GameLibrary.init's default too

    private let log: any EventLog
    private let logger: Logger
    private let queueLimit: Int
    // Made once, not per commit: a handle per call looks the metric up in the registry.
    private let batchSizes = Recorder(label: "courtside_commit_batch_commands", aggregate: true)
    private let commitDurations = Timer(label: "courtside_commit_duration_seconds")
    private let queue: Mutex<Queue>
    private let committed: Mutex<Committed>
    private let wake = DispatchSemaphore(value: 0)

    init(log: any EventLog, games: [GameID: Game], lastSequence: Int64, queueLimit: Int = defaultQueueLimit, logger: Logger) {
        self.log = log
        self.logger = logger
        self.queueLimit = queueLimit
        queue = Mutex(Queue(nextSequence: lastSequence + 1))
        committed = Mutex(Committed(games: games, sequence: lastSequence))
        let thread = Thread { [self] in self.runWriter() }
        thread.name = "courtside.log-writer"
        thread.start()
    }

    /// Numbers `events` with the next sequence numbers and queues them, with the command's
    /// refusal if it was refused, for the next commit. Never blocks on I/O; callers await the
    /// returned ticket.
    /// `essential` entries (the daemon's own: time running out, the bracket) pass a full queue.
    func enqueue(_ events: [GameEvent], games: [Game], refusal: CommandRefusal? = nil, essential: Bool = false)
        throws(CourtsideError) -> CommitTicket
    {
        let ticket = CommitTicket()
        let wasIdle: Bool = try queue.withLock { (queue) throws(CourtsideError) -> Bool in
            if let failure = queue.failure { throw failure }
            if queue.closing { throw CourtsideError(.shuttingDown, "the game library is shutting down") }
            // The disk cannot keep up: refuse at once rather than grow without bound.
            if queue.entries.count >= queueLimit, !essential {
                throw CourtsideError(.overloaded, "courtsided has \(queueLimit) commands waiting for the disk; retry shortly")
            }
            var events = events
            for index in events.indices {
                events[index].sequence = queue.nextSequence
                queue.nextSequence += 1
            }
            queue.entries.append(Entry(events: events, games: games, refusal: refusal, ticket: ticket))
            if queue.entries.count == 1 { queue.queuedSince = .now }
            return queue.entries.count == 1
        }
        if wasIdle { wake.signal() }
        return ticket
    }

    /// The failure that stopped the write path, if one did.
    var failure: CourtsideError? { queue.withLock { $0.failure } }

    /// How long the oldest command not yet committed has waited; nil when none waits. It grows
    /// without bound while the writer is stuck (in fsync, say), which the watchdog looks for.
    var oldestPendingCommit: Duration? {
        let since = queue.withLock { queue in [queue.writingSince, queue.queuedSince].compactMap { $0 }.min() }
        return since.map { .now - $0 }
    }

    /// Every committed game and the sequence it reflects, read in one step.
    func snapshot() -> Snapshot<[GameID: Game]> {
        committed.withLock { Snapshot(value: $0.games, sequence: $0.sequence) }
    }

    /// A stream of every update committed from now on, in sequence order.
    ///
    /// Registration and snapshots share one lock, so "subscribe, then snapshot" never misses an
    /// event. When the consumer falls `bufferLimit` updates behind, newer ones are dropped; the
    /// consumer sees the gap in the sequence numbers and takes a new snapshot.
    func subscribe(bufferLimit: Int) -> AsyncStream<GameUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: GameUpdate.self, bufferingPolicy: .bufferingOldest(bufferLimit))
        let id: Int? = committed.withLock { committed in
            // After close, no update will ever come: end the stream at once.
            guard !committed.closed else { return nil }
            let id = committed.nextSubscriber
            committed.nextSubscriber += 1
            committed.subscribers[id] = continuation
            return id
        }
        if let id {
            continuation.onTermination = { [weak self] _ in
                _ = self?.committed.withLock { $0.subscribers.removeValue(forKey: id) }
            }
        } else {
            continuation.finish()
        }
        return stream
    }

    /// Commits what is queued, stops the writer and ends every subscription.
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let alreadyClosing = queue.withLock { queue in
                let was = queue.closing
                queue.closing = true
                if !was { queue.onExit = continuation }
                return was
            }
            if alreadyClosing {
                continuation.resume()
            } else {
                wake.signal()
            }
        }
        let subscribers = committed.withLock { committed in
            committed.closed = true
            defer { committed.subscribers = [:] }
            return Array(committed.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }

    // MARK: - The writer thread

    private func runWriter() {
        while true {
            wake.wait()
            let (batch, closing) = queue.withLock { queue in
                defer {
                    queue.entries = []
                    queue.writingSince = queue.queuedSince
                    queue.queuedSince = nil
                }
                return (queue.entries, queue.closing)
            }
            if !batch.isEmpty { commit(batch) }
            if closing {
                let onExit: CheckedContinuation<Void, Never>? = queue.withLock { queue in
                    guard queue.entries.isEmpty else { return nil }
                    defer { queue.onExit = nil }
                    return queue.onExit
                }
                if let onExit {
                    onExit.resume()
                    return
                }
                // More entries raced in before the close; go round again.
                wake.signal()
            }
        }
    }

    private func commit(_ batch: [Entry]) {
        let started = ContinuousClock.now
        do {
            try log.append(batch.flatMap(\.events), refusals: batch.compactMap(\.refusal))
            // How well group commit works: commands per transaction, and what each fsync costs.
            batchSizes.record(batch.count)
            commitDurations.recordNanoseconds((ContinuousClock.now - started).nanoseconds)
        } catch {
            fail(batch, because: error)
            return
        }
        // Durable now: no longer pending, before anyone hears of it.
        queue.withLock { $0.writingSince = nil }
        // Updates go out after the lock: a subscriber that registers meanwhile finds them in its
        // snapshot instead, so "subscribe, then snapshot" still misses nothing.
        let published = committed.withLock { committed -> (updates: [GameUpdate], to: [AsyncStream<GameUpdate>.Continuation]) in
            var updates: [GameUpdate] = []
            for entry in batch {
                for (event, game) in zip(entry.events, entry.games) {
                    committed.games[event.gameID] = game
                    committed.sequence = event.sequence
                    updates.append(GameUpdate(event: event, game: game))
                }
            }
            return (updates, Array(committed.subscribers.values))
        }
        // The waiting commands first: a keeper's answer is what the round trip waits for, and
        // the committed view (what every read sees) already has its events.
        for entry in batch {
            if let refusal = entry.refusal {
                entry.ticket.complete(.failure(refusal.error))
            } else if let last = entry.events.last {
                entry.ticket.complete(.success(Receipt(gameID: last.gameID, version: last.version, sequence: last.sequence)))
            }
        }
        for update in published.updates {
            for subscriber in published.to { subscriber.yield(update) }
        }
    }

    /// A failed commit leaves the in-memory games ahead of the log, so the library refuses
    /// everything from here on; a restart rebuilds from the log, which holds every
    /// acknowledged move.
    private func fail(_ batch: [Entry], because error: any Error) {
        // The detail (a path, SQLite's words) is for the log, not for every client.
        let failure = CourtsideError(
            .storageFailure, "the event log could not be written; courtsided restarts and rebuilds from the log")
        logger.critical("event log write failed; refusing further commands", metadata: ["error": "\(error)"])
        let stranded = queue.withLock { queue in
            queue.failure = failure
            queue.writingSince = nil
            defer { queue.entries = [] }
            return queue.entries
        }
        for entry in batch + stranded { entry.ticket.complete(.failure(failure)) }
    }
}
