import ArgumentParser
import CZeroMQ
import CourtsideModel
import CourtsideProtocol
import CourtsideSimulator
import Foundation
import Synchronization
import ZeroMQ

#if canImport(Glibc)
    import Glibc
#endif

/// Events per second that reach many displays, beside what bare libzmq PUB/SUB delivers on this
/// machine in the same run.
struct FanoutBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fanout",
        abstract: "Events per second delivered to N subscribers of courtsided, beside raw libzmq PUB/SUB in the same run.",
        discussion: """
            For each subscriber count N, in this order:

            1. Daemon. One courtsided serves the whole run, on free loopback ports and a \
            temporary data directory. It gets N SUB sockets on its event endpoint, subscribed \
            to everything. The sockets are spread over --threads threads; each thread has its \
            own ZeroMQ context and one poller, so 1000 subscribers need only a few threads. \
            Each socket is read with libzmq's C API in place, without copying. The sockets \
            connect 50 at a time, 20 ms apart. Meanwhile --keepers keepers, each with --window \
            requests in flight, drive rebounds over --games games as fast as the daemon answers. \
            The warm-up lasts until every subscriber has received an event, or 15 s at most. \
            Then the subscribers count for --seconds. The keepers stop, the subscribers read \
            what is still on its way for 0.3 s, and close.

            2. Raw libzmq, flat out. A bare PUB socket in this process sends two-frame messages \
            in a loop as fast as it can. It has its own context and thread, and the daemon's \
            default send high-water mark of 10000. The messages have the mean sizes of the \
            daemon's events in step 1: a topic `gK/event`, then a JSON body that holds \
            `"sequence"`. N SUB sockets are served exactly as in step 1, with the same warm-up \
            and the same --seconds.

            3. Raw libzmq, paced. The same PUB sends at the daemon's published/s from step 1: \
            the same offered load.

            What is counted, per subscriber and only during the --seconds window: a message \
            counts if it has two frames and its topic ends in `/event` (heartbeats, standings \
            and bracket are not counted). `delivered` is the number of such messages received. \
            A gap is a missing sequence number between two consecutive events a subscriber \
            received (the next sequence minus the last, minus one, summed): what the sync \
            contract of docs/PROTOCOL.md would resync on.

            Every per-second figure is a sum over all subscribers divided by the window's \
            length. `delivered/s` counts events (or messages) received, with or without gaps. \
            `gapless` is the number of subscribers that received events and saw no gap. \
            `silent` is the number that received nothing in the window. `published/s` is the \
            daemon's sequence advance per second: the highest sequence any subscriber saw in \
            the window, minus the lowest, plus one, over the window. `share` is delivered / \
            (published x N). Below 1 with no gap means the subscribers lag behind, queued; \
            with gaps, events were dropped. For raw libzmq, `sent/s` is the PUB's send calls \
            per second. libzmq drops a message for a subscriber whose queue is full, and those \
            drops are its gaps. `ratio` is the daemon's delivered/s over raw delivered/s, flat \
            out and paced. Issue 10 goal 7 asks for at least 0.8, with no gap.

            Read flat out as the machine's ceiling. At a few subscribers the daemon can deliver \
            only what its keepers get acknowledged, so there the ratio measures the command \
            path rather than the fan-out. The paced ratio compares the fan-out at equal load. \
            Everything shares this machine's two cores: the daemon, the keepers, the raw \
            publisher and the subscribers. Read the figures of one run as ratios to each other.

            Example: courtside-bench fanout --subscribers 1,10,100,1000 --seconds 2
            """)

    @Option(help: "Subscriber counts to measure, comma-separated.") var subscribers = "1,10,100,1000"
    @Option(help: "Seconds each measurement counts (after the warm-up).") var seconds: Double = 2
    @Option(help: "Keepers driving moves, each on its own thread.") var keepers = 16
    @Option(help: "Requests each keeper keeps in flight.") var window = 8
    @Option(help: "Games the moves are spread over.") var games = 100
    @Option(help: "Threads serving the subscribers (each with its own ZeroMQ context and poller).") var threads = 2
    @Option(help: "The courtsided binary (default: next to this one).") var courtsided: String?

    var counts: [Int] { subscribers.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) } }

    func validate() throws {
        guard !counts.isEmpty, counts.allSatisfy({ $0 > 0 }) else {
            throw ValidationError("--subscribers takes positive counts, comma-separated")
        }
        guard seconds > 0, keepers > 0, window > 0, games > 0, threads > 0 else {
            throw ValidationError("--seconds, --keepers, --window, --games and --threads must be positive")
        }
    }

    func run() throws {
        let daemon = try RunningDaemon(games: games, courtsided: courtsided)
        defer { daemon.stop() }
        let context = try ZMQContext()
        defer { context.terminate() }
        try waitUntilServing(context, daemon.command, curve: nil)
        print(
            "fanout: keepers=\(keepers) window=\(window) games=\(games) seconds=\(seconds) subscriber threads=\(threads); counted: events received per second summed over subscribers (see --help)"
        )
        var rows: [String] = []
        for (round, count) in counts.enumerated() {
            // The daemon.
            let stop = StopFlag()
            let load = KeeperLoad(keepers: keepers, games: games, window: window, run: "fanout\(round)")
            let pool = SubscriberPool(count: count, threads: threads, endpoint: daemon.events)
            let command = daemon.command
            let driver = BlockingThread { () throws -> Int in
                try load.drive(context, command, moves: Int.max, stop: stop).latencies.count
            }
            let window = pool.measure(seconds: seconds)
            stop.set()
            let acknowledged = try driver.wait().get()
            let served = try pool.finish(window)
            // Raw libzmq with messages of the same sizes.
            let topicSize = served.messages > 0 ? Int(served.topicBytes / served.messages) : 8
            let bodySize = served.messages > 0 ? Int(served.bodyBytes / served.messages) : 400
            let raw = try RawPublisher.measure(
                subscribers: count, threads: threads, seconds: seconds, topicSize: topicSize, bodySize: bodySize, games: games,
                rate: nil)
            let paced = try RawPublisher.measure(
                subscribers: count, threads: threads, seconds: seconds, topicSize: topicSize, bodySize: bodySize, games: games,
                rate: max(1, served.publishedPerSecond))
            print("subscribers \(count):")
            print(
                "  daemon: delivered events/s \(format(served.perSecond)) (published/s \(format(served.publishedPerSecond)), \(served.summary(count)), \(acknowledged) moves acknowledged)"
            )
            print(
                "  raw libzmq PUB/SUB flat out: delivered msgs/s \(format(raw.served.perSecond)) (sent/s \(format(raw.sentPerSecond)), \(raw.served.summary(count)); \(topicSize)+\(bodySize)-byte messages)"
            )
            print(
                "  raw libzmq PUB/SUB paced at the daemon's published/s: delivered msgs/s \(format(paced.served.perSecond)) (sent/s \(format(paced.sentPerSecond)), \(paced.served.summary(count)))"
            )
            let ratios = (served.perSecond / raw.served.perSecond, served.perSecond / paced.served.perSecond)
            print(String(format: "  ratio of the daemon's delivered/s to raw: flat out %.2f, paced %.2f", ratios.0, ratios.1))
            rows.append(
                String(
                    format: "%11d  %9.0f  %6d  %7d/%-5d  %10.0f  %10.0f  %10.2f  %6.2f", count, served.perSecond, served.gaps,
                    served.gapless, count, raw.served.perSecond, paced.served.perSecond, ratios.0, ratios.1))
        }
        print("summary (delivered per second, summed over subscribers):")
        print("subscribers   daemon/s    gaps  gapless      raw_flat/s  raw_paced/s  ratio_flat  ratio_paced")
        for row in rows { print(row) }
    }
}

