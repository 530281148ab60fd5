import CourtsideModel
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A small blocking HTTP/1.1 client over POSIX sockets, for tests that need what URLSession
/// cannot do: a source address of their own on loopback (the gateway counts connections and
/// joins per address), raw bytes (a partial head, a framing a browser never sends), a socket
/// that is never read, and thousands of connections at once. Every wait has a deadline.
///
/// It blocks: call it from ``onThread(_:)``, not from the cooperative pool.
enum LoopbackHTTP {
    /// Raises this process's soft limit of open descriptors to its hard limit (allowed without
    /// privilege) and returns the soft limit now: the flood tests open thousands of sockets.
    @discardableResult
    static func raiseDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// The raw bytes of a request to 127.0.0.1:`port`; `Content-Length` is added for a body
    /// unless `headers` frame it already.
    static func request(
        _ method: String, _ path: String, port: Int, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let framed = headers.contains { ["content-length", "transfer-encoding"].contains($0.0.lowercased()) }
        if let body, !framed { head += "Content-Length: \(body.count)\r\n" }
        return Array((head + "\r\n").utf8) + (body ?? [])
    }

    /// A JSON body.
    static func json(_ object: [String: Any]) -> [UInt8] {
        Array((try? JSONSerialization.data(withJSONObject: object)) ?? Data())
    }
}

/// Why an exchange failed.
struct LoopbackError: Error, CustomStringConvertible {
    enum Kind: Sendable { case closed, reset, timeout, system }
    var kind: Kind
    var description: String

    static func system(_ what: String, _ code: Int32 = errno) -> LoopbackError {
        if code == ECONNRESET || code == EPIPE { return LoopbackError(kind: .reset, description: "\(what): connection reset") }
        return LoopbackError(kind: .system, description: "\(what): \(String(cString: strerror(code)))")
    }
}

/// An HTTP/1.1 response as it came off the wire.
struct LoopbackResponse: Sendable, CustomStringConvertible {
    var status: Int
    /// Its header fields in order, names in lower case.
    var fields: [Field]
    var body: [UInt8]
    /// Whether a `100 Continue` came before it.
    var continued = false

    struct Field: Sendable {
        var name: String
        var value: String
    }

    /// The first value of a header field.
    func header(_ name: String) -> String? { fields.first { $0.name == name.lowercased() }?.value }

    var location: String? { header("location") }
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
    /// The error code of a JSON error body (`{"ok": false, "error": {"code": ...}}`).
    var errorCode: String? { json.code }
    /// Whether the gateway said it closes the connection after this answer.
    var closes: Bool { header("connection")?.lowercased() == "close" }

    /// The cookies it sets, by name.
    var cookies: [String: String] {
        var cookies: [String: String] = [:]
        for field in fields where field.name == "set-cookie" {
            let pair = field.value.split(separator: ";", maxSplits: 1).first ?? ""
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { cookies[parts[0].trimmingCharacters(in: .whitespaces)] = String(parts[1]) }
        }
        return cookies
    }

    var description: String {
        "\(status)\(location.map { " → \($0)" } ?? "") \(text.prefix(160))"
    }

