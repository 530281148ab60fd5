import CZeroMQ

/// A typed socket option. Each case states its unit; see `man zmq_setsockopt`.
public enum ZMQSocketOption: Sendable {
    /// How long unsent messages wait after close, in milliseconds (-1: forever, 0: drop).
    case linger(milliseconds: Int32)
    /// Outgoing queue limit in messages; beyond it PUB drops and others block or fail with EAGAIN.
    case sendHighWaterMark(Int32)
    /// Incoming queue limit in messages.
    case receiveHighWaterMark(Int32)
    /// Largest inbound message in bytes; a peer that sends a larger one is disconnected.
    case maxMessageSize(Int64)
    /// Identity a DEALER or REQ announces to a ROUTER.
    case routingID([UInt8])
    /// SUB: receive messages whose first frame starts with these bytes (empty: everything).
    case subscribe([UInt8])
    /// SUB: stop receiving a prefix.
    case unsubscribe([UInt8])
    /// Receive timeout in milliseconds (-1: block).
    case receiveTimeout(milliseconds: Int32)
    /// Send timeout in milliseconds (-1: block).
    case sendTimeout(milliseconds: Int32)
    /// Only queue messages to completed connections.
    case immediate(Bool)
    /// ROUTER: fail with EHOSTUNREACH instead of dropping messages to unknown peers.
    case routerMandatory(Bool)
    /// XPUB: pass every subscription message up, not only a topic's first.
    case xpubVerbose(Bool)
    /// Be the CURVE server of every connection (needs ``curveSecretKey(_:)`` too).
    case curveServer(Bool)
    /// This side's long-term CURVE public key (a client sets it with its secret key).
    case curvePublicKey(CurveKey)
    /// This side's long-term CURVE secret key.
    case curveSecretKey(CurveKey)
    /// A CURVE client: the server's public key, which makes the socket a CURVE client.
    case curveServerKey(CurveKey)
    /// The ZAP domain a server's handshakes are authenticated in.
    case zapDomain(String)
    /// Fail every handshake when no ZAP handler is bound, instead of accepting it unauthenticated.
    case zapEnforceDomain(Bool)
    /// How many connections a bound TCP socket queues before accepting them (the listen backlog).
    case backlog(Int32)
}

/// Flags for send and receive.
public struct ZMQFlags: OptionSet, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// Fail with EAGAIN instead of blocking.
    public static let dontWait = ZMQFlags(rawValue: ZMQ_DONTWAIT)
}

/// A libzmq socket. Not thread-safe: one thread uses it at a time (libzmq allows moving a
/// socket to another thread across a full memory barrier, such as a lock).
public final class ZMQSocket {
    let handle: UnsafeMutableRawPointer
    private var closed = false

    init(context: ZMQContext, type: ZMQSocketType) throws(ZMQError) {
        guard let handle = zmq_socket(context.handle, type.rawValue) else { throw ZMQError.last("zmq_socket") }
        self.handle = handle
    }

    deinit { close() }

    /// Closes the socket; pending messages linger as ``ZMQSocketOption/linger(milliseconds:)`` says.
    public func close() {
        guard !closed else { return }
        closed = true
        zmq_close(handle)
    }

    public func bind(_ endpoint: String) throws(ZMQError) {
        guard zmq_bind(handle, endpoint) == 0 else { throw ZMQError.last("zmq_bind(\(endpoint))") }
    }

    public func connect(_ endpoint: String) throws(ZMQError) {
        guard zmq_connect(handle, endpoint) == 0 else { throw ZMQError.last("zmq_connect(\(endpoint))") }
    }