/// A flag one thread sets and others poll.
final class StopFlag: Sendable {
    private let value = Atomic(false)
    func set() { value.store(true, ordering: .relaxed) }
    var isSet: Bool { value.load(ordering: .relaxed) }
}

/// What a set of subscribers received during the measured window.
struct Tally: Sendable {
    var delivered = 0
    var gaps = 0
    /// Sequences that went backwards or repeated.
    var disorder = 0
    var gapless = 0
    /// Subscribers that received no event in the window.
    var silent = 0
    var messages = 0
    var topicBytes = 0
    var bodyBytes = 0
    var lowest = Int64.max
    var highest = Int64.min
    var seconds = 0.0
    /// How long it took every subscriber to hear an event (or the warm-up's limit), and how many had.
    var warmUp = 0.0
    var heardBeforeCounting = 0

    var perSecond: Double { Double(delivered) / seconds }
    var publishedPerSecond: Double { highest >= lowest ? Double(highest - lowest + 1) / seconds : 0 }
    func share(_ subscribers: Int) -> Double {
        let published = highest >= lowest ? Double(highest - lowest + 1) : 0
        return published > 0 ? Double(delivered) / (published * Double(subscribers)) : 0
    }

    /// Share, gaps, gapless, silent and warm-up, for a report line.
    func summary(_ subscribers: Int) -> String {
        String(
            format: "share %.3f, gaps %d, gapless %d/%d, silent %d, warm-up %.1f s", share(subscribers), gaps, gapless,
            subscribers,
            silent, warmUp)
    }