    /// One response at the start of `bytes`, and the bytes it took; nil while it is incomplete.
    /// `ended` says the peer closed its side (a body without a length ends there); `noBody`
    /// is for the answer to a HEAD.
    static func parse(_ bytes: ArraySlice<UInt8>, ended: Bool, noBody: Bool = false) -> (LoopbackResponse, Int)? {
        let start = bytes.startIndex
        guard let headEnd = bytes.firstRange(of: [13, 10, 13, 10]) else { return nil }
        let lines = String(decoding: bytes[start..<headEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines.first?.split(separator: " ", maxSplits: 2) ?? []
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
        let fields = lines.dropFirst().compactMap { line -> Field? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return Field(
                name: line[..<colon].lowercased(), value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = LoopbackResponse(status: status, fields: fields, body: [])
        var index = headEnd.upperBound
        if noBody || (100..<200).contains(status) || status == 204 || status == 304 {
            return (response, index - start)
        }
        if response.header("transfer-encoding")?.lowercased().contains("chunked") == true {
            while true {
                guard let lineEnd = bytes[index...].firstRange(of: [13, 10]) else { return nil }
                let sizeText = String(decoding: bytes[index..<lineEnd.lowerBound], as: UTF8.self)
                guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16) else { return nil }
                index = lineEnd.upperBound
                if size == 0 {
                    // Trailer fields, if any, end with an empty line.
                    while true {
                        guard let end = bytes[index...].firstRange(of: [13, 10]) else { return nil }
                        let empty = end.lowerBound == index
                        index = end.upperBound
                        if empty { return (response, index - start) }
                    }
                }
                guard bytes.endIndex - index >= size + 2 else { return nil }
                response.body += bytes[index..<index + size]
                index += size + 2
            }
        }
        if let length = response.header("content-length").flatMap({ Int($0) }) {
            guard bytes.endIndex - index >= length else { return nil }
            response.body = Array(bytes[index..<index + length])
            return (response, index + length - start)
        }
        // No length: the body runs to the end of the connection.
        guard ended else { return nil }
        response.body = Array(bytes[index...])
        return (response, bytes.endIndex - start)
    }
}

extension Collection where Element == UInt8, Index == Int {
    fileprivate func firstRange(of pattern: [UInt8]) -> Range<Int>? {
        guard count >= pattern.count else { return nil }
        var index = startIndex
        while index + pattern.count <= endIndex {
            if self[index] == pattern[0], self[index..<index + pattern.count].elementsEqual(pattern) {
                return index..<index + pattern.count
            }
            index += 1
        }
        return nil
    }
}

/// One TCP connection from a loopback address of the test's choosing to the gateway on
/// 127.0.0.1. Non-blocking underneath, so every step has a deadline; used by one thread at a
/// time.
final class LoopbackConnection {
    let fd: Int32
    /// The address it was bound to.
    let source: String
    /// Bytes read and not yet taken by a response.
    private(set) var buffered: [UInt8] = []
    /// Whether the peer closed its side (or reset the connection).
    private(set) var ended = false
    private(set) var wasReset = false
    /// Whether its descriptor is closed already (``release()``).
    private(set) var released = false

    /// Connects from `source` (any 127.x.y.z) to 127.0.0.1:`port`. `receiveBuffer` sets
    /// SO_RCVBUF before connecting, so the window the gateway sees is small from the start.
    init(port: Int, from source: String = "127.0.0.1", receiveBuffer: Int? = nil, seconds: Double = 10) throws {
        fd = try Self.connect(port: port, from: source, receiveBuffer: receiveBuffer, seconds: seconds)
        self.source = source
    }

    /// A connected socket, or an error with nothing left open.
    private static func connect(port: Int, from source: String, receiveBuffer: Int?, seconds: Double) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw LoopbackError.system("socket") }
        func fail(_ error: LoopbackError) -> LoopbackError {
            close(fd)
            return error
        }
        var one: Int32 = 1
        let size = socklen_t(MemoryLayout<Int32>.size)
        // The port is chosen at connect, for the whole 4-tuple: many connections from one address.
        _ = setsockopt(fd, Int32(IPPROTO_IP), 24 /* IP_BIND_ADDRESS_NO_PORT */, &one, size)
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, size)
        if var receiveBuffer = receiveBuffer.map(Int32.init) {
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receiveBuffer, size)
        }
        var local = address(source, port: 0)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw fail(.system("bind \(source)")) }
        var remote = address("127.0.0.1", port: port)
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected != 0 else { return fd }
        guard errno == EINPROGRESS else { throw fail(.system("connect from \(source)")) }
        // A full listen queue drops the SYN, and the kernel sends it again a second later.
        guard wait(fd, for: Int16(POLLOUT), until: .now + .seconds(seconds)) else {
            throw fail(LoopbackError(kind: .timeout, description: "connect from \(source): no answer within \(seconds) s"))
        }
        var failure: Int32 = 0
        var length = size
        _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length)
        guard failure == 0 else { throw fail(.system("connect from \(source)", failure)) }
        return fd
    }

    /// Closes the descriptor now, keeping what was read: a flood's ended connections must not
    /// hold the test process's descriptors (past 1,024 of them, other suites' URLSession
    /// requests, running at the same time, failed).
    func release() {
        guard !released else { return }
        released = true
        close(fd)
    }

    deinit { release() }

    private static func address(_ host: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        _ = inet_pton(AF_INET, host, &address.sin_addr)
        return address
    }

    /// Waits until `fd` is ready for `events` (or has failed or hung up); false at the deadline.
    private static func wait(_ fd: Int32, for events: Int16, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let left = deadline - .now
            guard left > .zero else { return false }
            var poller = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&poller, 1, Int32(clamping: left.inMilliseconds + 1))
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return true }  // the next call reports the error
        }
    }

    /// Sends all of `bytes`.
    func send(_ bytes: [UInt8], seconds: Double = 10) throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                sent += count
            } else if count < 0 && (errno == EAGAIN || errno == EINTR) {
                guard Self.wait(fd, for: Int16(POLLOUT), until: deadline) else {
                    throw LoopbackError(kind: .timeout, description: "send: \(sent) of \(bytes.count) bytes in \(seconds) s")
                }
            } else {
                throw LoopbackError.system("send")
            }
        }
    }

    func send(_ text: String, seconds: Double = 10) throws { try send(Array(text.utf8), seconds: seconds) }

    /// Reads what has arrived, without waiting; false when nothing more will (end or reset).
    @discardableResult
    func drain() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while !ended {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count > 0 {
                buffered += chunk.prefix(count)
            } else if count == 0 {
                ended = true
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN {
                return true
            } else {
                (ended, wasReset) = (true, true)
            }
        }
        return false
    }

    /// Reads until something arrives or the peer ends; throws at the deadline.
    private func fill(until deadline: ContinuousClock.Instant) throws {
        let before = buffered.count
        while buffered.count == before, !ended {
            guard Self.wait(fd, for: Int16(POLLIN), until: deadline) else {
                throw LoopbackError(
                    kind: .timeout, description: "no whole answer in time; read \(buffered.count) bytes: \(preview)")
            }
            drain()
        }
    }

    private var preview: String { String(decoding: buffered.prefix(200), as: UTF8.self) }

    /// The next response; a `100 Continue` before it is noted in ``LoopbackResponse/continued``.
    func readResponse(seconds: Double = 10, noBody: Bool = false) throws -> LoopbackResponse {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var continued = false
        while true {
            if let (parsed, used) = LoopbackResponse.parse(buffered[...], ended: ended, noBody: noBody) {
                var response = parsed
                buffered.removeFirst(used)
                if (100..<200).contains(response.status) {
                    continued = continued || response.status == 100
                    continue
                }
                response.continued = continued
                return response
            }
            if ended {
                throw LoopbackError(
                    kind: wasReset ? .reset : .closed,
                    description: "the connection \(wasReset ? "was reset" : "ended") before a whole answer; read: \(preview)")
            }
            try fill(until: deadline)
        }
    }

    /// The status of the next response's head, without waiting for its body (a stream's never
    /// ends); the head's bytes are taken, the rest stays buffered.
    func readHead(seconds: Double = 10) throws -> Int {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            if let (head, used) = LoopbackResponse.parse(buffered[...], ended: false, noBody: true) {
                buffered.removeFirst(used)
                if (100..<200).contains(head.status) { continue }
                return head.status
            }
            if ended { throw LoopbackError(kind: wasReset ? .reset : .closed, description: "ended before a head: \(preview)") }
            try fill(until: deadline)
        }
    }

    /// Sends `bytes` while reading, and stops sending once a whole answer has come (the gateway
    /// may refuse a body without reading it) or the gateway stops reading; returns the answer.
    func sendReadingMeanwhile(_ bytes: [UInt8], seconds: Double = 10) throws -> (LoopbackResponse, sent: Int) {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var sent = 0
        var writing = true
        while true {
            drain()
            if let (response, used) = LoopbackResponse.parse(buffered[...], ended: ended), !(100..<200).contains(response.status)
            {
                buffered.removeFirst(used)
                return (response, sent)
            }
            if !writing || sent >= bytes.count {
                return (try readResponse(seconds: max(0.001, (deadline - .now).inSeconds)), sent)
            }
            guard Self.wait(fd, for: Int16(POLLIN | POLLOUT), until: deadline) else {
                throw LoopbackError(kind: .timeout, description: "sent \(sent) of \(bytes.count) bytes, and no answer")
            }
            let count = bytes[sent...].prefix(65_536).withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if count > 0 {
                sent += count
            } else if count < 0, errno != EAGAIN, errno != EINTR {
                writing = false  // the gateway closed: its answer, if any, is in the socket
            }
        }
    }

    /// One request and its answer on this connection.
    func exchange(
        _ method: String, _ path: String, port: Int, headers: [(String, String)] = [], body: [UInt8]? = nil, seconds: Double = 10
    ) throws -> LoopbackResponse {
        try send(LoopbackHTTP.request(method, path, port: port, headers: headers, body: body), seconds: seconds)
        return try readResponse(seconds: seconds, noBody: method == "HEAD")
    }

    /// Reads (and keeps) whatever comes until the peer ends the connection; false at the deadline.
    func waitUntilEnded(seconds: Double) -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while drain() {
            guard Self.wait(fd, for: Int16(POLLIN), until: deadline) else { return false }
        }
        return true
    }

    /// Waits until something can be read (or the peer ended); false at the deadline.
    func waitUntilReadable(seconds: Double) -> Bool {
        Self.wait(fd, for: Int16(POLLIN), until: .now + .seconds(seconds))
    }

    /// Takes the bytes read so far (a stream's reader keeps none of them).
    func take() -> [UInt8] {
        defer { buffered = [] }
        return buffered
    }

    /// The response among the bytes read so far, if a whole one came.
    var bufferedResponse: LoopbackResponse? { LoopbackResponse.parse(buffered[...], ended: ended)?.0 }

    /// Bytes read so far, as text.
    var bufferedText: String { String(decoding: buffered, as: UTF8.self) }
}

