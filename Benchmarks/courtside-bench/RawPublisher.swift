import Foundation
import ZeroMQ

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