    mutating func add(_ other: Tally) {
        delivered += other.delivered
        gaps += other.gaps
        disorder += other.disorder
        gapless += other.gapless
        silent += other.silent
        messages += other.messages
        topicBytes += other.topicBytes
        bodyBytes += other.bodyBytes
        lowest = min(lowest, other.lowest)
        highest = max(highest, other.highest)
    }
}

/// N SUB sockets subscribed to everything on one endpoint, served by a few threads (each with
/// its own context, since one context holds at most 1023 sockets, and a poller).
final class SubscriberPool: Sendable {
    /// 0: warm-up, 1: counting, 2: draining (the publisher stops), 3: close.
    private let phase = Atomic(0)
    /// Subscribers that have received at least one event.
    private let heard = Atomic(0)
    private let workers = Mutex<[BlockingThread<Tally, any Error>]>([])
    let count: Int

    /// Connects the subscribers (on their threads) and starts receiving; nothing is counted
    /// before ``measure(seconds:warmUp:)``.
    init(count: Int, threads: Int, endpoint: String) {
        self.count = count
        let threads = max(min(threads, count), (count + 999) / 1_000)
        let shares = (0..<threads).map { thread in count / threads + (thread < count % threads ? 1 : 0) }
        let started = shares.map { share in
            BlockingThread { [self] () throws -> Tally in try serve(share, endpoint) }
        }
        workers.withLock { $0 = started }
    }

    /// Waits until every subscriber has heard an event (at most `warmUp`), counts for `seconds`,
    /// then stops counting and returns the window's length; ``finish(_:)`` adds up the tallies
    /// once the publisher has stopped.
    func measure(seconds: Double, warmUp: Duration = .seconds(15)) -> (seconds: Double, warmUp: Double, heard: Int) {
        let warmUpStart = ContinuousClock.now
        let deadline = warmUpStart + warmUp
        while heard.load(ordering: .relaxed) < count, ContinuousClock.now < deadline { usleep(10_000) }
        let heardBefore = heard.load(ordering: .relaxed)
        let start = ContinuousClock.now
        phase.store(1, ordering: .relaxed)
        usleep(useconds_t(seconds * 1e6))
        phase.store(2, ordering: .relaxed)
        return ((ContinuousClock.now - start).inSeconds, (start - warmUpStart).inSeconds, heardBefore)
    }

    /// After the publisher has stopped: lets the subscribers read what is still on its way (a
    /// SUB closed in the middle of a multipart message can trip an assertion of libzmq 4.3,
    /// zeromq/libzmq#3442), closes them and adds up their tallies of the measured window.
    func finish(_ window: (seconds: Double, warmUp: Double, heard: Int)) throws -> Tally {
        usleep(300_000)
        phase.store(3, ordering: .relaxed)
        var total = Tally()
        var failure: (any Error)?
        for worker in workers.withLock({ $0 }) {
            switch worker.wait() {
            case .success(let tally): total.add(tally)
            case .failure(let error): failure = error
            }
        }
        if let failure { throw failure }
        total.seconds = window.seconds
        total.warmUp = window.warmUp
        total.heardBeforeCounting = window.heard
        return total
    }

    /// Phase for a raw publisher that counts its own sends in the same window, and stops after it.
    var counting: Bool { phase.load(ordering: .relaxed) == 1 }
    var stopped: Bool { phase.load(ordering: .relaxed) >= 2 }

