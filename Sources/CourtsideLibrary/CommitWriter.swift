import CourtsideModel
import CourtsideStorage
import CourtsideThreads
import Dispatch
import Logging
import Metrics
import Synchronization

/// Commits queued commands to the log in batches, in sequence order, then applies them to the
/// ``CommittedView``, answers their callers, tells the subscribers and the ``Checkpointer``.
///
/// Commands enqueue synchronously from their game actor, which keeps each game's order, and
/// every command that arrives while a commit is in flight joins the next one (group commit):
/// one fsync serves them all. Disk I/O never runs on Swift's cooperative pool.
///
/// Whoever commits holds the writer's role: the writer thread, or a thread of the caller's that
/// commits its own commands while the writer is idle (``CommitPolicy``), saving the two
/// hand-overs between threads that a lone command would otherwise wait for. What is queued,
/// being written, draining or failed is a ``WriterStateMachine`` under one lock.
final class CommitWriter: Sendable {
    /// Commands committed in a burst after which the writer, once idle a second, gives freed
    /// memory back.
    static let trimAfterEvents = 10_000

    private typealias StateMachine = WriterStateMachine<CommitEntry, CheckedContinuation<Void, Never>>

    private let log: any EventLog
    private let view: CommittedView
    private let checkpointer: Checkpointer
    private let logger: Logger
    // Made once, not per commit: a handle per call looks the metric up in the registry.
    private let batchSizes = Recorder(label: "courtside_commit_batch_commands", aggregate: true)
    private let commitDurations = Timer(label: "courtside_commit_duration_seconds")
    private let state: Mutex<StateMachine>
    private let wake = DispatchSemaphore(value: 0)
    /// Held by whoever commits: commits go to the log one at a time and in sequence order. A
    /// checkpoint begins under it (its states are then exactly the log's up to its sequence);
    /// the checkpoint thread writes it without it.
    private let role = Mutex<Void>(())
    /// Wraps the answering of each commit's commands; see ``GameLibrary/answerCommits(within:)``.
    private let answering = Mutex<Answering?>(nil)

    /// The scope in a class of its own: a closure held in the generic `Mutex` itself is
    /// reabstracted on each read through `withLock`'s inout value and the thunk written back,
    /// wrapping it once more each commit (a malloc and a deeper call each time: a lone
    /// keeper's p50 went from about 250 to 420 µs within a 4,000-move run).
    private final class Answering: Sendable {
        let scope: AnsweringScope
        init(_ scope: @escaping AnsweringScope) { self.scope = scope }
    }
    /// The failure that stops the write path, as it happens; ends once the writer stops.
    let failures: AsyncStream<CourtsideError>
    private let failing: AsyncStream<CourtsideError>.Continuation

    /// Numbering continues after `lastSequence`; at most `queueLimit` commands wait for a commit.
    init(
        log: any EventLog, view: CommittedView, checkpointer: Checkpointer, lastSequence: Int64, queueLimit: Int,
        logger: Logger
    ) {
        self.log = log
        self.view = view
        self.checkpointer = checkpointer
        self.logger = logger
        state = Mutex(StateMachine(nextSequence: lastSequence + 1, queueLimit: queueLimit))
        (failures, failing) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        startThread(named: "courtside.log") { [self] in
            self.run()
        }
    }

    // MARK: - Commands

    /// Gives the events of `changes` the next sequence numbers and queues them, with the
    /// command's refusal if it was refused, for the next commit. Never blocks on I/O; callers await the returned ticket.
    /// Under a ``CommitPolicy/callersThread(when:)`` policy the writer is not woken: the caller
    /// commits, or hands the commit over, with ``commitQueued(here:)``. `essential` entries (the
    /// daemon's own: time running out, the bracket) pass a full queue.
    func enqueue(
        _ changes: consuming CommitChanges, refusal: CommandRefusal? = nil, essential: Bool = false,
        commit: CommitPolicy = .logWriter
    ) throws(CourtsideError) -> CommitTicket {
        let ticket = CommitTicket()
        let eventCount = changes.eventCount
        // Moved into the entry, not copied: a copy of a move's inline game retains each of its
        // fields, and the caller's releases them.
        var entry: CommitEntry? = CommitEntry(changes: changes, first: 0, refusal: refusal, ticket: ticket)
        // The clock is read under the lock, and only for a command that starts the queue: a read
        // for every command costs about 0.6% of the pool's samples under 16 keepers.
        let action = state.withLock { state in
            state.enqueue(
                eventCount: eventCount, essential: essential, wakesWriter: !commit.leavesCommitToCaller,
                at: ContinuousClock.now
            ) { first in
                var queued = entry.take()!
                queued.first = first
                return queued
            }
        }
        switch action {
        case .queued(let wakeWriter): if wakeWriter { wake.signal() }
        case .refused(let error): throw error
        }
        return ticket
    }

