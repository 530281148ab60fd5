import CourtsideClient
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

    /// Sends many requests ahead of their replies (pipelining), and returns the replies.
    ///
    /// At most `window` are in flight: past the command socket's high-water mark (1,000 a peer
    /// by default) the daemon's ROUTER drops replies to a peer that sends without reading, and
    /// a client that does not retry would wait for them for ever.
    func pipeline(_ operations: [Request.Operation], window: Int = 500) throws -> [Reply] {
        var replies: [Reply] = []
        var sent = 0
        while replies.count < operations.count {
            while sent < operations.count, sent - replies.count < window {
                try socket.send([Request(origin: nextOrigin(), operation: operations[sent]).encoded()])
                sent += 1
            }
            replies.append(try WireCoding.decode(Reply.self, from: try socket.receive().last ?? []))
        }
        return replies
    }
}

extension DisplaySync {
    /// A display of every game on a daemon, through the reference client.
    convenience init(_ daemon: DaemonProcess, receiveHighWaterMark: Int32 = 1000) throws {
        try self.init(
            endpoints: Endpoints(command: daemon.commandEndpoint, events: daemon.eventEndpoint),
            client: CommandClient(endpoint: daemon.commandEndpoint, clientID: "display-\(UUID().uuidString.prefix(6))"),
            receiveHighWaterMark: receiveHighWaterMark)
    }

    /// Reads and applies messages until `until` holds or `seconds` pass; returns whether it held.
    @discardableResult
    func pump(seconds: Double = 10, until: () -> Bool) throws -> Bool {
        try keepTrying(seconds: seconds, until: until) { try pump(timeoutMilliseconds: 50) }
    }
}

/// Runs the `courtside` command line against `daemon` as the organiser (client id `organiser`):
/// its exit status and its output, standard error merged in.
func courtsideCLI(_ daemon: DaemonProcess, _ arguments: [String]) throws -> (status: Int32, output: String) {
    try ChildProcess.run(
        DaemonProcess.executable.deletingLastPathComponent().appendingPathComponent("courtside").path,
        arguments + ["--command-endpoint", daemon.commandEndpoint, "--client-id", "organiser"], mergeError: true)
}

/// A second courtsided started from a config file alone (a `tournament dump`), with a data
/// directory and endpoints of its own beside `daemon`'s; stopped when released.
final class DaemonFromConfig {
    let process: ChildProcess
    /// The organiser's client of it, patient while it starts.
    let client: CommandClient

    init(_ config: String, beside daemon: DaemonProcess) throws {
        let (command, events) = ("tcp://127.0.0.1:\(try freePort())", "tcp://127.0.0.1:\(try freePort())")
        let log = daemon.directory.appendingPathComponent("copy.log").path
        process = try ChildProcess(
            DaemonProcess.executable.path,
            [
                "--config", config, "--data-dir", daemon.directory.appendingPathComponent("copy").path, "--command-endpoint",
                command, "--event-endpoint", events,
            ], output: .file(log), error: .file(log))
        client = CommandClient(endpoint: command, clientID: "organiser", timeoutMilliseconds: 1000, attempts: 10)
    }

    deinit {
        process.signal(SIGTERM)
        _ = process.wait(seconds: 5)
    }
}