    /// One thread's subscribers, on libzmq's C API directly: the wrapper copies every frame into
    /// arrays, and at a million messages a second on two cores that copying would be the
    /// benchmark's own limit (and take CPU from the publisher it measures). Frames are read in
    /// place from one reused `zmq_msg_t`; the poll items are built once.
    private func serve(_ share: Int, _ endpoint: String) throws -> Tally {
        guard let context = zmq_ctx_new() else { throw BenchError("zmq_ctx_new failed") }
        defer { zmq_ctx_term(context) }
        zmq_ctx_set(context, ZMQ_MAX_SOCKETS, Int32(share + 16))
        var sockets: [UnsafeMutableRawPointer] = []
        defer { for socket in sockets { zmq_close(socket) } }
        for index in 0..<share {
            guard let socket = zmq_socket(context, ZMQ_SUB) else { throw BenchError("zmq_socket: \(Self.lastError)") }
            sockets.append(socket)
            var linger: Int32 = 0
            zmq_setsockopt(socket, ZMQ_LINGER, &linger, MemoryLayout<Int32>.size)
            guard zmq_setsockopt(socket, ZMQ_SUBSCRIBE, nil, 0) == 0, zmq_connect(socket, endpoint) == 0 else {
                throw BenchError("SUB \(endpoint): \(Self.lastError)")
            }
            // Displays do not all connect in the same millisecond: spread the connections so
            // that the listener's backlog (100 by default) is not what is measured.
            if index % 50 == 49 { usleep(20_000) }
        }
        var items = sockets.map { zmq_pollitem_t(socket: $0, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0) }
        var last = [Int64](repeating: -1, count: share)
        var delivered = [Int](repeating: 0, count: share)
        var gaps = [Int](repeating: 0, count: share)
        var tally = Tally()
        let suffix = Array("/event".utf8)
        var topic = zmq_msg_t()
        var body = zmq_msg_t()
        zmq_msg_init(&topic)
        zmq_msg_init(&body)
        defer {
            zmq_msg_close(&topic)
            zmq_msg_close(&body)
        }
        while phase.load(ordering: .relaxed) != 3 {
            let ready = zmq_poll(&items, Int32(items.count), 20)
            if ready < 0 {
                if zmq_errno() == EINTR { continue }
                throw BenchError("zmq_poll: \(Self.lastError)")
            }
            if ready == 0 { continue }
            for index in items.indices where items[index].revents & Int16(ZMQ_POLLIN) != 0 {
                let socket = sockets[index]
                for _ in 0..<256 {
                    guard zmq_msg_recv(&topic, socket, ZMQ_DONTWAIT) >= 0 else { break }
                    // Count only two-frame messages (topic, body); read the rest of any other.
                    guard zmq_msg_more(&topic) == 1 else { continue }
                    guard zmq_msg_recv(&body, socket, 0) >= 0 else { throw BenchError("zmq_msg_recv: \(Self.lastError)") }
                    var extra = false
                    while zmq_msg_more(&body) == 1 {
                        extra = true
                        guard zmq_msg_recv(&body, socket, 0) >= 0 else { throw BenchError("zmq_msg_recv: \(Self.lastError)") }
                    }
                    if extra { continue }
                    let topicBytes = UnsafeRawBufferPointer(start: zmq_msg_data(&topic), count: zmq_msg_size(&topic))
                    guard topicBytes.count >= suffix.count, topicBytes.suffix(suffix.count).elementsEqual(suffix) else {
                        continue
                    }
                    let bodyBytes = UnsafeRawBufferPointer(start: zmq_msg_data(&body), count: zmq_msg_size(&body))
                    guard let sequence = scanSequence(bodyBytes) else { continue }
                    let previous = last[index]
                    if previous < 0 { heard.add(1, ordering: .relaxed) }
                    last[index] = sequence
                    guard phase.load(ordering: .relaxed) == 1 else { continue }
                    delivered[index] += 1
                    tally.messages += 1
                    tally.topicBytes += topicBytes.count
                    tally.bodyBytes += bodyBytes.count
                    tally.lowest = min(tally.lowest, sequence)
                    tally.highest = max(tally.highest, sequence)
                    if previous >= 0 {
                        if sequence > previous + 1 {
                            gaps[index] += Int(sequence - previous - 1)
                        } else if sequence <= previous {
                            tally.disorder += 1
                        }
                    }
                }
            }
        }
        tally.delivered = delivered.reduce(0, +)
        tally.gaps = gaps.reduce(0, +)
        tally.gapless = zip(delivered, gaps).filter { $0.0 > 0 && $0.1 == 0 }.count
        tally.silent = delivered.filter { $0 == 0 }.count
        return tally
    }

