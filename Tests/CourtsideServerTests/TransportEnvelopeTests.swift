import CourtsideTransport
import Logging
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
        let configuration = TransportConfiguration(
            commandEndpoint: "tcp://127.0.0.1:*", eventEndpoint: "tcp://127.0.0.1:*")
        let transport = try await ZMQTransport.start(configuration, logger: Logger(label: "courtside.test"))
        let context = try ZMQContext()
        let dealer = try context.socket(.dealer)
        try dealer.set(.linger(milliseconds: 0))
        try dealer.set(.receiveTimeout(milliseconds: 10_000))
        try dealer.set(.routingID(Array("keeper".utf8)))
        try dealer.connect(transport.boundCommandEndpoint)
        let sent: [[[UInt8]]] = [[[], Array("a".utf8)], [Array("b".utf8)], [[]], [[], [], Array("c".utf8)]]
        for message in sent { try dealer.send(message) }
        var requests: [IncomingRequest] = []
        var iterator = transport.requests.makeAsyncIterator()
        while requests.count < sent.count, let batch = await iterator.next() { requests += batch }
        let peer = Array("keeper".utf8)
        #expect(requests.map(\.envelope) == [[peer, []], [peer], [peer], [peer, []]])
        #expect(requests.map(\.frames) == [[Array("a".utf8)], [Array("b".utf8)], [[]], [[], Array("c".utf8)]])
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
}
