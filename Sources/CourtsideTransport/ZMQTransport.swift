import CourtsideThreads
import Foundation
public import Logging
import Synchronization
public import ZeroMQ

/// Socket settings, each chosen on purpose rather than left at libzmq's defaults.
public struct TransportConfiguration: Sendable {
    /// Where scorekeepers and displays send requests (ROUTER).
    public var commandEndpoint: String
    /// Where events and heartbeats are published (PUB).
    public var eventEndpoint: String
    /// Messages queued per subscriber before PUB drops for it; a slow display then resyncs.
    public var eventHighWaterMark: Int32 = 10_000
    /// Messages queued per client on the command socket, in each direction.
    public var commandHighWaterMark: Int32 = 1_000
    /// How long closing sockets may still send queued messages, in milliseconds.
    public var lingerMilliseconds: Int32 = 500
    /// Largest inbound message; libzmq disconnects a peer that sends more.
    public var maxMessageBytes: Int64 = 1024 * 1024
    /// Connections each endpoint queues before accepting them. libzmq's default of 100 is too
    /// few for a venue's displays all reconnecting at once after a restart (the kernel caps it
    /// at net.core.somaxconn).
    public var listenBacklog: Int32 = 4096
    /// libzmq's own I/O threads, which carry every connection's bytes (ours only polls and
    /// decides). With two, a keeper's connection is not always behind the thousand handshakes
    /// and 10 MB snapshots of a resync storm: in `courtside-bench reads` on two cores the
    /// keeper's p99 through the storm fell from a median of 22 ms to 16 ms (8 alternating
    /// runs), while a lone keeper's round trip and 16 keepers' throughput did not change.
    public var libzmqIOThreads: Int32 = 2
    /// CURVE on both endpoints with a ZAP allowlist; nil serves plaintext.
    public var security: TransportSecurity?
    /// The longest the I/O thread waits in one poll, so that an idle thread still completes a
    /// cycle this often and a watchdog can tell idle from hung.
    public var pollIntervalMilliseconds = 1000
    /// Makes the I/O thread's first poll fail: for tests of the failure path.
    public var failFirstPoll = false
    /// Requests waiting to be handled before new ones are answered at once with
    /// ``overloadedReply`` instead of queued.
    public var requestQueueLimit = 16_000
    /// The reply to a request that found the queue full, from its frames; nil drops it.
    public var overloadedReply: (@Sendable (_ frames: [[UInt8]]) -> [UInt8]?)?

    public init(commandEndpoint: String, eventEndpoint: String) {
        self.commandEndpoint = commandEndpoint
        self.eventEndpoint = eventEndpoint
    }
}

/// CURVE encryption and authentication for both endpoints.
public struct TransportSecurity: Sendable {
    /// The daemon's long-term key pair; clients name its public key as their server key.
    public var serverKeys: CurveKeyPair
    /// The ZAP domain both sockets authenticate in.
    public var domain: String
    /// Decides each handshake on the I/O thread: the accepted client's user id, or a refusal.
    /// It must not block; SIGHUP's new allowlist takes effect through what it reads.
    public var authenticate: @Sendable (ZAPRequest) -> ZAPDecision

    public init(
        serverKeys: CurveKeyPair, domain: String = "courtside", authenticate: @escaping @Sendable (ZAPRequest) -> ZAPDecision
    ) {
        self.serverKeys = serverKeys
        self.domain = domain
        self.authenticate = authenticate
    }
}

/// A request read from the command socket: who sent it and the frames after the routing envelope.
public struct IncomingRequest: Sendable {
    /// The ROUTER envelope to send the reply back with: the peer's routing id, and the empty
    /// delimiter frame when the peer sent one (REQ sockets do, DEALERs may).
    public let envelope: [[UInt8]]
    /// The frames after the envelope; a well-formed request has exactly one.
    public let frames: [[UInt8]]
    /// The user id the ZAP handler gave the sender's connection; nil on a plaintext endpoint.
    public let userID: String?
    /// When the I/O thread read it, for the time a request spends inside the daemon.
    public let received: ContinuousClock.Instant

