import ArgumentParser
import CourtsideModel
import CourtsideProtocol
import CourtsideSimulator
import Foundation
import ZeroMQ

/// Scorekeepers that drive moves into a running courtsided, each on a thread of its own with a
/// DEALER socket and `window` requests in flight. Keeper k's n-th move is a rebound (it scores
/// nothing, so no game ends) in game (k + n * keepers) % games, by that game's home player.
struct KeeperLoad: Sendable {
    var keepers: Int
    var games: Int
    var window: Int
    var curve: CurveClientKeys?
    /// Distinguishes the client ids of several loads against one daemon.
    var run = "bench"

    /// Runs until every keeper has `moves` replies, or `stop` is set (then the keepers stop
    /// sending and wait for the replies in flight). Returns every round trip in microseconds,
    /// sorted, and the time from the first send to the last reply.
    func drive(_ context: ZMQContext, _ endpoint: String, moves: Int, stop: StopFlag? = nil) throws -> (
        latencies: [Double], elapsed: Duration
    ) {
        let start = ContinuousClock.now
        let results = (0..<keepers).map { keeper in
            BlockingThread { () throws -> [Double] in
                try self.keeper(keeper, context, endpoint, moves: moves, stop: stop)
            }
        }
        let latencies = try results.flatMap { try $0.wait().get() }.sorted()
        return (latencies, ContinuousClock.now - start)
    }

    private func keeper(_ keeper: Int, _ context: ZMQContext, _ endpoint: String, moves: Int, stop: StopFlag?) throws
        -> [Double]
    {
        let socket = try context.socket(.dealer)
        defer { socket.close() }
        try socket.set(.linger(milliseconds: 0))
        try socket.set(.receiveTimeout(milliseconds: 10_000))
        if let curve { try socket.useCurve(curve) }
        try socket.connect(endpoint)
        var latencies: [Double] = []
        latencies.reserveCapacity(min(moves, 1_000_000))
        var sentAt: [String: ContinuousClock.Instant] = [:]
        var next = 0
        func stopped() -> Bool { stop?.isSet ?? false }
        func send() throws {
            let game = (keeper + next * keepers) % games
            let request = Request(
                origin: CommandOrigin(clientID: "\(run)-\(keeper)", commandID: "\(next)"),
                operation: .move(game: GameID("g\(game)"), player: PlayerID("p\(2 * game)"), move: .rebound))
            sentAt["\(next)"] = .now
            next += 1
            try socket.send([request.encoded()])
        }
        while next < min(window, moves) { try send() }
        while !sentAt.isEmpty {
            let body = try socket.receive().last ?? []
            // An `ok` reply is read by hand: decoding each with Foundation would spend this
            // client's share of the two cores, which the daemon shares, on the client.
            guard let id = ReplyPeek.acceptedCommandID(body), let sent = sentAt.removeValue(forKey: id) else {
                throw BenchError("unexpected reply: \(String(decoding: body, as: UTF8.self))")
            }
            latencies.append((ContinuousClock.now - sent).inSeconds * 1e6)
            if next < moves, !stopped() { try send() }
        }
        return latencies
    }
}

/// The machine's ceiling for pipelined requests: the same keepers and window as a `KeeperLoad`,
/// each a DEALER on its own thread, against one ROUTER thread that echoes a reply at once.
enum RawEcho {
    /// Returns replies per second over `messages` requests in all.
    static func throughput(keepers: Int, window: Int, messages: Int, requestSize: Int, replySize: Int) throws -> Double {
        let context = try ZMQContext()
        defer { context.terminate() }
        let router = try context.socket(.router)
        try router.set(.linger(milliseconds: 0))
        try router.set(.receiveTimeout(milliseconds: 5_000))
        try router.bind("tcp://127.0.0.1:*")
        let endpoint = router.lastEndpoint
        let perKeeper = max(1, messages / keepers)
        let total = perKeeper * keepers
        let echo = SocketThread(router) { router throws -> Void in
            defer { router.close() }
            let reply = [UInt8](repeating: UInt8(ascii: "r"), count: replySize)
            for _ in 0..<total {
                let frames = try router.receive()
                try router.send([frames[0], reply])
            }
        }
        let start = ContinuousClock.now
        let clients = (0..<keepers).map { _ in
            BlockingThread { () throws -> Void in
                let socket = try context.socket(.dealer)
                defer { socket.close() }
                try socket.set(.linger(milliseconds: 0))
                try socket.set(.receiveTimeout(milliseconds: 5_000))
                try socket.connect(endpoint)
                let request = [UInt8](repeating: UInt8(ascii: "q"), count: requestSize)
                var sent = 0
                var received = 0
                while sent < min(window, perKeeper) {
                    try socket.send([request])
                    sent += 1
                }
                while received < perKeeper {
                    _ = try socket.receive()
                    received += 1
                    if sent < perKeeper {
                        try socket.send([request])
                        sent += 1
                    }
                }
            }
        }
        for client in clients { try client.wait().get() }
        let seconds = (ContinuousClock.now - start).inSeconds
        try echo.wait().get()
        return Double(total) / seconds
    }
}
