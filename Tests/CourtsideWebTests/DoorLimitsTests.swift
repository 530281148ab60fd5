import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import CourtsideWeb

@Suite("the gateway's door: connections, rates and request framing are bounded")
struct DoorLimitsTests {
    @Test("connections are admitted up to the cap per address and in all; a closed one frees its place")
    func connections() {
        var limits = ConnectionLimits(maximum: 5, perAddress: 2)
        #expect(limits.open("a") == .admitted)
        #expect(limits.open("a") == .admitted)
        #expect(limits.open("a") == .addressFull, "a third from one address")
        #expect(limits.open("b") == .admitted)
        #expect(limits.open("c") == .admitted)
        #expect(limits.open("d") == .admitted)
        #expect(limits.open("e") == .full, "five open in all")
        #expect(limits.total == 5)
        limits.close("a")
        #expect(limits.open("a") == .admitted, "a closed connection frees its address's place")
        for address in ["a", "a", "b", "c", "d"] { limits.close(address) }
        #expect(limits.total == 0)
        #expect(limits.addresses == 0, "nothing is left of addresses with no connection")
        limits.close("never-seen")
        #expect(limits.total == 0, "closing what was never admitted changes nothing")
    }

    @Test("refused sockets held open for their 503 are bounded: past a sixteenth of the cap, one is closed at once")
    func refusedHeld() {
        var limits = ConnectionLimits(maximum: 4096, perAddress: 64)
        #expect(limits.maximumRefused == 256)
        #expect((0..<300).filter { _ in limits.holdRefused() }.count == 256)
        limits.releaseRefused()
        #expect(limits.holdRefused() && !limits.holdRefused(), "a closed one frees its place")
        #expect(ConnectionLimits(maximum: 100, perAddress: 10).maximumRefused == 16)
    }