    /// The endpoint last bound, with the real port when bound to `*`.
    public var lastEndpoint: String {
        var buffer = [CChar](repeating: 0, count: 256)
        var size = buffer.count
        guard zmq_getsockopt(handle, ZMQ_LAST_ENDPOINT, &buffer, &size) == 0 else { return "" }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public func set(_ option: ZMQSocketOption) throws(ZMQError) {
        let result: Int32
        switch option {
        case .linger(let value): result = setInt(ZMQ_LINGER, value)
        case .sendHighWaterMark(let value): result = setInt(ZMQ_SNDHWM, value)
        case .receiveHighWaterMark(let value): result = setInt(ZMQ_RCVHWM, value)
        case .maxMessageSize(var value):
            result = zmq_setsockopt(handle, ZMQ_MAXMSGSIZE, &value, MemoryLayout<Int64>.size)
        case .routingID(let bytes): result = setBytes(ZMQ_ROUTING_ID, bytes)
        case .subscribe(let bytes): result = setBytes(ZMQ_SUBSCRIBE, bytes)
        case .unsubscribe(let bytes): result = setBytes(ZMQ_UNSUBSCRIBE, bytes)
        case .receiveTimeout(let value): result = setInt(ZMQ_RCVTIMEO, value)
        case .sendTimeout(let value): result = setInt(ZMQ_SNDTIMEO, value)
        case .immediate(let value): result = setInt(ZMQ_IMMEDIATE, value ? 1 : 0)
        case .routerMandatory(let value): result = setInt(ZMQ_ROUTER_MANDATORY, value ? 1 : 0)
        case .xpubVerbose(let value): result = setInt(ZMQ_XPUB_VERBOSE, value ? 1 : 0)
        case .curveServer(let value): result = setInt(ZMQ_CURVE_SERVER, value ? 1 : 0)
        case .curvePublicKey(let key): result = setBytes(ZMQ_CURVE_PUBLICKEY, Array(key.z85.utf8))
        case .curveSecretKey(let key): result = setBytes(ZMQ_CURVE_SECRETKEY, Array(key.z85.utf8))
        case .curveServerKey(let key): result = setBytes(ZMQ_CURVE_SERVERKEY, Array(key.z85.utf8))
        case .zapDomain(let domain): result = setBytes(ZMQ_ZAP_DOMAIN, Array(domain.utf8))
        case .zapEnforceDomain(let value): result = setInt(ZMQ_ZAP_ENFORCE_DOMAIN, value ? 1 : 0)
        case .backlog(let value): result = setInt(ZMQ_BACKLOG, value)
        }
        guard result == 0 else { throw ZMQError.last("zmq_setsockopt(\(option))") }
    }

    private func setInt(_ name: Int32, _ value: Int32) -> Int32 {
        var value = value
        return zmq_setsockopt(handle, name, &value, MemoryLayout<Int32>.size)
    }

    private func setBytes(_ name: Int32, _ bytes: [UInt8]) -> Int32 {
        bytes.withUnsafeBytes { zmq_setsockopt(handle, name, $0.baseAddress, $0.count) }
    }

    /// The descriptor that becomes readable when the socket may have changed state (`ZMQ_FD`).
    ///
    /// It is edge-triggered: it signals libzmq's pending commands, not pending messages, and any
    /// call on the socket may take its signal. After it signals, and after every send or receive,
    /// ask ``hasIncoming()`` before waiting on it again.
    public func fileDescriptor() throws(ZMQError) -> Int32 {
        var fd: Int32 = -1
        var size = MemoryLayout<Int32>.size
        guard !closed else { throw ZMQError(code: ENOTSOCK, operation: "zmq_getsockopt(ZMQ_FD) on a closed socket") }
        guard zmq_getsockopt(handle, ZMQ_FD, &fd, &size) == 0 else { throw ZMQError.last("zmq_getsockopt(ZMQ_FD)") }
        return fd
    }

    /// Whether a message can be received now (`ZMQ_EVENTS` holds `ZMQ_POLLIN`). Takes libzmq's
    /// pending commands for the socket, which resets ``fileDescriptor()``.
    public func hasIncoming() throws(ZMQError) -> Bool {
        var events: Int32 = 0
        var size = MemoryLayout<Int32>.size
        guard !closed else { throw ZMQError(code: ENOTSOCK, operation: "zmq_getsockopt(ZMQ_EVENTS) on a closed socket") }
        while zmq_getsockopt(handle, ZMQ_EVENTS, &events, &size) != 0 {
            let error = ZMQError.last("zmq_getsockopt(ZMQ_EVENTS)")
            if error.interrupted { continue }
            throw error
        }
        return events & ZMQ_POLLIN != 0
    }

    /// Sends a multipart message atomically: all frames or none.
    public func send(_ frames: [[UInt8]], flags: ZMQFlags = []) throws(ZMQError) {
        // Indices rather than `enumerated()`, whose iterator the profile showed unspecialized
        // here, copying each frame through value witnesses on every reply.
        for index in frames.indices {
            try send(frame: frames[index], more: index < frames.count - 1, flags: flags)
        }
    }

    /// Sends one frame of a multipart message; `more` says that frames follow. libzmq queues the
    /// message, all frames or none, once its last frame is sent: a caller sends a message's frames
    /// one after the other without building an array of them (the I/O thread does, per reply).
    public func send(frame: [UInt8], more: Bool, flags: ZMQFlags = []) throws(ZMQError) {
        // libzmq may have freed a closed socket: never hand it the handle again.
        guard !closed else { throw ZMQError(code: ENOTSOCK, operation: "zmq_send on a closed socket") }
        let flags = flags.rawValue | (more ? ZMQ_SNDMORE : 0)
        if frame.count >= Self.zeroCopyBytes { return try sendWithoutCopy(frame, flags: flags) }
        if let error = frame.withUnsafeBytes({ sendCopying($0, flags: flags) }) { throw error }
    }

    /// Sends one frame, a part of a larger buffer, as ``send(frame:more:flags:)`` does; libzmq
    /// copies it whatever its size (the buffer is the caller's to free).
    public func send(frame: ArraySlice<UInt8>, more: Bool, flags: ZMQFlags = []) throws(ZMQError) {
        // Through a Result: `withUnsafeBytes` rethrows an untyped error.
        try frame.withUnsafeBytes { bytes in
            Result { () throws(ZMQError) in try send(bytes: bytes, more: more, flags: flags) }
        }.get()
    }

    /// Sends one frame from `bytes`, which libzmq copies whatever their size (they stay the caller's).
    public func send(bytes: UnsafeRawBufferPointer, more: Bool, flags: ZMQFlags = []) throws(ZMQError) {
        guard !closed else { throw ZMQError(code: ENOTSOCK, operation: "zmq_send on a closed socket") }
        let flags = flags.rawValue | (more ? ZMQ_SNDMORE : 0)
        if let error = sendCopying(bytes, flags: flags) { throw error }
    }

    /// Sends `bytes`, which libzmq copies; the error if it could not.
    private func sendCopying(_ bytes: UnsafeRawBufferPointer, flags: Int32) -> ZMQError? {
        while true {
            if zmq_send(handle, bytes.baseAddress, bytes.count, flags) >= 0 { return nil }
            let error = ZMQError.last("zmq_send")
            if !error.interrupted { return error }
        }
    }

    /// Frames this large are lent to libzmq rather than copied: a snapshot of thousands of games
    /// is megabytes, and the copy would be made on the thread that also sends every reply.
    public static let zeroCopyBytes = 64 * 1024

    /// Keeps a lent frame's bytes alive, unchanged, until libzmq has sent them.
    private final class LentFrame {
        let bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    private func sendWithoutCopy(_ frame: [UInt8], flags: Int32) throws(ZMQError) {
        let lent = Unmanaged.passRetained(LentFrame(frame))
        // The array's storage does not move while the LentFrame holds it and nothing mutates it.
        let base = lent.takeUnretainedValue().bytes.withUnsafeBytes { UnsafeMutableRawPointer(mutating: $0.baseAddress!) }
        var message = zmq_msg_t()
        // libzmq calls this, from whichever of its threads, once it no longer needs the bytes.
        let release: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, hint in
            if let hint { Unmanaged<LentFrame>.fromOpaque(hint).release() }
        }
        guard zmq_msg_init_data(&message, base, frame.count, release, lent.toOpaque()) == 0 else {
            lent.release()
            throw ZMQError.last("zmq_msg_init_data")
        }
        while zmq_msg_send(&message, handle, flags) < 0 {
            let error = ZMQError.last("zmq_msg_send")
            if error.interrupted { continue }
            zmq_msg_close(&message)  // still ours: this releases the frame
            throw error
        }
    }

    /// Receives one multipart message. With ``ZMQFlags/dontWait``, throws EAGAIN when none is queued.
    public func receive(flags: ZMQFlags = []) throws(ZMQError) -> [[UInt8]] {
        try receiveMessage(flags: flags).frames
    }

    /// Receives one multipart message with the connection's authenticated user id: the one the
    /// ZAP handler gave the peer, or nil on a connection ZAP did not authenticate.
    public func receiveMessage(flags: ZMQFlags = []) throws(ZMQError) -> (frames: [[UInt8]], userID: String?) {
        var frames: [[UInt8]] = []
        let (userID, _) = try receive(flags: flags, userID: true, source: false) { frames.append(Array($0)) }
        return (frames, userID)
    }

    /// Receives one multipart message and hands `frame` each of its frames in order, in place: the
    /// bytes are valid only during the call. A reader copies only what it keeps, into arrays of its
    /// own shape (the I/O thread reads every request so). Returns the connection's user id as
    /// ``receiveMessage(flags:)`` does when `userID` asks for it, nil otherwise: the look-up is one
    /// of libzmq's metadata maps a frame.
    public func receiveFrames(
        flags: ZMQFlags = [], userID: Bool, _ frame: (UnsafeRawBufferPointer) -> Void
    ) throws(ZMQError) -> String? {
        try receive(flags: flags, userID: userID, source: false, frame).userID
    }

    /// As ``receiveMessage(flags:)``, with the file descriptor of the connection it came over
    /// (libzmq's `ZMQ_SRCFD`): an XPUB learns from a subscription which connection is whose.
    public func receiveWithSource(flags: ZMQFlags = []) throws(ZMQError) -> (
        frames: [[UInt8]], userID: String?, sourceFD: Int32?
    ) {
        var frames: [[UInt8]] = []
        let (userID, sourceFD) = try receive(flags: flags, userID: true, source: true) { frames.append(Array($0)) }
        return (frames, userID, sourceFD)
    }

    /// Asks for the user id and the source descriptor only when told to: requests need no descriptor.
    private func receive(
        flags: ZMQFlags, userID wantsUserID: Bool, source: Bool, _ frame: (UnsafeRawBufferPointer) -> Void
    ) throws(ZMQError) -> (userID: String?, sourceFD: Int32?) {
        guard !closed else { throw ZMQError(code: ENOTSOCK, operation: "zmq_msg_recv on a closed socket") }
        var userID: String?
        var userIDRead = !wantsUserID
        var sourceFD: Int32?
        var first = true
        var message = zmq_msg_t()
        zmq_msg_init(&message)
        defer { zmq_msg_close(&message) }
        repeat {
            while zmq_msg_recv(&message, handle, first ? flags.rawValue : 0) < 0 {
                let error = ZMQError.last("zmq_msg_recv")
                if error.interrupted { continue }
                throw error
            }
            first = false
            // A ROUTER's routing-id frame is its own and carries no metadata, so ask until a frame has it.
            if !userIDRead, let value = zmq_msg_gets(&message, "User-Id") {
                userIDRead = true
                // libzmq sets an empty User-Id on connections that no ZAP handler saw.
                let text = String(cString: value)
                userID = text.isEmpty ? nil : text
            }
            if source, sourceFD == nil {
                let fd = zmq_msg_get(&message, ZMQ_SRCFD)
                if fd >= 0 { sourceFD = fd }
            }
            frame(UnsafeRawBufferPointer(start: zmq_msg_data(&message), count: zmq_msg_size(&message)))
        } while zmq_msg_more(&message) == 1
        return (userID, sourceFD)
    }
}
