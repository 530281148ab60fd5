public import CourtsideModel
public import CourtsideProtocol
import Foundation
public import ZeroMQ

extension CourtsideError.Code {
    /// Client side only: the daemon did not answer within the client's tries.
    public static let unreachable = CourtsideError.Code(rawValue: "unreachable")
    /// Client side only: the daemon's answer was not what the protocol promises.
    public static let protocolViolation = CourtsideError.Code(rawValue: "protocol_violation")
    /// Client side only: a key file or key given to the client cannot be used.
    public static let badKey = CourtsideError.Code(rawValue: "bad_key")
}

extension CurveClientKeys {
    /// The keys of a client: its secret certificate file, and the daemon's public key as a
    /// certificate file or 40 Z85 characters.
    public static func load(certificate: String, serverKey: String) throws(CourtsideError) -> CurveClientKeys {
        let file: ZMQCertificate
        do {
            file = try ZMQCertificate.load(path: certificate)
        } catch {
            throw CourtsideError(.badKey, error.description)
        }
        guard let pair = file.keyPair else {
            throw CourtsideError(.badKey, "\(certificate) is a public certificate; give your secret one (NAME.key_secret)")
        }
        if let key = CurveKey(z85: serverKey) { return CurveClientKeys(client: pair, serverPublicKey: key) }
        do {
            return CurveClientKeys(client: pair, serverPublicKey: try ZMQCertificate.load(path: serverKey).publicKey)
        } catch {
            throw CourtsideError(.badKey, "the server key is neither 40 Z85 characters nor a certificate file: \(error)")
        }
    }
}

/// The process-wide ZeroMQ context of the client library.
public let sharedClientContext: ZMQContext = {
    do {
        return try ZMQContext()
    } catch {
        fatalError("libzmq cannot create a context: \(error)")
    }
}()

/// Where a daemon listens, and the keys to talk to it when it is secured. Each endpoint may
/// list several daemons, comma-separated (an active one and its standbys): commands fail over
/// to the next on a timeout, and a display subscribes to all.
public struct Endpoints: Sendable, Equatable {
    public var command: String
    public var events: String
    /// This client's key pair and the daemon's public key; nil talks plaintext.
    public var curve: CurveClientKeys?

    public init(command: String = "tcp://127.0.0.1:5555", events: String = "tcp://127.0.0.1:5556", curve: CurveClientKeys? = nil)
    {
        self.command = command
        self.events = events
        self.curve = curve
    }
}

/// The scorekeeper's side of the protocol: requests with Lazy Pirate reliability.
///
/// Each request gets a new command id; when no reply comes within `timeout`, the client drops
/// its socket (and any late reply with it), opens a new one and resends the *same* request,
/// which the daemon applies at most once. After `attempts` tries it gives up with `unreachable`.
/// Blocking and single-threaded: use one client per thread.
///
/// `endpoint` may list several daemons, comma-separated (a ZeroMQ endpoint never holds a
/// comma): each try that times out moves to the next, round the list, with the same ids (the
/// client side of the ZeroMQ Guide's Binary Star), and the client stays with the one that answered.
public final class CommandClient {
    /// The endpoint the client talks to now: the first listed, then whichever answered last.
    public private(set) var endpoint: String
    /// Every endpoint listed, in order.
    public let endpoints: [String]
    public let clientID: String
    public let timeoutMilliseconds: Int32
    public let attempts: Int
    /// CURVE keys for a secured daemon; nil talks plaintext.
    public let curve: CurveClientKeys?
    private let context: ZMQContext
    private var socket: ZMQSocket?
    /// Unique per process, so command ids never repeat across runs of a keeper with a fixed id.
    private let session = UUID().uuidString.prefix(8).lowercased()
    private var counter = 0

    public init(
        endpoint: String, clientID: String, timeoutMilliseconds: Int32 = 2500, attempts: Int = 3,
        curve: CurveClientKeys? = nil, context: ZMQContext = sharedClientContext
    ) {
        endpoints = Self.list(endpoint)
        self.endpoint = endpoints[0]
        self.clientID = clientID
        self.timeoutMilliseconds = timeoutMilliseconds
        // Every listed daemon gets at least one try.
        self.attempts = max(1, attempts, endpoints.count)
        self.curve = curve
        self.context = context
    }

    /// A client of the daemon at `endpoints`, with their keys.
    public convenience init(endpoints: Endpoints, clientID: String, timeoutMilliseconds: Int32 = 2500, attempts: Int = 3) {
        self.init(
            endpoint: endpoints.command, clientID: clientID, timeoutMilliseconds: timeoutMilliseconds, attempts: attempts,
            curve: endpoints.curve)
    }

    /// The origin the next request will carry.
    public func nextOrigin() -> CommandOrigin {
        counter += 1
        return CommandOrigin(clientID: clientID, commandID: "\(session)-\(counter)")
    }