    private static var lastError: String { String(cString: zmq_strerror(zmq_errno())) }
}

/// The value of the first `"sequence"` key in a JSON body, without decoding the rest (in an
/// event, the first is the top-level one: no nested object of an event has that key).
func scanSequence(_ bytes: UnsafeRawBufferPointer) -> Int64? {
    let key: StaticString = "\"sequence\""
    let keyBytes = UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
    let count = bytes.count
    var start = 0
    while start + keyBytes.count < count {
        guard bytes[start] == keyBytes[0] else {
            start += 1
            continue
        }
        var matched = true
        for offset in 1..<keyBytes.count where bytes[start + offset] != keyBytes[offset] {
            matched = false
            break
        }
        if !matched {
            start += 1
            continue
        }
        var index = start + keyBytes.count
        while index < count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: ":") { index += 1 }
        var value: Int64 = 0
        var digits = 0
        while index < count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
            index += 1
            digits += 1
        }
        return digits > 0 ? value : nil
    }
    return nil
}

/// A bare PUB socket sending same-sized messages as fast as it can: the machine's fan-out ceiling.
enum RawPublisher {
    /// Sends flat out (`rate` nil) or at `rate` messages per second.
    static func measure(
        subscribers: Int, threads: Int, seconds: Double, topicSize: Int, bodySize: Int, games: Int, rate: Double?
    ) throws -> (served: Tally, sentPerSecond: Double) {
        let context = try ZMQContext()
        defer { context.terminate() }
        let publisher = try context.socket(.pub)
        try publisher.set(.linger(milliseconds: 0))
        try publisher.set(.sendHighWaterMark(10_000))
        try publisher.bind("tcp://127.0.0.1:*")
        let endpoint = publisher.lastEndpoint
        let pool = SubscriberPool(count: subscribers, threads: threads, endpoint: endpoint)
        let sender = SocketThread(publisher) { publisher throws -> (Int, Double) in
            defer { publisher.close() }
            // Topics gK/event padded to the daemon's mean topic size; bodies of its mean body
            // size, with a fixed-width sequence written in place.
            let topics = (0..<max(1, games)).map { game -> [UInt8] in
                let topic = Array("g\(game)/event".utf8)
                return Array(repeating: UInt8(ascii: "g"), count: max(0, topicSize - topic.count)) + topic
            }
            let head = Array("{\"sequence\":".utf8)
            let digits = 15
            var body = head + [UInt8](repeating: UInt8(ascii: "0"), count: digits) + Array(",\"pad\":\"".utf8)
            body += [UInt8](repeating: UInt8(ascii: "x"), count: max(0, bodySize - body.count - 2)) + Array("\"}".utf8)
            var sequence: Int64 = 1
            var sent = 0
            var countingSince: ContinuousClock.Instant?
            // Paced: a token bucket that holds at most 5 ms of sends, so that a sender that
            // fell behind (a send to 1000 pipes takes long) does not catch up in a burst.
            var tokens = 0.0
            var refilled = ContinuousClock.now
            while !pool.stopped {
                if let rate {
                    let now = ContinuousClock.now
                    tokens = min(max(1, rate * 0.005), tokens + (now - refilled).inSeconds * rate)
                    refilled = now
                    guard tokens >= 1 else {
                        usleep(200)
                        continue
                    }
                    tokens -= 1
                }
                var value = sequence
                for position in stride(from: head.count + digits - 1, through: head.count, by: -1) {
                    body[position] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                try publisher.send([topics[Int(sequence % Int64(topics.count))], body])
                sequence += 1
                if pool.counting {
                    if countingSince == nil { countingSince = .now }
                    sent += 1
                }
            }
            return (sent, countingSince.map { (ContinuousClock.now - $0).inSeconds } ?? 0)
        }
        let window = pool.measure(seconds: seconds)
        let (sent, sentSeconds) = try sender.wait().get()
        let served = try pool.finish(window)
        return (served, sentSeconds > 0 ? Double(sent) / sentSeconds : 0)
    }
}
