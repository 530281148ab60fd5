/// What other threads hand the I/O thread (messages to send, jobs to run, subscriptions to cut)
/// and where the thread is in its life, as one value that a lock guards.
///
/// Each event returns what the caller does next (wake the thread, run a job elsewhere, resume a
/// stop), so the decisions live here and the transport only performs them. Generic over its jobs
/// and the stop's waiter (`UnownedJob` and a continuation in the transport), so that a test can
/// drive it with plain values.
struct TransportOutbox<Job: Sendable, Waiter: Sendable>: Sendable {
    /// Where the I/O thread is in its life.
    enum Lifecycle {
        /// Serving. `polling`: the thread found nothing to do and is about to poll (or polls), so
        /// new work must wake it; a thread that is awake sees new work before it polls.
        case serving(polling: Bool)
        /// ``ZMQTransport/stop()`` waits: the thread sends what is queued, then resumes it. Posts
        /// are refused; jobs still run on the thread. The stop woke the thread, so nothing
        /// else needs to.
        case stopRequested(Waiter)
        /// The thread took the stop and is closing its sockets: jobs wait for ``ended``.
        case stopping
        /// The loop has ended, for whatever reason: jobs run on the global executor.
        case ended
    }

    /// What a ``stop(_:)`` asks of its caller.
    enum StopAction {
        /// Wake the thread, which resumes the stop once it has sent what is queued.
        case wake
        /// The thread is awake and will see the stop; wait.
        case wait
        /// Already stopping or ended: resume at once.
        case resume
    }

    /// What ``enqueue(_:)`` asks of its caller.
    enum JobAction {
        case wake
        case wait
        /// The loop has ended: run the job on the global executor.
        case runElsewhere
    }

    /// What the I/O thread has been handed since it last looked.
    struct Handed {
        var messages: [OutgoingMessage] = []
        var jobs: [Job] = []
        var cut: Set<String> = []
        /// Set when the thread is to stop once it has sent the messages.
        var onStop: Waiter?

        var isEmpty: Bool { messages.isEmpty && jobs.isEmpty && cut.isEmpty && onStop == nil }
    }

    private(set) var lifecycle = Lifecycle.serving(polling: true)
    /// Messages, jobs (of tasks that prefer the transport's executor, in the order they came) and
    /// the user ids whose subscriptions to cut; ``Handed/onStop`` is unused here.
    private var pending = Handed()

    /// Adds messages to send; returns whether to wake the thread. Refused (false) once stopping.
    mutating func post(_ messages: some Collection<OutgoingMessage>) -> Bool {
        guard case .serving = lifecycle else { return false }
        pending.messages.append(contentsOf: messages)
        return takeWake()
    }

    /// Adds user ids whose event connections to cut; returns whether to wake the thread.
    mutating func cut(_ userIDs: Set<String>) -> Bool {
        guard case .serving = lifecycle else { return false }
        pending.cut.formUnion(userIDs)
        return takeWake()
    }

    /// Adds a job for the thread's next cycle, until the loop has ended.
    mutating func enqueue(_ job: Job) -> JobAction {
        if case .ended = lifecycle { return .runElsewhere }
        pending.jobs.append(job)
        return takeWake() ? .wake : .wait
    }

    /// Asks the thread to stop once it has sent what is queued, then resume `waiter`.
    mutating func stop(_ waiter: Waiter) -> StopAction {
        guard case .serving = lifecycle else { return .resume }
        let wake = takeWake()
        lifecycle = .stopRequested(waiter)
        return wake ? .wake : .wait
    }

    /// On the I/O thread as its poll returns: it is awake, and looks at what is handed over
    /// before it polls again, so hand-overs until then need not wake it. Without this, the
    /// first job that a request woke (its decision, enqueued from this very thread) sent a
    /// wake-up that the next poll then read: a syscall each way and a round of the loop, per move.
    mutating func awake() {
        if case .serving = lifecycle { lifecycle = .serving(polling: false) }
    }

    /// On the I/O thread: everything handed over so far. When there is nothing, the thread is
    /// marked as polling, so that the next hand-over wakes it.
    mutating func take() -> Handed {
        var handed = pending
        if case .stopRequested(let onStop) = lifecycle {
            handed.onStop = onStop
            lifecycle = .stopping
        }
        if !handed.isEmpty {
            pending = Handed()
        } else if case .serving = lifecycle {
            lifecycle = .serving(polling: true)
        }
        return handed
    }

    /// On the I/O thread once its loop has ended: the stop still waiting, if any, and the jobs
    /// that now run elsewhere.
    mutating func end() -> (onStop: Waiter?, jobs: [Job]) {
        var onStop: Waiter?
        if case .stopRequested(let waiting) = lifecycle { onStop = waiting }
        lifecycle = .ended
        defer { pending.jobs = [] }
        return (onStop, pending.jobs)
    }

    /// Whether the thread needs waking for work just added: at most once per poll.
    private mutating func takeWake() -> Bool {
        switch lifecycle {
        case .serving(let polling):
            lifecycle = .serving(polling: false)
            return polling
        case .stopRequested, .stopping, .ended:
            return false
        }
    }
}
