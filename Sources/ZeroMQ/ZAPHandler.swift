import CZeroMQ

/// One handshake that libzmq asks the ZAP handler to authenticate (ZeroMQ RFC 27).
public struct ZAPRequest: Sendable {
    /// The socket's `ZMQ_ZAP_DOMAIN`.
    public var domain: String
    /// The peer's IP address.
    public var address: String
    /// `NULL`, `PLAIN` or `CURVE`.
    public var mechanism: String
    /// For CURVE, the client's long-term public key.
    public var curvePublicKey: CurveKey?
}

/// The handler's answer: the user id that every message of the connection will carry, or no.
public enum ZAPDecision: Sendable, Equatable {
    case accept(userID: String)
    case reject(reason: String)
}

/// The ZAP handler's socket: a REP bound to `inproc://zeromq.zap.01` in the context of the
/// sockets it authenticates. Bind it before any server socket binds, or libzmq may let early
/// handshakes through unauthenticated. Not thread-safe: the thread that polls it answers it.
public final class ZAPHandler {
    /// Where libzmq sends its authentication requests (fixed by RFC 27).
    public static let endpoint = "inproc://zeromq.zap.01"

    public let socket: ZMQSocket

    public init(context: ZMQContext) throws(ZMQError) {
        socket = try context.socket(.rep)
        try socket.set(.linger(milliseconds: 0))
        try socket.bind(Self.endpoint)
    }

    /// Answers every request waiting on the socket, without blocking; returns how many.
    @discardableResult
    public func answerPending(_ decide: (ZAPRequest) -> ZAPDecision) -> Int {
        var answered = 0
        while let frames = try? socket.receive(flags: .dontWait) {
            // REP needs a reply to every request before it reads the next one, even a malformed one.
            let requestID = frames.count > 1 ? frames[1] : []
            let decision: ZAPDecision
            if let request = Self.parse(frames) {
                decision = decide(request)
            } else {
                decision = .reject(reason: "malformed ZAP request")
            }
            let (status, text, userID): (String, String, String) =
                switch decision {
                case .accept(let userID): ("200", "OK", userID)
                case .reject(let reason): ("400", reason, "")
                }
            try? socket.send([Array("1.0".utf8), requestID, Array(status.utf8), Array(text.utf8), Array(userID.utf8), []])
            answered += 1
        }
        return answered
    }

    /// Frames: version, request id, domain, address, identity, mechanism, credentials...
    static func parse(_ frames: [[UInt8]]) -> ZAPRequest? {
        guard frames.count >= 6, frames[0] == Array("1.0".utf8) else { return nil }
        let text = { (index: Int) in String(decoding: frames[index], as: UTF8.self) }
        var request = ZAPRequest(domain: text(2), address: text(3), mechanism: text(5), curvePublicKey: nil)
        if request.mechanism == "CURVE" {
            guard frames.count == 7, frames[6].count == 32 else { return nil }
            var encoded = [CChar](repeating: 0, count: 41)
            guard zmq_z85_encode(&encoded, frames[6], 32) != nil else { return nil }
            request.curvePublicKey = CurveKey(z85: z85String(encoded))
        }
        return request
    }
}
