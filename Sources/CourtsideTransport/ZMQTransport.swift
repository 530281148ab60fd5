import CourtsideThreads
import Foundation
public import Logging
import Synchronization
import ZeroMQ

/// Owns the daemon's ZeroMQ sockets on one dedicated thread, since sockets are not thread-safe.
///
/// Async code hands the thread outgoing messages through a locked queue plus a wake-up on a
/// pipe; the thread hands incoming requests out through ``requests``, all those of one
/// poll cycle at once, so that a busy daemon pays one hand-over per cycle rather than one per
/// request. No call blocks Swift's cooperative pool.
///
/// The transport is also a `TaskExecutor`: a task that prefers it (`withTaskExecutorPreference`)
/// runs on the I/O thread, between polls. The command loop does, so that a request is decided
/// on the thread that read it, with no wake-up of a pool thread on the way; such a task must
/// never block, since every socket waits while it runs. Once the thread has ended, jobs go to
/// the global executor instead.
public final class ZMQTransport: TaskExecutor, Sendable {
    /// Requests in arrival order, in batches: every request one poll cycle read. Ends when the
    /// transport stops.
    public let requests: RequestBatches
    /// The endpoints actually bound (with real ports when the configuration said `*`).
    public let boundCommandEndpoint: String
    public let boundEventEndpoint: String

    /// What other threads hand the I/O thread, and the thread's lifecycle.
    typealias Outbox = TransportOutbox<UnownedJob, CheckedContinuation<Void, Never>>

    private let outbox = Mutex(Outbox())
    /// Rounds of the I/O thread's loop so far; one at least every poll interval while it is healthy.
    private let cycles = Atomic<UInt64>(0)
    /// The I/O thread's `pthread_t` while it serves; 0 before and after.
    private let servingThread = Atomic<UInt>(0)
    /// The command socket while the I/O thread serves, for replies that its own jobs send.
    private let ioThreadRouter = IOThreadOwned()

    /// A socket only the I/O thread touches, set and read there alone.
    private final class IOThreadOwned: @unchecked Sendable {
        var router: ZMQSocket?
    }
    /// The thread inside ``deferringReplies(_:)``, 0 when none: its replies wait in ``held``.
    private let deferringThread = Atomic<UInt>(0)
    /// Replies held until the deferring thread's scope ends; only that thread touches them.
    private let held = HeldReplies()

    /// Replies that one thread at a time (the one in ``deferringThread``) reads and writes.
    private final class HeldReplies: @unchecked Sendable {
        var replies = ReplyBatch()
    }
    /// Wakes the I/O thread from its poll; any thread may signal it.
    private let waker: WakePipe
    private let context: ZMQContext
    private let logger: Logger

    private init(
        requests: RequestBatches, endpoints: (String, String), waker: WakePipe, context: ZMQContext, logger: Logger
    ) {
        self.requests = requests
        (boundCommandEndpoint, boundEventEndpoint) = endpoints
        self.waker = waker
        self.context = context
        self.logger = logger
    }

    /// Binds both endpoints on a new I/O thread and starts serving. Throws if either cannot be bound.
    public static func start(_ configuration: TransportConfiguration, logger: Logger) async throws -> ZMQTransport {
        let context = try ZMQContext(ioThreads: configuration.libzmqIOThreads)
        let waker: WakePipe
        do {
            waker = try WakePipe()
        } catch {
            context.terminate()
            throw error
        }
        // Unbounded as a stream of batches; the queue's limit counts the requests in them.
        let (stream, continuation) = AsyncStream.makeStream(of: [IncomingRequest].self)
        let requests = RequestBatches(stream: stream, continuation: continuation, queued: QueuedCount())
        let loop = IOLoop(
            configuration: configuration, context: context, waker: waker, requests: continuation,
            queued: requests.queued, logger: logger)
        // Everything that can fail after the thread has started happens on it, so a failed start
        // leaves no thread behind.
        // The thread binds, reports the endpoints (or the error, once its sockets are closed),
        // then serves until stopped.
        let endpoints: (String, String)
        do {
            endpoints = try await withCheckedThrowingContinuation { ready in
                startThread(named: ZMQTransport.ioThreadName) {
                    loop.run(ready: ready)
                }
            }
        } catch {
            waker.close()
            context.terminate()  // every socket is closed, so this returns at once
            throw error
        }
        let transport = ZMQTransport(
            requests: requests, endpoints: endpoints, waker: waker, context: context, logger: logger)
        loop.attach(transport)
        return transport
    }

    /// The I/O thread's name, as top, perf and /proc show it.
    public static let ioThreadName = "courtside.io"

    /// Whether the caller runs on the I/O thread, serving: a task that prefers this executor
    /// does, until the thread ends.
    public var isIOThread: Bool { servingThread.load(ordering: .relaxed) == pthread_self() }

    /// How many poll cycles the I/O thread has completed; stops growing once it hangs.
    public var completedCycles: UInt64 { cycles.load(ordering: .relaxed) }

    /// Called on the I/O thread as it starts serving (with its command socket) and as it stops
    /// (with nil, before it closes the socket).
    func serving(on thread: pthread_t, router: ZMQSocket?) {
        ioThreadRouter.router = router
        servingThread.store(router == nil ? 0 : thread, ordering: .relaxed)
    }

    func completedCycle() {
        cycles.add(1, ordering: .relaxed)
    }

