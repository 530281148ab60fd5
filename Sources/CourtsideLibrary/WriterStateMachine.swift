import CourtsideModel

/// The log writer's state: whether the write path accepts commands, drains them for a close,
/// has failed or has closed; what waits for the next commit and who is to commit it; what is
/// being written; and whether callers may commit on their own threads.
///
/// A plain value without locks, threads or I/O (as postgres-nio's `ConnectionStateMachine`):
/// ``CommitWriter`` holds it under its lock and performs the actions its transitions return
/// (wake the writer, refuse the stranded commands, resume the closers), and its tests drive it
/// directly. `Entry` is what a command queues, `Closer` what a close waits with.
struct WriterStateMachine<Entry, Closer> {
    /// Where the write path is in its life.
    enum State {
        /// Accepting commands.
        case open
        /// Refusing new commands with `shutting_down`; the writer commits what was accepted,
        /// then stops, and `closers` resume.
        case closing(closers: [Closer])
        /// A commit failed: the games in memory are ahead of the log, so every command is
        /// refused with this failure from now on. `closers` is nil until a close is asked.
        case failed(CourtsideError, closers: [Closer]?)
        /// The writer has stopped; `failure` is the failure that came first, if one did.
        case closed(failure: CourtsideError?)
    }

    /// Who is to commit what is queued.
    enum Committer: Equatable {
        /// The caller that queued it under ``CommitPolicy/callersThread(when:)``, which commits
        /// it itself or hands it to the writer: the writer was not woken for it.
        case caller
        /// The writer, woken for it: later entries need not wake it again.
        case writer
    }

    /// Commands waiting for the next commit; never empty.
    struct Queued {
        var entries: [Entry]
        /// When the oldest of them was queued.
        let since: ContinuousClock.Instant
        var committer: Committer
    }

    /// What ``enqueue(eventCount:essential:wakesWriter:at:entry:)`` did.
    enum EnqueueAction {
        /// Queued; wake the writer if `wakeWriter`.
        case queued(wakeWriter: Bool)
        /// Not queued: the caller gets this error.
        case refused(CourtsideError)
    }

    /// What the writer does after a round (a batch taken, and committed if not empty).
    enum RoundEnd: Equatable {
        /// Waits to be woken.
        case sleep
        /// Goes round again at once: commands accepted just before a close are still queued.
        case again
        /// Writes its last checkpoint and stops (then ``writerStopped()``).
        case stop
    }

    /// What a close does at once.
    enum CloseAction: Equatable {
        /// Wakes the writer, which drains the queue and stops.
        case wakeWriter
        /// Nothing: the writer is stopping already; the closer resumes when it has.
        case wait
        /// Resumes the closer: the writer has stopped.
        case resume
    }

    private(set) var state: State = .open
    private(set) var queued: Queued?
    /// When the oldest command of the batch being written was queued; nil while none is being
    /// written. With ``queued``'s, how long the oldest command has waited for its commit.
    private(set) var writingSince: ContinuousClock.Instant?
    /// The sequence number of the next event queued.
    private(set) var nextSequence: Int64
    /// Until when callers' commits go through the writer, after a slow one on a caller's thread.
    private(set) var callerCommitsPausedUntil: ContinuousClock.Instant?
    /// The most commands that may wait for a commit before new ones are refused with `overloaded`.
    let queueLimit: Int

    init(nextSequence: Int64, queueLimit: Int) {
        self.nextSequence = nextSequence
        self.queueLimit = queueLimit
    }

    /// The failure that stopped the write path, if one did.
    var failure: CourtsideError? {
        switch state {
        case .open, .closing: nil
        case .failed(let failure, _): failure
        case .closed(let failure): failure
        }
    }

    /// When the oldest command not yet committed was queued, queued or being written.
    var oldestPending: ContinuousClock.Instant? {
        switch (writingSince, queued?.since) {
        case (let writing?, let queued?): min(writing, queued)
        case (let writing, let queued): writing ?? queued
        }
    }

    /// Whether any command waits for its commit, queued or being written.
    var isCommitting: Bool { writingSince != nil || queued != nil }

    // MARK: - Commands

