import CourtsideTransport
import Testing
import ZeroMQ

/// How the I/O thread splits a request into its ROUTER envelope and its frames, and that a reply
/// goes back with that envelope.
@Suite("the transport's envelopes")
struct TransportEnvelopeTests {
    @Test(
        "the delimiter joins the envelope only when a frame follows it; a reply carries the envelope back",
        .timeLimit(.minutes(1)))
    func envelopes() async throws {
        let transport = try await LoopbackTransport.start()
        let context = try ZMQContext()
        let dealer = try LoopbackTransport.dealer(context, to: transport, routingID: Array("keeper".utf8))
        let sent: [[[UInt8]]] = [[[], Array("a".utf8)], [Array("b".utf8)], [[]], [[], [], Array("c".utf8)]]
        for message in sent { try dealer.send(message) }
        var requests: [IncomingRequest] = []
        var iterator = transport.requests.makeAsyncIterator()
        while requests.count < sent.count, let batch = await iterator.next() { requests += batch }
        let peer = Array("keeper".utf8)
        #expect(requests.map(\.envelope) == [[peer, []], [peer], [peer], [peer, []]])
        #expect(requests.map(\.frames) == [[Array("a".utf8)], [Array("b".utf8)], [[]], [[], Array("c".utf8)]])
        // A request's one frame is its body; with two, it has none.
        #expect(requests.map(\.body) == [Array("a".utf8), Array("b".utf8), [], nil])
        #expect(requests.map(\.frameCount) == [1, 1, 1, 2])
        #expect(requests.allSatisfy { $0.userID == nil })
        // Answered from this task, off the I/O thread: through the outbox.
        for (index, request) in requests.enumerated() { transport.reply(to: request, body: [UInt8(index)]) }
        var replies: [[[UInt8]]] = []
        for _ in requests { replies.append(try dealer.receive()) }
        #expect(replies == [[[], [0]], [[1]], [[2]], [[], [3]]])
        dealer.close()
        context.terminate()
        await transport.stop()
    }

    @Test("a batch's events reach a subscriber in order, each its topic and its own part of the bodies", .timeLimit(.minutes(1)))
    func eventBatches() async throws {
        let transport = try await LoopbackTransport.start()
        let context = try ZMQContext()
        let subscriber = try context.socket(.sub)
        try subscriber.set(.linger(milliseconds: 0))
        try subscriber.set(.receiveTimeout(milliseconds: 50))
        try subscriber.connect(transport.boundEventEndpoint)
        try subscriber.set(.subscribe([]))
        // A publisher drops what it sends before the subscription reaches it: probe until one arrives.
        let probe = Array("probe".utf8)
        var arrived: [[UInt8]]?
        while arrived == nil {
            transport.publish(EventBatch(topics: [probe], bodies: Array("{}".utf8), ends: [2]))
            arrived = try? subscriber.receive()
        }
        #expect(arrived == [probe, Array("{}".utf8)])
        let topics = [Array("g1/".utf8), Array("g2/".utf8), Array("g1/".utf8)]
        transport.publish(EventBatch(topics: topics, bodies: Array(#"{"a":1}{"b":22}{}"#.utf8), ends: [7, 15, 17]))
        var received: [[[UInt8]]] = []
        while received.count < 3 {
            guard let message = try? subscriber.receive() else { continue }
            if message.first != probe { received.append(message) }
        }
        #expect(received == zip(topics, [#"{"a":1}"#, #"{"b":22}"#, "{}"]).map { [$0, Array($1.utf8)] })
        subscriber.close()
        context.terminate()
        await transport.stop()
    }
}