    /// Commits what is queued on the calling thread, which may block on the disk, if the writer
    /// is idle; otherwise wakes the writer, which commits it after what it is writing. `here`
    /// false (the caller finds it may not block after all) leaves it to the writer.
    ///
    /// For a lone command this spares the hand-over to the writer thread and the one back to
    /// the thread that answers it: the command's ticket settles here, before this returns.
    ///
    /// A commit here slower than ``CommitPolicy/slowCallerCommit`` (a slow or failing disk)
    /// hands the callers' commits to the writer for ``CommitPolicy/callerCommitPause``.
    func commitQueued(here: Bool) {
        let started = ContinuousClock.now
        guard here, state.withLock({ $0.callerMayCommit(at: started) }) else { return handOverToWriter() }
        let committedHere: Void? = role.withLockIfAvailable { _ in
            let batch = state.withLock { $0.takeBatch() }
            // Consumed: the commit takes the entries apart in place, which a second reference
            // to the array would make it copy first.
            if !batch.isEmpty { commit(consume batch) }
        }
        // A busy writer commits them after what it is writing.
        if committedHere == nil { handOverToWriter() }
        let now = ContinuousClock.now
        if state.withLock({ $0.callerCommitTook(now - started, endingAt: now) }) {
            logger.notice(
                "a commit took \((now - started).inMilliseconds) ms; commits go through the log writer alone for \(CommitPolicy.callerCommitPause)"
            )
        }
    }

    private func handOverToWriter() {
        if state.withLock({ $0.handOverToWriter() }) { wake.signal() }
    }

    /// Returns once no commit is being written (for tests: the writer still holds its role for a
    /// moment after a ticket settles).
    func waitUntilNotWriting() {
        role.withLock { _ in }
    }

    /// The failure that stopped the write path, if one did.
    var failure: CourtsideError? { state.withLock { $0.failure } }

    /// How long the oldest command not yet committed has waited; nil when none waits. It grows
    /// without bound while the writer is stuck (in fsync, say), which the watchdog looks for.
    var oldestPendingCommit: Duration? {
        state.withLock { $0.oldestPending }.map { .now - $0 }
    }

    /// Whether any command waits for its commit, queued or being written.
    var isCommitting: Bool { state.withLock { $0.isCommitting } }

    /// Commits what is queued, writes the last checkpoint and stops the writer.
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            switch state.withLock({ $0.close(continuation) }) {
            case .wakeWriter: wake.signal()
            case .wait: break
            case .resume: continuation.resume()
            }
        }
    }

    // MARK: - The writer thread

    private func run() {
        role.withLock { _ in checkpointer.beginIfDue() }
        // A second without commands ends a burst: what its commits freed goes back.
        var trimmer = IdleTrimmer(after: Self.trimAfterEvents)
        while true {
            if !trimmer.wait(wake) { continue }
            let committedCount = role.withLock { _ in
                let batch = state.withLock { $0.takeBatch() }
                let count = batch.count
                if count > 0 { commit(consume batch) }
                return count
            }
            trimmer.did(committedCount)
            switch state.withLock({ $0.afterRound() }) {
            case .sleep:
                continue
            case .again:
                // Commands accepted just before the close: go round again.
                wake.signal()
            case .stop:
                role.withLock { _ in checkpointer.close() }
                for closer in state.withLock({ $0.writerStopped() }) { closer.resume() }
                failing.finish()
                return
            }
        }
    }

    /// Writes `entries` to the log, then publishes them. Only the holder of the writer's role calls it.
    private func commit(_ entries: consuming [CommitEntry]) {
        let started = ContinuousClock.now
        let batch = CommittedBatch(consume entries)
        do {
            try log.append(batch.events, refusals: batch.shares.compactMap(\.refusal))
            // How well group commit works: commands per transaction, and what each fsync costs.
            batchSizes.record(batch.shares.count)
            commitDurations.recordNanoseconds((ContinuousClock.now - started).nanoseconds)
        } catch {
            fail(batch.shares.map(\.ticket), because: error)
            return
        }
        // Durable now: no longer pending, before anyone hears of it.
        state.withLock { $0.batchWritten() }
        let subscribers = view.apply(batch.updates, through: batch.events.last?.sequence)
        // The waiting commands first: a keeper's answer is what the round trip waits for, and
        // the committed view (what every read sees) already has its events.
        if let answering = answering.withLock({ $0 }) {
            answering.scope { Self.answer(batch) }
        } else {
            Self.answer(batch)
        }
        // The tournament's changes, rare, are no game's update: only the commits' subscribers take them.
        let changes = batch.tournamentChanges
        for subscriber in subscribers { subscriber.yield(batch.updates, tournament: changes) }
        checkpointer.committed(batch.events)
    }

    private static func answer(_ batch: borrowing CommittedBatch) {
        var offset = 0
        // Through a buffer pointer: the array's subscript retains each ticket for the call.
        batch.shares.withUnsafeBufferPointer { shares in
            for index in shares.indices {
                if let answer = batch.answer(ofShareAt: index, offset: offset) { shares[index].ticket.complete(answer) }
                offset += shares[index].eventCount
            }
        }
    }

    /// Has every later commit answer its commands inside `scope`.
    func answerCommits(within scope: @escaping AnsweringScope) {
        answering.withLock { $0 = Answering(scope) }
    }

    /// A failed commit leaves the in-memory games ahead of the log, so the library refuses
    /// everything from here on; a restart rebuilds from the log, which holds every
    /// acknowledged move.
    private func fail(_ tickets: [CommitTicket], because error: any Error) {
        // The detail (a path, SQLite's words) is for the log, not for every client.
        let failure = CourtsideError(
            .storageFailure, "the event log could not be written; courtsided restarts and rebuilds from the log")
        logger.critical("event log write failed; refusing further commands", metadata: ["error": "\(error)"])
        let stranded = state.withLock { $0.batchFailed(failure) }
        checkpointer.halt()
        for ticket in tickets + stranded.compactMap(\.ticket) { ticket.complete(.failure(failure)) }
        failing.yield(failure)
    }
}