    /// Queues a command of `eventCount` events: `entry` makes its entry from the sequence number
    /// of its first event. `essential` entries (the daemon's own: time running out, the bracket)
    /// pass a full queue; `wakesWriter` is false for a caller that commits its own commands.
    /// `now` is read only for a command that starts the queue: its time is the oldest's.
    mutating func enqueue(
        eventCount: Int, essential: Bool, wakesWriter: Bool, at now: @autoclosure () -> ContinuousClock.Instant,
        entry: (Int64) -> Entry
    ) -> EnqueueAction {
        switch state {
        case .open: break
        case .failed(let failure, _), .closed(failure: let failure?): return .refused(failure)
        case .closing, .closed(failure: nil):
            return .refused(CourtsideError(.shuttingDown, "the game library is shutting down"))
        }
        // The disk cannot keep up: refuse at once rather than grow without bound.
        if (queued?.entries.count ?? 0) >= queueLimit, !essential {
            return .refused(
                CourtsideError(.overloaded, "courtsided has \(queueLimit) commands waiting for the disk; retry shortly"))
        }
        let first = nextSequence
        nextSequence += Int64(eventCount)
        guard queued != nil else {
            queued = Queued(entries: [entry(first)], since: now(), committer: wakesWriter ? .writer : .caller)
            return .queued(wakeWriter: wakesWriter)
        }
        queued?.entries.append(entry(first))
        guard wakesWriter, queued?.committer == .caller else { return .queued(wakeWriter: false) }
        queued?.committer = .writer
        return .queued(wakeWriter: true)
    }

    /// Takes what is queued as the next batch, which is then being written. Only the holder of
    /// the writer's role calls it, and it writes the batch before it takes another.
    mutating func takeBatch() -> [Entry] {
        guard let taken = queued else { return [] }
        queued = nil
        writingSince = taken.since
        return taken.entries
    }

    /// The batch being written is durable.
    mutating func batchWritten() {
        writingSince = nil
    }

    /// The batch being written could not be written: from now on every command is refused with
    /// `failure`. Returns the entries queued meanwhile, to be refused with it too: nothing
    /// waits for a commit any more.
    mutating func batchFailed(_ failure: CourtsideError) -> [Entry] {
        writingSince = nil
        defer { queued = nil }
        switch state {
        case .open: state = .failed(failure, closers: nil)
        case .closing(let closers): state = .failed(failure, closers: closers)
        // A failed write path queues nothing, so nothing more is written: the first failure stands.
        case .failed, .closed: break
        }
        return queued?.entries ?? []
    }

    /// A caller that queued under ``CommitPolicy/callersThread(when:)`` leaves what is queued
    /// to the writer: whether the writer must be woken for it.
    mutating func handOverToWriter() -> Bool {
        guard queued?.committer == .caller else { return false }
        queued?.committer = .writer
        return true
    }

    // MARK: - Commits on callers' threads

    /// Whether a caller may commit on its own thread at `now`: not for a while after a slow one.
    func callerMayCommit(at now: ContinuousClock.Instant) -> Bool {
        callerCommitsPausedUntil.map { now >= $0 } ?? true
    }

    /// A caller's attempt to commit on its own thread took `duration`, ending at `now`: one
    /// slower than ``CommitPolicy/slowCallerCommit`` hands the callers' commits to the writer
    /// for ``CommitPolicy/callerCommitPause``. Returns whether it did.
    mutating func callerCommitTook(_ duration: Duration, endingAt now: ContinuousClock.Instant) -> Bool {
        guard duration > CommitPolicy.slowCallerCommit else { return false }
        callerCommitsPausedUntil = now + CommitPolicy.callerCommitPause
        return true
    }

    // MARK: - Closing

    /// Asks for a close: commands from now on are refused, and the writer drains the queue and
    /// stops. `closer` is resumed by ``writerStopped()``, or at once if the writer has stopped.
    mutating func close(_ closer: Closer) -> CloseAction {
        switch state {
        case .open:
            state = .closing(closers: [closer])
            return .wakeWriter
        case .closing(let closers):
            state = .closing(closers: closers + [closer])
            return .wait
        case .failed(let failure, let closers):
            state = .failed(failure, closers: (closers ?? []) + [closer])
            return closers == nil ? .wakeWriter : .wait
        case .closed:
            return .resume
        }
    }

    /// What the writer does after a round.
    func afterRound() -> RoundEnd {
        switch state {
        case .open, .failed(_, closers: nil): .sleep
        case .closing: queued == nil ? .stop : .again
        case .failed(_, closers: _?), .closed: .stop
        }
    }

    /// The writer has stopped: returns the closers to resume.
    mutating func writerStopped() -> [Closer] {
        switch state {
        case .open, .closed:
            return []
        case .closing(let closers):
            state = .closed(failure: nil)
            return closers
        case .failed(let failure, let closers):
            state = .closed(failure: failure)
            return closers ?? []
        }
    }
}