    /// Sends a request and returns the daemon's reply, whether ok or an error reply.
    public func send(_ operation: Request.Operation, origin: CommandOrigin? = nil) throws(CourtsideError) -> Reply {
        let request = Request(origin: origin ?? nextOrigin(), operation: operation)
        let body = request.encoded()
        // `not_active` (a standby, or one that stepped down) costs no attempt: the next daemon is
        // asked at once, and after a round of them a moment later, until the time the attempts
        // would have taken is spent: a takeover takes about a lease (2 s by default).
        let patience = ContinuousClock.now + .milliseconds(Int(timeoutMilliseconds) * attempts)
        var notActive: (reply: Reply, inARow: Int)?
        var attempt = 0
        while attempt < attempts {
            attempt += 1
            do {
                let socket = try connectedSocket()
                try socket.send([body])
                var poller = ZMQPoller()
                poller.add(socket)
                // Skip stale replies to earlier requests; only ours counts.
                let deadline = ContinuousClock.now + .milliseconds(Int(timeoutMilliseconds))
                while ContinuousClock.now < deadline {
                    let left = deadline - ContinuousClock.now
                    let milliseconds = left.inMilliseconds
                    guard try poller.poll(timeoutMilliseconds: max(1, milliseconds)).first == true else { continue }
                    let frames = try socket.receive()
                    guard let last = frames.last, let reply = try? WireCoding.decode(Reply.self, from: last) else {
                        throw CourtsideError(.protocolViolation, "\(endpoint) answered with something that is not a reply")
                    }
                    guard reply.commandID == nil || reply.commandID == request.origin.commandID else { continue }
                    guard reply.error?.code == .notActive, ContinuousClock.now < patience else { return reply }
                    let inARow = (notActive?.inARow ?? 0) + 1
                    notActive = (reply, inARow)
                    attempt -= 1
                    if inARow % endpoints.count == 0 { Thread.sleep(forTimeInterval: 0.1) }
                    break
                }
            } catch let error as ZMQError {
                throw CourtsideError(.unreachable, "cannot talk to courtsided at \(endpoint): \(error)")
            } catch let error as CourtsideError {
                throw error
            } catch {
                throw CourtsideError(.unreachable, "cannot talk to courtsided at \(endpoint): \(error)")
            }
            // Lazy Pirate: abandon the socket, so a late reply cannot be mistaken for the next one;
            // with several daemons listed, the next try goes to the next one.
            socket?.close()
            socket = nil
            if endpoints.count > 1, let index = endpoints.firstIndex(of: endpoint) {
                endpoint = endpoints[(index + 1) % endpoints.count]
            }
            if notActive != nil, ContinuousClock.now >= patience { break }
        }
        if let notActive { return notActive.reply }
        // A secured daemon answers a key it does not know with silence, so say so.
        let hint =
            curve == nil
            ? "is it running? If it is secured, give your key (--key) and its public key (--server-key)"
            : "is it running, and is your key listed in its security section?"
        throw CourtsideError(
            .unreachable,
            "courtsided did not answer at \(endpoints.joined(separator: " or ")) (\(attempts) tries, \(timeoutMilliseconds) ms each); \(hint)"
        )
    }

    /// Sends a command and returns its reply, throwing the daemon's refusal as an error.
    @discardableResult
    public func command(_ operation: Request.Operation, origin: CommandOrigin? = nil) throws(CourtsideError) -> Reply {
        let reply = try send(operation, origin: origin)
        if let error = reply.error { throw CourtsideError(error.code, error.message) }
        return reply
    }

    /// Every game's state (or one game's) and the sequence it reflects. A game that does not
    /// exist yet gives an empty list, not an error.
    public func snapshot(game: GameID? = nil) throws(CourtsideError) -> (reply: Reply, games: [Game]) {
        let reply = try send(.snapshot(game: game))
        if let error = reply.error {
            if game != nil, error.code == .unknownGame { return (reply, []) }
            throw CourtsideError(error.code, error.message)
        }
        guard let games = reply.snapshot, reply.sequence != nil else {
            throw CourtsideError(.protocolViolation, "a snapshot reply without snapshot or sequence")
        }
        return (reply, games)
    }

    /// The endpoints a comma-separated list names, blanks dropped; the list itself when it names none.
    static func list(_ endpoints: String) -> [String] {
        let listed = endpoints.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return listed.isEmpty ? [endpoints] : listed
    }

    private func connectedSocket() throws(ZMQError) -> ZMQSocket {
        if let socket { return socket }
        let socket = try context.socket(.dealer)
        try socket.set(.linger(milliseconds: 0))
        try socket.set(.sendHighWaterMark(1000))
        try socket.set(.receiveHighWaterMark(1000))
        if let curve { try socket.useCurve(curve) }
        try socket.connect(endpoint)
        self.socket = socket
        return socket
    }
}