    public init(envelope: [[UInt8]], frames: [[UInt8]], userID: String? = nil) {
        self.envelope = envelope
        self.frames = frames
        self.userID = userID
        received = .now
    }
}

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
    private enum Destination {
        case command
        case event
    }

    private struct Outbox {
        var messages: [(Destination, [[UInt8]])] = []
        /// Jobs of tasks that prefer this executor, in the order they came.
        var jobs: [UnownedJob] = []
        /// User ids whose subscriptions to cut.
        var cut: Set<String> = []
        var stopping = false
        var onStop: CheckedContinuation<Void, Never>?
        /// Set by the I/O thread when it found nothing to do and is about to poll: only then
        /// does new work need a wake-up. A thread that is awake sees it before it polls.
        var polling = true
        /// The loop has ended: jobs run on the global executor.
        var ended = false

        /// Whether the I/O thread needs waking for work just added (at most once per poll).
        mutating func takeWake() -> Bool {
            defer { polling = false }
            return polling
        }
    }

    /// Requests in arrival order, in batches: every request one poll cycle read. Ends when the
    /// transport stops.
    public let requests: RequestBatches
    /// The endpoints actually bound (with real ports when the configuration said `*`).
    public let boundCommandEndpoint: String
    public let boundEventEndpoint: String

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
    fileprivate func serving(on thread: pthread_t, router: ZMQSocket?) {
        ioThreadRouter.router = router
        servingThread.store(router == nil ? 0 : thread, ordering: .relaxed)
    }

    fileprivate func completedCycle() {
        cycles.add(1, ordering: .relaxed)
    }

    /// Sends a reply on the command socket to the peer the request came from.
    ///
    /// A job running on the I/O thread (a command decided and committed there) sends it at
    /// once, ahead of what else the job does and of what waits in the outbox: replies to
    /// different commands have no order on the wire anyway.
    public func reply(to request: IncomingRequest, body: [UInt8]) {
        if isIOThread, let router = ioThreadRouter.router {
            IOLoop.send(request.envelope + [body], on: router, logger: logger)
        } else {
            post(.command, request.envelope + [body])
        }
    }

    /// Publishes a two-frame message, topic then body, on the event socket.
    public func publish(topic: [UInt8], body: [UInt8]) {
        post(.event, [topic, body])
    }

    /// Cuts the event connections of these ZAP user ids (keys a reload removed): ZAP checks a key
    /// only when it connects, so without this a removed key would go on receiving events. The
    /// subscriber's reconnection then meets the new allowlist.
    public func disconnectSubscribers(_ userIDs: Set<String>) {
        guard !userIDs.isEmpty else { return }
        let wake = outbox.withLock { outbox -> Bool in
            guard !outbox.stopping else { return false }
            outbox.cut.formUnion(userIDs)
            return outbox.takeWake()
        }
        if wake { signal() }
    }

    /// Publishes two-frame messages, in order, with one hand-over to the I/O thread.
    public func publish(_ messages: [(topic: [UInt8], body: [UInt8])]) {
        post(messages.map { (.event, [$0.topic, $0.body]) })
    }

    private func post(_ destination: Destination, _ frames: [[UInt8]]) {
        post(CollectionOfOne((destination, frames)))
    }

    private func post(_ messages: some Collection<(Destination, [[UInt8]])>) {
        guard !messages.isEmpty else { return }
        let wake = outbox.withLock { outbox -> Bool in
            guard !outbox.stopping else { return false }
            outbox.messages.append(contentsOf: messages)
            return outbox.takeWake()
        }
        if wake { signal() }
    }

    /// Runs `job` on the I/O thread in its next cycle; see the type's documentation.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let queued = outbox.withLock { outbox -> Bool? in
            guard !outbox.ended else { return nil }
            outbox.jobs.append(job)
            return outbox.takeWake()
        }
        switch queued {
        case true?: signal()
        case false?: break
        case nil: globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }

    private func signal() {
        waker.signal()
    }

    /// Sends what is queued, closes the sockets (waiting at most the linger time) and ends ``requests``.
    public func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let first = outbox.withLock { outbox -> Bool? in
                guard !outbox.stopping else { return nil }
                outbox.stopping = true
                outbox.onStop = continuation
                return outbox.takeWake()
            }
            switch first {
            case true?: signal()
            case false?: break
            case nil: continuation.resume()
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
    fileprivate func loopEnded() {
        let (waiting, jobs) = outbox.withLock { outbox in
            outbox.stopping = true
            outbox.ended = true
            defer { (outbox.onStop, outbox.jobs) = (nil, []) }
            return (outbox.onStop, outbox.jobs)
        }
        // A task still waiting to run here (a command loop finishing its batch) runs elsewhere.
        for job in jobs { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
        waiting?.resume()
    }

    /// What the I/O thread has been handed since it last looked.
    private struct Handed {
        var messages: [(Destination, [[UInt8]])]
        var jobs: [UnownedJob]
        var cut: Set<String>
        /// Set when the thread is to stop once it has sent the messages.
        var onStop: CheckedContinuation<Void, Never>?

        var isEmpty: Bool { messages.isEmpty && jobs.isEmpty && cut.isEmpty && onStop == nil }
    }

    /// Called on the I/O thread as its poll returns: it is awake, and looks at what is handed
    /// over before it polls again, so hand-overs until then need not wake it. Without this, the
    /// first job that a request woke (its decision, enqueued from this very thread) sent a
    /// wake-up that the next poll then read: a syscall each way and a round of the loop, per move.
    fileprivate func awake() {
        outbox.withLock { $0.polling = false }
    }

    /// Called on the I/O thread: everything handed over so far. When there is nothing, the
    /// thread is marked as polling, so that the next hand-over wakes it.
    private func takeOutbox() -> Handed {
        outbox.withLock { outbox in
            let handed = Handed(
                messages: outbox.messages, jobs: outbox.jobs, cut: outbox.cut,
                onStop: outbox.stopping ? outbox.onStop : nil)
            if handed.isEmpty {
                outbox.polling = true
            } else {
                (outbox.messages, outbox.jobs, outbox.cut) = ([], [], [])
                if outbox.stopping { outbox.onStop = nil }
            }
            return handed
        }
    }

    /// The I/O thread's loop. Every socket is created, used and closed here.
    private final class IOLoop: @unchecked Sendable {
        // Touched only by the I/O thread, apart from `transport`, which is set once under a lock.
        let configuration: TransportConfiguration
        let context: ZMQContext
        let waker: WakePipe
        let requests: AsyncStream<[IncomingRequest]>.Continuation
        let queued: QueuedCount
        let logger: Logger
        private let transportBox = Mutex<ZMQTransport?>(nil)
        private let attached = DispatchSemaphore(value: 0)

        init(
            configuration: TransportConfiguration, context: ZMQContext, waker: WakePipe,
            requests: AsyncStream<[IncomingRequest]>.Continuation, queued: QueuedCount, logger: Logger
        ) {
            self.configuration = configuration
            self.context = context
            self.waker = waker
            self.requests = requests
            self.queued = queued
            self.logger = logger
        }

        func attach(_ transport: ZMQTransport) {
            transportBox.withLock { $0 = transport }
            attached.signal()
        }

        func run(ready: CheckedContinuation<(String, String), any Error>) {
            let router: ZMQSocket
            let publisher: ZMQSocket
            var zap: ZAPHandler?
            // Every socket opened so far, to close before terminating the context if a step fails:
            // zmq_ctx_term waits for every socket of the context, and would park this thread.
            var opened: [ZMQSocket] = []
            do {
                // The ZAP handler is bound before the server sockets, so no handshake can come first.
                if configuration.security != nil {
                    zap = try ZAPHandler(context: context)
                    opened.append(zap!.socket)
                }
                router = try context.socket(.router)
                opened.append(router)
                try secure(router)
                try router.set(.linger(milliseconds: configuration.lingerMilliseconds))
                try router.set(.sendHighWaterMark(configuration.commandHighWaterMark))
                try router.set(.receiveHighWaterMark(configuration.commandHighWaterMark))
                try router.set(.maxMessageSize(configuration.maxMessageBytes))
                try router.set(.backlog(configuration.listenBacklog))
                try router.bind(configuration.commandEndpoint)
                // XPUB rather than PUB: it is PUB that also hears each subscription, with the
                // connection it came over, so that a removed key's connection can be cut.
                publisher = try context.socket(.xpub)
                opened.append(publisher)
                try publisher.set(.xpubVerbose(true))
                try secure(publisher)
                try publisher.set(.linger(milliseconds: configuration.lingerMilliseconds))
                try publisher.set(.sendHighWaterMark(configuration.eventHighWaterMark))
                try publisher.set(.backlog(configuration.listenBacklog))
                try publisher.bind(configuration.eventEndpoint)
            } catch {
                // start() terminates the context once its own socket is closed too.
                for socket in opened { socket.close() }
                requests.finish()
                ready.resume(throwing: error)
                return
            }
            ready.resume(returning: (router.lastEndpoint, publisher.lastEndpoint))
            attached.wait()
            guard let transport = transportBox.withLock({ $0 }) else { return }
            serve(router: router, publisher: publisher, zap: zap, transport: transport)
            router.close()
            publisher.close()
            zap?.socket.close()
            requests.finish()
            transport.loopEnded()
        }

        /// Makes a server socket a CURVE server whose handshakes the ZAP handler decides.
        private func secure(_ socket: ZMQSocket) throws(ZMQError) {
            guard let security = configuration.security else { return }
            try socket.set(.curveServer(true))
            try socket.set(.curveSecretKey(security.serverKeys.secretKey))
            try socket.set(.zapDomain(security.domain))
            // Without a handler a CURVE server would accept any key; with this it accepts none.
            try socket.set(.zapEnforceDomain(true))
        }

        private func serve(router: ZMQSocket, publisher: ZMQSocket, zap: ZAPHandler?, transport: ZMQTransport) {
            var poller = ZMQSocketPoller()
            let routerIndex: Int
            let publisherIndex: Int
            let zapIndex: Int?
            do {
                routerIndex = try poller.add(router)
                publisherIndex = try poller.add(publisher)
                zapIndex = try zap.map { zap throws(ZMQError) in try poller.add(zap.socket) }
            } catch {
                logger.critical("the sockets cannot be polled; the transport stops", metadata: ["error": "\(error)"])
                return
            }
            let wakeIndex = poller.add(fileDescriptor: waker.readEnd)
            var subscribers = Subscribers()
            var refusals = RefusedHandshakes()
            let executor = transport.asUnownedTaskExecutor()
            transport.serving(on: pthread_self(), router: router)
            defer { transport.serving(on: pthread_self(), router: nil) }
            // Whether work handed over is still waiting: the next poll then only looks.
            var busy = false
            while true {
                let readable: [Bool]
                do {
                    if configuration.failFirstPoll { throw ZMQError(code: EFAULT, operation: "poll (injected failure)") }
                    readable = try poller.poll(timeoutMilliseconds: busy ? 0 : configuration.pollIntervalMilliseconds)
                } catch {
                    logger.critical("polling the sockets failed; the transport stops", metadata: ["error": "\(error)"])
                    return
                }
                // After a busy cycle it is not marked as polling anyway.
                if !busy { transport.awake() }
                if readable[wakeIndex] { waker.drain() }
                if let zap, let zapIndex, readable[zapIndex], let security = configuration.security {
                    zap.answerPending { request in
                        let decision = security.authenticate(request)
                        if case .reject(let reason) = decision { refusals.note(request, reason: reason, logger: logger) }
                        return decision
                    }
                }
                if readable[routerIndex] { readRequests(from: router) }
                if readable[publisherIndex] { subscribers.read(publisher) }
                // The jobs the requests woke (deciding them) run now, and the replies they send
                // at once go out in the same cycle. Bounded, so that a stream of jobs cannot keep
                // the sockets from being read.
                busy = true
                for _ in 0..<Self.roundsPerCycle {
                    let handed = transport.takeOutbox()
                    if handed.isEmpty {
                        busy = false
                        break
                    }
                    if !handed.cut.isEmpty {
                        let count = subscribers.cut(handed.cut)
                        logger.notice("event connections of removed keys cut", metadata: ["connections": "\(count)"])
                    }
                    for job in handed.jobs { job.runSynchronously(on: executor) }
                    send(handed.messages, router: router, publisher: publisher)
                    // A send may take the socket's signal of a message that came meanwhile. (Jobs
                    // send replies on the command socket themselves.)
                    if !handed.jobs.isEmpty || handed.messages.contains(where: { $0.0 == .command }) {
                        poller.used(routerIndex)
                    }
                    if handed.messages.contains(where: { $0.0 == .event }) { poller.used(publisherIndex) }
                    if let onStop = handed.onStop {
                        // Nothing is posted once stopping; jobs still to come run elsewhere (loopEnded).
                        onStop.resume()
                        return
                    }
                }
                transport.completedCycle()
            }
        }

        /// Rounds of handed-over work a cycle runs before it reads the sockets again.
        static let roundsPerCycle = 8

        private func send(_ messages: [(Destination, [[UInt8]])], router: ZMQSocket, publisher: ZMQSocket) {
            for (destination, frames) in messages {
                Self.send(frames, on: destination == .command ? router : publisher, logger: logger)
            }
        }

        static func send(_ frames: [[UInt8]], on socket: ZMQSocket, logger: Logger) {
            do {
                try socket.send(frames, flags: .dontWait)
            } catch {
                // PUB never blocks; a ROUTER peer over its high-water mark loses the reply and
                // retries, which the library answers from its record.
                logger.warning("dropped an outgoing message", metadata: ["error": "\(error)"])
            }
        }

        /// Which connection of the event socket is whose: learnt from each subscription, which
        /// libzmq hands up with its connection's descriptor and ZAP user id.
        private struct Subscribers {
            /// By descriptor: the user id, and the peer's address to tell the connection from a
            /// later one that reused the descriptor.
            var byDescriptor: [Int32: (userID: String, peer: [UInt8])] = [:]

            mutating func read(_ publisher: ZMQSocket) {
                while let (frames, userID, fd) = try? publisher.receiveWithSource(flags: .dontWait) {
                    // A subscription is 1 then the topic (0 is an unsubscription).
                    guard frames.first?.first == 1, let userID, let fd, let peer = Self.peer(of: fd) else { continue }
                    byDescriptor[fd] = (userID, peer)
                }
            }

            /// Shuts down the connections of `userIDs` (libzmq sees them end, and closes them);
            /// returns how many.
            mutating func cut(_ userIDs: Set<String>) -> Int {
                var count = 0
                for (fd, entry) in byDescriptor where userIDs.contains(entry.userID) {
                    byDescriptor[fd] = nil
                    guard Self.peer(of: fd) == entry.peer else { continue }
                    if shutdown(fd, Int32(SHUT_RDWR)) == 0 { count += 1 }
                }
                return count
            }

            /// The remote address and port of a connected socket, as bytes to compare.
            static func peer(of fd: Int32) -> [UInt8]? {
                var address = sockaddr_storage()
                var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let named = withUnsafeMutablePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
                }
                guard named == 0 else { return nil }
                return withUnsafeBytes(of: &address) { Array($0.prefix(Int(length))) }
            }
        }

        /// Logs refused handshakes at most once a second, so that a peer retrying a wrong key
        /// (or a flood of them) cannot fill the journal.
        private struct RefusedHandshakes {
            var lastLogged: ContinuousClock.Instant?
            var suppressed = 0

            mutating func note(_ request: ZAPRequest, reason: String, logger: Logger) {
                let now = ContinuousClock.now
                if let lastLogged, now - lastLogged < .seconds(1) {
                    suppressed += 1
                    return
                }
                logger.notice(
                    "handshake refused",
                    metadata: [
                        "peer": "\(request.address)", "key": "\(request.curvePublicKey?.z85 ?? "-")", "reason": "\(reason)",
                        "refused.since_last_line": "\(suppressed)",
                    ])
                (lastLogged, suppressed) = (now, 0)
            }
        }

        /// Requests answered `overloaded` since the last log line about them.
        private var overloaded = 0
        private var overloadLogged: ContinuousClock.Instant?

        private func reportOverload() {
            guard overloaded > 0, overloadLogged.map({ ContinuousClock.now - $0 > .seconds(1) }) ?? true else { return }
            logger.warning(
                "request queue full: answered overloaded",
                metadata: ["requests": "\(overloaded)", "limit": "\(configuration.requestQueueLimit)"])
            (overloaded, overloadLogged) = (0, .now)
        }

        private func readRequests(from router: ZMQSocket) {
            var batch: [IncomingRequest] = []
            // Room left under the queue's limit; what the consumer takes meanwhile is room next round.
            var room = configuration.requestQueueLimit - queued.value.load(ordering: .acquiring)
            defer {
                if !batch.isEmpty {
                    queued.value.add(batch.count, ordering: .releasing)
                    requests.yield(batch)
                }
                reportOverload()
            }
            // Bounded per round so that a flood of requests cannot starve outgoing replies.
            for _ in 0..<1000 {
                let message: [[UInt8]]
                let userID: String?
                do {
                    (message, userID) = try router.receiveMessage(flags: .dontWait)
                } catch {
                    if !error.wouldBlock { logger.warning("receive failed", metadata: ["error": "\(error)"]) }
                    return
                }
                guard let peer = message.first else { continue }
                var envelope = [peer]
                var rest = message.dropFirst()
                if rest.count >= 2, rest.first?.isEmpty == true {
                    envelope.append([])
                    rest = rest.dropFirst()
                }
                let frames = Array(rest)
                guard room > 0 else {
                    // Answered here and now, so the queue never grows and the client knows why.
                    overloaded += 1
                    if let body = configuration.overloadedReply?(frames) {
                        try? router.send(envelope + [body], flags: .dontWait)
                    }
                    continue
                }
                room -= 1
                batch.append(IncomingRequest(envelope: envelope, frames: frames, userID: userID))
            }
        }
    }
}

/// The requests the I/O thread has read, a poll cycle's worth at a time, in arrival order.
public struct RequestBatches: AsyncSequence, Sendable {
    public typealias Element = [IncomingRequest]

    let stream: AsyncStream<[IncomingRequest]>
    let continuation: AsyncStream<[IncomingRequest]>.Continuation
    /// Requests handed over and not yet taken, for the queue's limit.
    let queued: QueuedCount

    /// Ends the sequence once the batches already handed over are taken; requests read after
    /// this are not handed over (a graceful stop: their clients retry against the next start).
    ///
    /// Unlike cancelling the consumer, this needs no task of its own between the I/O thread
    /// and the consumer, so a consumer that prefers the transport's executor is resumed on the
    /// I/O thread itself.
    public func finish() {
        continuation.finish()
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<[IncomingRequest]>.AsyncIterator
        let queued: QueuedCount

        public mutating func next() async -> [IncomingRequest]? {
            guard let batch = await base.next() else { return nil }
            queued.value.subtract(batch.count, ordering: .releasing)
            return batch
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), queued: queued)
    }
}

/// A count shared by the I/O thread and the consumer of its requests.
final class QueuedCount: Sendable {
    let value = Atomic<Int>(0)
}
