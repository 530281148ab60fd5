import CourtsideModel
import CourtsideProtocol
import Foundation
import ZeroMQ

/// One shared context for every test socket.
let testContext = try! ZMQContext()

/// A scorekeeper: a DEALER on the command endpoint that sends requests and waits for replies.
final class Keeper {
    let clientID: String
    private let socket: ZMQSocket
    private var counter = 0

    init(
        _ endpoint: String, clientID: String = "keeper-\(UUID().uuidString.prefix(6))", timeoutMilliseconds: Int32 = 10_000
    ) throws {
        self.clientID = clientID
        socket = try testContext.socket(.dealer)
        try socket.set(.linger(milliseconds: 0))
        try socket.set(.receiveTimeout(milliseconds: timeoutMilliseconds))
        try socket.connect(endpoint)
    }

    func nextOrigin() -> CommandOrigin {
        counter += 1
        return CommandOrigin(clientID: clientID, commandID: "\(counter)")
    }

    /// Sends one request and returns its reply.
    @discardableResult
    func send(_ operation: Request.Operation, origin: CommandOrigin? = nil) throws -> Reply {
        try sendRaw([Request(origin: origin ?? nextOrigin(), operation: operation).encoded()])
    }

    /// Sends frames as they are and decodes the one reply.
    func sendRaw(_ frames: [[UInt8]]) throws -> Reply {
        try socket.send(frames)
        return try WireCoding.decode(Reply.self, from: try socket.receive().last ?? [])
    }

    /// Sends many requests before reading any reply (pipelining), then returns the replies.
    func pipeline(_ operations: [Request.Operation]) throws -> [Reply] {
        for operation in operations {
            try socket.send([Request(origin: nextOrigin(), operation: operation).encoded()])
        }
        return try operations.map { _ in try WireCoding.decode(Reply.self, from: try socket.receive().last ?? []) }
    }
}

/// A display that follows the sync contract of docs/PROTOCOL.md for every game.
final class Display {
    private let subscriber: ZMQSocket
    private let keeper: Keeper
    private(set) var epoch = ""
    private(set) var sequence: Int64 = 0
    private(set) var games: [GameID: LiveState] = [:]
    private(set) var resyncs = 0
    private(set) var heartbeats = 0

    init(command: String, events: String, receiveHighWaterMark: Int32 = 1000) throws {
        subscriber = try testContext.socket(.sub)
        try subscriber.set(.linger(milliseconds: 0))
        try subscriber.set(.receiveHighWaterMark(receiveHighWaterMark))
        try subscriber.set(.receiveTimeout(milliseconds: 100))
        try subscriber.connect(events)
        try subscriber.set(.subscribe([]))
        keeper = try Keeper(command, clientID: "display-\(UUID().uuidString.prefix(6))")
        try resync(counting: false)
    }

    func resync(counting: Bool = true) throws {
        let reply = try keeper.send(.snapshot(game: nil))
        guard reply.ok, let snapshot = reply.snapshot, let sequence = reply.sequence else {
            throw DaemonError("snapshot failed: \(reply)")
        }
        epoch = reply.epoch
        self.sequence = sequence
        games = Dictionary(uniqueKeysWithValues: snapshot.map { ($0.id, LiveState($0)) })
        if counting { resyncs += 1 }
    }

    /// Reads and applies messages until `until` holds or `seconds` pass; returns whether it held.
    @discardableResult
    func pump(seconds: Double = 10, until: () -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if until() { return true }
            guard let frames = try receive() else { continue }
            guard frames.count == 2 else { throw DaemonError("event message with \(frames.count) frames") }
            if frames[0] == Topic.heartbeat {
                heartbeats += 1
                let heartbeat = try WireCoding.decode(HeartbeatMessage.self, from: frames[1])
                if heartbeat.epoch != epoch || heartbeat.sequence > sequence { try resync() }
            } else {
                try apply(try WireCoding.decode(EventMessage.self, from: frames[1]))
            }
        }
        return until()
    }

    /// The next message, or nil when none came within the receive timeout.
    private func receive() throws -> [[UInt8]]? {
        do {
            return try subscriber.receive()
        } catch {
            if error.wouldBlock { return nil }
            throw error
        }
    }

    private func apply(_ event: EventMessage) throws {
        if event.epoch != epoch { return try resync() }
        if event.sequence <= sequence { return }
        let known = games[event.game]?.version ?? 0
        if event.sequence != sequence + 1 || event.version != known + 1 { return try resync() }
        games[event.game] = event.state
        sequence = event.sequence
    }
}
