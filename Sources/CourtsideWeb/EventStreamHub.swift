import CourtsideLocalization
import HummingbirdCore
import Metrics
import NIOCore
import Synchronization

/// The `/api/events` streams of one event loop, written from that loop: a broadcast costs one
/// task on the loop for all of its streams, not a task and a thread hop for each browser, and
/// broadcasts that come while the loop still writes the last, or within its window
/// (``window(streams:)``), are joined into one write a stream. A busy gateway so writes less
/// often rather than falling behind; a quiet one writes each change at once. A stream whose
/// reader falls behind is sent a fresh `state` in place of what it missed (``EventStreamRoster``).
final class EventStreamHub: Sendable {
    /// The response part a stream's messages travel in, through the connection's HTTP handlers
    /// (chunked framing, TLS) as the response's own writer sends them.
    typealias Part = HTTPConnectionStateHandler.OutboundIn

    let eventLoop: any EventLoop
    /// Broadcasts not yet written, and whether a flush is on its way to the loop.
    private let inbox = Mutex(Inbox())
    /// The loop's streams, for the sync thread to size its window (``window(streams:)``).
    private let streamCount = Atomic(0)
    private let state: NIOLoopBoundBox<LoopState>
    /// A stream that ended tells the subscribers (its language may need no more encoding).
    private let left: @Sendable (Language) -> Void
    /// The generation now and the state of the view at it in a language; nil once stopping.
    private let seed: @Sendable (Language) -> (generation: UInt64, state: EventStreamMessage?)?
    // Made once: a handle per call would look the metric up in the registry every time.
    private let resyncs = Counter(label: "courtside_web_streams_resynced_total")

    private struct Inbox {
        var batches: [EventStreamBatch] = []
        var flushing = false
    }

    private struct Stream: Sendable {
        let channel: any Channel
        let ended: @Sendable () -> Void
        var pings: RepeatedTask?
    }

    private struct LoopState: Sendable {
        var roster: EventStreamRoster
        var streams: [Int: Stream] = [:]
    }

    /// `limit` and `lag`: how far a stream whose socket takes none may fall behind before it
    /// owes a state (``EventStreamRoster``), which `seed` makes.
    init(
        eventLoop: any EventLoop, limit: Int = 1000, lag: Duration = .seconds(1),
        seed: @escaping @Sendable (Language) -> (generation: UInt64, state: EventStreamMessage?)?,
        left: @escaping @Sendable (Language) -> Void
    ) {
        self.eventLoop = eventLoop
        self.left = left
        self.seed = seed
        state = .makeBoxSendingValue(
            LoopState(roster: EventStreamRoster(limit: limit, lag: lag)), eventLoop: eventLoop)
    }

    /// Queues `batch` for every stream of the loop; never waits for the loop.
    func post(_ batch: EventStreamBatch) {
        let schedule = inbox.withLock { inbox in
            inbox.batches.append(batch)
            defer { inbox.flushing = true }
            return !inbox.flushing
        }
        guard schedule else { return }
        let window = Self.window(streams: streamCount.load(ordering: .relaxed))
        if window == .zero {
            eventLoop.execute { self.flush() }
        } else {
            eventLoop.scheduleTask(in: TimeAmount(window)) { self.flush() }
        }
    }

    /// How long a broadcast waits for the next ones before a loop with `streams` streams writes
    /// them: none for a few hundred screens, so a court's TV shows a move at once; 50 µs a
    /// stream past that, at most 250 ms (5,000 streams), so a loop with thousands of browsers
    /// writes several events at a time to each (its cost, and their readers', is mostly per
    /// write) rather than spending every moment on one write per browser per event.
    static func window(streams: Int) -> Duration {
        streams < 500 ? .zero : min(.microseconds(50 * streams), .milliseconds(250))
    }