    /// Sends a reply on the command socket to the peer the request came from.
    ///
    /// A job running on the I/O thread (a command decided and committed there) sends it at
    /// once, ahead of what else the job does and of what waits in the outbox: replies to
    /// different commands have no order on the wire anyway.
    public func reply(to request: IncomingRequest, body: [UInt8]) {
        if isIOThread, let router = ioThreadRouter.router {
            OutgoingMessage.send(envelope: request.envelope, body: body, on: router, logger: logger)
        } else if deferringThread.load(ordering: .relaxed) == pthread_self() {
            body.withUnsafeBytes { held.replies.append(envelope: request.envelope, body: $0) }
        } else {
            post(CollectionOfOne(.reply(envelope: request.envelope, body: body)))
        }
    }

    /// ``reply(to:body:)`` with the body lent, for the caller's buffer: inside
    /// ``deferringReplies(_:)`` it joins the scope's other replies in one buffer, and on the I/O
    /// thread it is sent from where it lies, so neither allocates for it.
    public func reply(to request: IncomingRequest, bytes: UnsafeRawBufferPointer) {
        if isIOThread, let router = ioThreadRouter.router {
            OutgoingMessage.send(envelope: request.envelope, body: bytes, on: router, logger: logger)
        } else if deferringThread.load(ordering: .relaxed) == pthread_self() {
            held.replies.append(envelope: request.envelope, body: bytes)
        } else {
            let body = [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, initialized in
                initialized = buffer.initialize(fromContentsOf: bytes)
            }
            post(CollectionOfOne(.reply(envelope: request.envelope, body: body)))
        }
    }

    /// Runs `body`, handing the replies it sends from this thread to the I/O thread as one post
    /// when it returns: one lock and at most one wake-up for them all.
    ///
    /// For the log writer's answers to one commit, which are known together: posted one by
    /// one, each found the I/O thread back in its poll and woke it again, about 3 wake-ups a
    /// commit at 16 keepers x 32 in flight. `body` must not wait for its replies to arrive.
    /// On the I/O thread (which sends at once), or while another thread defers, it just runs `body`.
    public func deferringReplies(_ body: () -> Void) {
        let thread = pthread_self()
        guard !isIOThread,
            deferringThread.compareExchange(expected: 0, desired: thread, ordering: .acquiring).exchanged
        else { return body() }
        body()
        if held.replies.count > 0 { post(CollectionOfOne(.replies(held.replies.take()))) }
        deferringThread.store(0, ordering: .releasing)
    }

    /// How many replies this thread holds in ``deferringReplies(_:)`` (for tests).
    var heldReplyCount: Int {
        deferringThread.load(ordering: .relaxed) == pthread_self() ? held.replies.count : 0
    }

    /// Publishes a two-frame message, topic then body, on the event socket.
    public func publish(topic: [UInt8], body: [UInt8]) {
        post(CollectionOfOne(.event(topic: topic, body: body)))
    }

    /// Cuts the event connections of these ZAP user ids (keys a reload removed): ZAP checks a key
    /// only when it connects, so without this a removed key would go on receiving events. The
    /// subscriber's reconnection then meets the new allowlist.
    public func disconnectSubscribers(_ userIDs: Set<String>) {
        guard !userIDs.isEmpty else { return }
        if outbox.withLock({ $0.cut(userIDs) }) { signal() }
    }

    /// Publishes a batch's events, in order, with one hand-over to the I/O thread.
    public func publish(_ batch: EventBatch) {
        guard batch.count > 0 else { return }
        post(CollectionOfOne(.events(batch)))
    }

    private func post(_ messages: some Collection<OutgoingMessage>) {
        guard !messages.isEmpty else { return }
        if outbox.withLock({ $0.post(messages) }) { signal() }
    }

    /// Runs `job` on the I/O thread in its next cycle; see the type's documentation.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        switch outbox.withLock({ $0.enqueue(job) }) {
        case .wake: signal()
        case .wait: break
        case .runElsewhere: globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }

    private func signal() {
        waker.signal()
    }

    /// Sends what is queued, closes the sockets (waiting at most the linger time) and ends ``requests``.
    public func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            switch outbox.withLock({ $0.stop(continuation) }) {
            case .wake: signal()
            case .wait: break
            case .resume: continuation.resume()
            }
        }
        waker.close()
        // zmq_ctx_term blocks up to the linger time: never on Swift's cooperative pool.
        let context = self.context
        await withCheckedContinuation { (terminated: CheckedContinuation<Void, Never>) in
            startThread(named: "courtside.term") {
                context.terminate()
                terminated.resume()
            }
        }
    }

    /// Called on the I/O thread once its loop has ended, for whatever reason: a ``stop()`` then
    /// waiting, or any later, returns at once instead of waiting for a thread that is gone.
    func loopEnded() {
        let (waiting, jobs) = outbox.withLock { $0.end() }
        // A task still waiting to run here (a command loop finishing its batch) runs elsewhere.
        for job in jobs { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
        waiting?.resume()
    }

    /// Called on the I/O thread as its poll returns; see ``TransportOutbox/awake()``.
    func awake() {
        outbox.withLock { $0.awake() }
    }

    /// Called on the I/O thread: everything handed over so far; see ``TransportOutbox/take()``.
    func takeOutbox() -> Outbox.Handed {
        outbox.withLock { $0.take() }
    }
}