    @Test("a right PIN is throttled too: a burst per address, then one per interval")
    func perAddress() {
        var rate = RateLimiter(burst: 3, every: .seconds(6))
        let now = ContinuousClock.now
        for _ in 0..<3 { #expect(rate.take("a", now: now) == .allowed) }
        #expect(rate.take("a", now: now) == .wait(.seconds(6)))
        #expect(rate.take("b", now: now) == .allowed, "another address has its own bucket")
        #expect(rate.take("a", now: now + .seconds(3)) == .wait(.seconds(3)), "half a token earned")
        #expect(rate.take("a", now: now + .seconds(6)) == .allowed)
        #expect(rate.take("a", now: now + .seconds(6)) != .allowed)
        #expect(rate.take("a", now: now + .seconds(600)) == .allowed, "refilled, but never beyond the burst")
        #expect(rate.take("a", now: now + .seconds(600)) == .allowed)
        #expect(rate.take("a", now: now + .seconds(600)) == .allowed)
        #expect(rate.take("a", now: now + .seconds(600)) != .allowed)
    }

    @Test("sixteen addresses together meet the global rate, and a refused try takes no token")
    func global() {
        var rate = RateLimiter(burst: 3, every: .seconds(2), globalBurst: 4, globalEvery: .milliseconds(500))
        let now = ContinuousClock.now
        // One address: its own burst of 3, then it waits while the gateway still has room.
        var one = rate
        #expect((0..<4).map { _ in one.take("10.0.1.1", now: now) } == [.allowed, .allowed, .allowed, .wait(.seconds(2))])
        let allowed = (0..<16).filter { rate.take("10.0.0.\($0)", now: now) == .allowed }.count
        #expect(allowed == 4)
        #expect(rate.take("10.0.0.99", now: now) == .busy(.milliseconds(500)))
        #expect(rate.take("10.0.0.99", now: now + .milliseconds(500)) == .allowed, "one earned in all")
        #expect(rate.take("10.0.0.98", now: now + .milliseconds(500)) == .busy(.milliseconds(500)))
    }

    @Test("a flood of addresses is bounded")
    func capacity() {
        var rate = RateLimiter(burst: 1, every: .seconds(60))
        rate.capacity = 100
        let now = ContinuousClock.now
        for index in 0..<1000 { _ = rate.take("10.0.\(index)", now: now) }
        #expect(rate.addresses <= 100, "\(rate.addresses) addresses remembered")
        #expect(rate.take("10.0.999", now: now) != .allowed, "the newest are remembered")
    }

    @Test("Retry-After is whole seconds, at least one")
    func retryAfter() {
        #expect(Duration.milliseconds(1).retryAfterSeconds == 1)
        #expect(Duration.seconds(2).retryAfterSeconds == 2)
        #expect(Duration.milliseconds(2_100).retryAfterSeconds == 3)
    }

    private func head(_ headers: [(String, String)]) -> HTTPRequestHead {
        HTTPRequestHead(version: .http1_1, method: .POST, uri: "/keep/join", headers: HTTPHeaders(headers))
    }

    @Test("a transfer coding that is not a final chunked is 400; other codings 501; chunked with a length 400")
    func transferCodings() {
        let check = { RequestFramingHandler.check(self.head($0), maxBodyBytes: 65_536) }
        #expect(check([("Transfer-Encoding", "xchunked")])?.status == .badRequest)
        #expect(check([("Transfer-Encoding", "chunked, gzip")])?.status == .badRequest)
        #expect(check([("Transfer-Encoding", "gzip, chunked")])?.status == .notImplemented)
        #expect(check([("Transfer-Encoding", "chunked"), ("Content-Length", "3")])?.status == .badRequest)
        #expect(check([("Transfer-Encoding", "Chunked")]) == nil)
        #expect(check([]) == nil)
    }

    @Test("a declared body over the limit is 413 before any of it is read, 100-continue or not")
    func lengths() {
        let check = { RequestFramingHandler.check(self.head($0), maxBodyBytes: 65_536) }
        let big = check([("Content-Length", "1000000000"), ("Expect", "100-continue")])
        #expect(big?.status == .payloadTooLarge)
        #expect(big?.code == "message_too_large")
        #expect(check([("Content-Length", "10000000")])?.status == .payloadTooLarge)
        #expect(check([("Content-Length", "65536")]) == nil)
        #expect(check([("Content-Length", "12"), ("Content-Length", "13")])?.status == .badRequest)
        #expect(check([("Content-Length", "-1")])?.status == .badRequest)
        #expect(check([("Content-Length", "12"), ("Expect", "100-continue")]) == nil)
        #expect(check([("Expect", "something-else")])?.status == .expectationFailed)
    }

    @Test("a refused head pipelined behind a request waits for that request's answer to end, then is answered")
    func pipelinedRefusal() throws {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers([
            HTTPResponseEncoder(), ByteToMessageHandler(HTTPRequestDecoder()),
            RequestFramingHandler(maxBodyBytes: 65_536, bodyTimeout: .seconds(10)),
        ])
        try channel.writeInbound(
            ByteBuffer(
                string: "GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "POST /keep/join HTTP/1.1\r\nHost: x\r\nContent-Length: 10000000\r\n\r\n"))
        // The first request is passed on whole; the refused one is not.
        var passed: [String] = []
        while let part = try channel.readInbound(as: HTTPServerRequestPart.self) {
            if case .head(let head) = part { passed.append(head.uri) } else if case .end = part { passed.append("end") }
        }
        #expect(passed == ["/api/games", "end"])
        #expect(try channel.readOutbound(as: ByteBuffer.self) == nil, "the refusal waits for the first answer")

        var headers = HTTPHeaders()
        headers.add(name: "content-length", value: "7")
        try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)))
        try channel.writeOutbound(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: "[games]"))))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        var written = ""
        while let bytes = try channel.readOutbound(as: ByteBuffer.self) { written += String(buffer: bytes) }
        let first = try #require(written.range(of: "HTTP/1.1 200 OK"))
        let body = try #require(written.range(of: "[games]"))
        let refusal = try #require(written.range(of: "HTTP/1.1 413 Payload Too Large"))
        #expect(first.upperBound <= body.lowerBound && body.upperBound <= refusal.lowerBound, "\(written)")
        #expect(written.contains("\"message_too_large\"") && written.contains("connection: close"))
        _ = try? channel.finish()
    }

    /// A channel with NIO's HTTP/1 codec and the framing handler, as the gateway has them.
    private func framed(headTimeout: TimeAmount? = nil) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandlers([
            HTTPResponseEncoder(), ByteToMessageHandler(HTTPRequestDecoder()),
            RequestFramingHandler(maxBodyBytes: 65_536, bodyTimeout: .seconds(10), headTimeout: headTimeout),
        ])
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    private let upgrade =
        "GET /api/keep/socket HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
        + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"

    @Test("after a WebSocket upgrade's 101 every byte passes untouched; an upgrade not made ends its connection")
    func upgrades() throws {
        let channel = try framed()
        try channel.writeInbound(ByteBuffer(string: upgrade))
        #expect(
            try channel.readInbound(as: HTTPServerRequestPart.self).map { if case .head = $0 { true } else { false } } == true)
        try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .switchingProtocols)))
        _ = try channel.readOutbound(as: ByteBuffer.self)
        // NIO's upgrade removes the codec; what follows is WebSocket frames, as bytes.
        let pipeline = channel.pipeline.syncOperations
        _ = pipeline.removeHandler(context: try pipeline.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self))
        _ = pipeline.removeHandler(context: try pipeline.context(handlerType: HTTPResponseEncoder.self))
        channel.embeddedEventLoop.run()
        _ = try channel.readInbound(as: HTTPServerRequestPart.self)
        try channel.writeInbound(ByteBuffer(string: "frame in"))
        #expect(try channel.readInbound(as: ByteBuffer.self) == ByteBuffer(string: "frame in"))
        try channel.writeOutbound(ByteBuffer(string: "frame out"))
        #expect(try channel.readOutbound(as: ByteBuffer.self) == ByteBuffer(string: "frame out"))
        #expect(channel.isActive)
        _ = try? channel.finish()

        let refused = try framed()
        try refused.writeInbound(ByteBuffer(string: upgrade))
        try refused.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .badRequest)))
        try refused.writeOutbound(HTTPServerResponsePart.end(nil))
        refused.embeddedEventLoop.run()
        #expect(!refused.isActive, "an upgrade answered other than 101 closes its connection")
    }

    @Test("a new connection that sends no whole head within the head timeout is closed; one that does is not")
    func headDeadline() throws {
        let silent = try framed(headTimeout: .seconds(10))
        try silent.writeInbound(ByteBuffer(string: "GET / HTTP/1.1\r\nHost:"))
        silent.embeddedEventLoop.advanceTime(by: .seconds(11))
        #expect(!silent.isActive)
        let prompt = try framed(headTimeout: .seconds(10))
        try prompt.writeInbound(ByteBuffer(string: "GET / HTTP/1.1\r\nHost: x\r\n\r\n"))
        prompt.embeddedEventLoop.advanceTime(by: .seconds(11))
        #expect(prompt.isActive)
        _ = try? prompt.finish()
    }

    @Test("a descriptor limit too small for the connections wanted is found and the cap lowered")
    func descriptors() {
        #expect(DescriptorLimit.connections(wanted: 4096, descriptors: 1024) == (1024 - DescriptorLimit.reserve, true))
        #expect(DescriptorLimit.connections(wanted: 4096, descriptors: 65_536) == (4096, false))
        #expect(DescriptorLimit.connections(wanted: 4096, descriptors: nil) == (4096, false))
    }
}
