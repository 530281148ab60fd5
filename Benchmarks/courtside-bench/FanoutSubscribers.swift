import CZeroMQ
import CourtsideSimulator
import Foundation
import Synchronization
import ZeroMQ

#if canImport(Glibc)
    import Glibc
#endif

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