/// Connections opened in a flood and what each one saw: when its first byte came and when the
/// peer ended it. One poll() over all of them at a time, so thousands are cheap to watch.
final class ConnectionWatch {
    private(set) var connections: [LoopbackConnection] = []
    private(set) var opened: [ContinuousClock.Instant] = []
    private(set) var firstByte: [ContinuousClock.Instant?] = []
    private(set) var ended: [ContinuousClock.Instant?] = []

    /// Watches `connection`, opened now.
    func add(_ connection: LoopbackConnection) {
        connections.append(connection)
        opened.append(.now)
        firstByte.append(nil)
        ended.append(nil)
    }

    /// Indices of the connections the peer has not ended yet.
    var open: [Int] { connections.indices.filter { ended[$0] == nil } }

    /// Reads what has arrived on every open connection, waiting up to `milliseconds` for
    /// something to arrive; notes first bytes and ends.
    func sweep(waiting milliseconds: Int32 = 0) {
        let open = open
        guard !open.isEmpty else { return }
        var pollers = open.map { pollfd(fd: connections[$0].fd, events: Int16(POLLIN), revents: 0) }
        guard poll(&pollers, nfds_t(pollers.count), milliseconds) > 0 else { return }
        let now = ContinuousClock.now
        for (slot, index) in open.enumerated() where pollers[slot].revents != 0 {
            let connection = connections[index]
            connection.drain()
            if firstByte[index] == nil, !connection.buffered.isEmpty { firstByte[index] = now }
            if connection.ended {
                ended[index] = now
                connection.release()
            }
        }
    }