    /// Starts writing to `channel`, on the loop: `state` first, then each broadcast after
    /// `generation`, and a `sync` event every `syncEvery` (``EventStreamPings``); calls `ended`
    /// when the stream ends. The caller has handed the response's head to the channel before.
    func join(
        _ id: Int, channel: any Channel, language: Language, generation: UInt64, state message: EventStreamMessage?,
        syncEvery: Duration?, inSync: @escaping @Sendable () -> Bool, ended: @escaping @Sendable () -> Void
    ) {
        eventLoop.preconditionInEventLoop()
        guard channel.isActive else {
            left(language)
            ended()
            return
        }
        state.value.roster.join(id, language: language, after: generation)
        var stream = Stream(channel: channel, ended: ended)
        if let message {
            state.value.roster.wrote(state: message.buffer.readableBytes, in: language)
            channel.writeAndFlush(Part.body(message.buffer), promise: nil)
        }
        if let syncEvery {
            let every = TimeAmount(syncEvery)
            stream.pings = eventLoop.scheduleRepeatedTask(initialDelay: every, delay: every) { [self] _ in
                if let sync = EventStreamMessage(.sync(inSync())) { send(sync, count: 1, to: id) }
            }
        }
        state.value.streams[id] = stream
        streamCount.add(1, ordering: .relaxed)
        try? channel.pipeline.syncOperations.addHandler(
            EventStreamWritability { [self] in release(id) }, position: .first)
        channel.closeFuture.whenComplete { [self] _ in end(id) }
    }

    /// Ends every stream (the gateway stops).
    func endAll() {
        eventLoop.execute { [self] in
            for id in Array(state.value.streams.keys) { end(id) }
        }
    }

    private func flush() {
        let batches = inbox.withLock { inbox in
            defer { inbox = Inbox() }
            return inbox.batches
        }
        for delivery in state.value.roster.deliveries(of: batches) {
            send(delivery.message, count: delivery.count, to: delivery.id)
        }
    }

    /// Writes to one stream; holds the message while its socket takes no more (NIO would
    /// otherwise queue a write and its framing for each), or drops it for a stream owed a state.
    private func send(_ message: EventStreamMessage, count: Int, to id: Int) {
        guard let channel = state.value.streams[id]?.channel else { return }
        if channel.isWritable && !state.value.roster.isHolding(id) {
            channel.writeAndFlush(Part.body(message.buffer), promise: nil)
        } else {
            state.value.roster.hold(message, count: count, for: id, now: .now)
            // Its socket took more before this came: what it is owed goes now, in order.
            if channel.isWritable { release(id) }
        }
    }

    /// Writes what a stream whose socket takes more again is owed: what was held, in one flush,
    /// or a fresh state, after which it gets the broadcasts after the state's generation. A
    /// state that cannot be made ends the stream, and its EventSource starts again.
    private func release(_ id: Int) {
        guard let channel = state.value.streams[id]?.channel, channel.isWritable else { return }
        switch state.value.roster.release(id, now: .now) {
        case nil:
            return
        case .messages(let held):
            for message in held { channel.write(Part.body(message.buffer), promise: nil) }
            channel.flush()
        case .state(let language):
            guard let (generation, message) = seed(language), let message else {
                end(id)
                return
            }
            resyncs.increment()
            state.value.roster.resynced(id, at: generation)
            state.value.roster.wrote(state: message.buffer.readableBytes, in: language)
            channel.writeAndFlush(Part.body(message.buffer), promise: nil)
        }
    }

    private func end(_ id: Int) {
        guard let member = state.value.roster.leave(id), let stream = state.value.streams.removeValue(forKey: id) else {
            return
        }
        stream.pings?.cancel()
        streamCount.subtract(1, ordering: .relaxed)
        left(member.language)
        stream.ended()
    }
}

/// Tells its stream's hub when the socket takes more again, so what was held goes at once.
private final class EventStreamWritability: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny
    let writable: () -> Void

    init(_ writable: @escaping () -> Void) { self.writable = writable }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { writable() }
        context.fireChannelWritabilityChanged()
    }
}
