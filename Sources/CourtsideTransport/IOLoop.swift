import CourtsideThreads
import Foundation
import Logging
import Synchronization
import ZeroMQ

/// The I/O thread's loop. Every socket is created, used and closed here.
final class IOLoop: @unchecked Sendable {
    // Touched only by the I/O thread, apart from `transport`, which is set once under a lock.
    private let configuration: TransportConfiguration
    private let context: ZMQContext
    private let waker: WakePipe
    private let requests: AsyncStream<[IncomingRequest]>.Continuation
    private let queued: QueuedCount
    private let logger: Logger
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
        var subscribers = SubscriberConnections()
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
                if !handed.jobs.isEmpty || handed.messages.contains(where: \.isReply) { poller.used(routerIndex) }
                if handed.messages.contains(where: { !$0.isReply }) { poller.used(publisherIndex) }
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

    private func send(_ messages: [OutgoingMessage], router: ZMQSocket, publisher: ZMQSocket) {
        for message in messages {
            switch message {
            case .reply(let envelope, let body):
                OutgoingMessage.send(envelope: envelope, body: body, on: router, logger: logger)
            case .event(let topic, let body):
                OutgoingMessage.send(topic: topic, body: body, on: publisher, logger: logger)
            case .events(let batch):
                OutgoingMessage.send(batch, on: publisher, logger: logger)
            case .replies(let batch):
                OutgoingMessage.send(batch, on: router, logger: logger)
            }
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
        // One reading of the clock for the round: its requests were read within microseconds.
        let received = ContinuousClock.now
        // Bounded per round so that a flood of requests cannot starve outgoing replies.
        for _ in 0..<1000 {
            guard let request = receiveRequest(from: router, received: received) else { return }
            guard !request.envelope.isEmpty else { continue }
            guard room > 0 else {
                // Answered here and now, so the queue never grows and the client knows why.
                overloaded += 1
                if let body = configuration.overloadedReply?(request.frames) {
                    OutgoingMessage.send(envelope: request.envelope, body: body, on: router, logger: logger)
                }
                continue
            }
            room -= 1
            batch.append(request)
        }
    }

    /// One request, split as it is read: the ROUTER envelope (the peer's routing id, and the empty
    /// delimiter when a frame follows it), then the frames after it. Nil when none is queued.
    ///
    /// Only the frames after the envelope are copied, each once into the array it belongs to; the
    /// envelope is the peer's, kept from its earlier requests.
    private func receiveRequest(from router: ZMQSocket, received: ContinuousClock.Instant) -> IncomingRequest? {
        var peer: Int?
        var first: [UInt8]?
        var later: [[UInt8]] = []
        // An empty frame right after the routing id: the delimiter, if another frame follows.
        var delimiter = false
        do {
            let userID = try router.receiveFrames(flags: .dontWait, userID: configuration.security != nil) { frame in
                if peer == nil {
                    peer = envelopes.index(of: frame)
                } else if first == nil, !delimiter, frame.isEmpty {
                    delimiter = true
                } else if first == nil {
                    first = Array(frame)
                } else {
                    later.append(Array(frame))
                }
            }
            guard let peer else {
                return IncomingRequest(envelope: [], first: nil, later: [], userID: userID, received: received)
            }
            // The empty frame was the delimiter only if a frame followed it; alone, it is the request.
            let delimited = delimiter && first != nil
            if delimiter, first == nil { first = [] }
            return IncomingRequest(
                envelope: envelopes.envelope(at: peer, delimited: delimited), first: first, later: later, userID: userID,
                received: received)
        } catch {
            if !error.wouldBlock { logger.warning("receive failed", metadata: ["error": "\(error)"]) }
            return nil
        }
    }

    /// The envelopes of the peers that sent requests lately.
    private var envelopes = RecentEnvelopes()
}