    /// Sweeps until the peer has ended every connection; false at the deadline.
    func waitUntilAllEnded(seconds: Double) -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !open.isEmpty {
            let left = deadline - .now
            guard left > .zero else { return false }
            sweep(waiting: Int32(clamping: min(left.inMilliseconds + 1, 1000)))
        }
        return true
    }
}

/// Runs `body`, which blocks on sockets, on a thread of its own, and waits for it without
/// holding one of Swift's few cooperative threads meanwhile.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// `body` on a thread of its own, started now: `async let x = onThread {...}` starts its thread
/// only once a cooperative thread runs the child task, which in a busy suite came after the
/// flood it was to measure had ended (a keeper with no sample during it).
final class ThreadRun<T: Sendable>: Sendable {
    private let state = Mutex<(result: Result<T, any Error>?, waiter: CheckedContinuation<T, any Error>?)>((nil, nil))

    init(_ body: @escaping @Sendable () throws -> T) {
        Thread { [self] in
            let result = Result { try body() }
            let waiter = state.withLock { state in
                state.result = result
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(with: result)
        }.start()
    }

    /// What `body` returned, once it has.
    var value: T {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let result = state.withLock { state in
                    if state.result == nil { state.waiter = continuation }
                    return state.result
                }
                if let result { continuation.resume(with: result) }
            }
        }
    }
}

/// A flag one thread raises and others read: "stop now".
final class StopFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    func raise() { raised.store(true, ordering: .releasing) }
    var isRaised: Bool { raised.load(ordering: .acquiring) }
}

/// Round trips in milliseconds, and their percentiles (nearest rank).
struct Latencies: Sendable, CustomStringConvertible {
    private(set) var milliseconds: [Double] = []

    init(_ durations: [Duration] = []) { milliseconds = durations.map { $0.inSeconds * 1000 } }

    mutating func add(_ duration: Duration) { milliseconds.append(duration.inSeconds * 1000) }

    var count: Int { milliseconds.count }

    /// The `fraction` percentile (0.5 the median); 0 with no samples.
    func percentile(_ fraction: Double) -> Double {
        guard !milliseconds.isEmpty else { return 0 }
        let sorted = milliseconds.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[Swift.min(sorted.count - 1, Swift.max(0, rank))]
    }

    var median: Double { percentile(0.5) }
    var max: Double { milliseconds.max() ?? 0 }

    var description: String {
        String(format: "n %d, p50 %.1f ms, p99 %.1f ms, max %.1f ms", count, median, percentile(0.99), max)
    }
}
