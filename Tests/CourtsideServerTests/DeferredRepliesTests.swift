import Testing
import ZeroMQ

@testable import CourtsideTransport

@Suite("replies deferred over a scope")
struct DeferredRepliesTests {
    @Test("replies sent inside deferringReplies wait for its end, then all go out in order", .timeLimit(.minutes(1)))
    func heldUntilTheScopeEnds() async throws {
        let transport = try await LoopbackTransport.start()
        let context = try ZMQContext()
        let dealer = try LoopbackTransport.dealer(context, to: transport)
        for index in 0..<4 { try dealer.send([[], [UInt8(index)]]) }
        var requests: [IncomingRequest] = []
        var iterator = transport.requests.makeAsyncIterator()
        while requests.count < 4, let batch = await iterator.next() { requests += batch }
        var heldInside: [Int] = []
        var heldInNested: [Int] = []
        transport.deferringReplies {
            for request in requests.prefix(3) {
                let body = request.body!.map { $0 + 10 }
                // Owned or lent, a body joins the scope's others in order.
                if request.body == [1] {
                    body.withUnsafeBytes { transport.reply(to: request, bytes: $0) }
                } else {
                    transport.reply(to: request, body: body)
                }
                heldInside.append(transport.heldReplyCount)
            }
            // A scope inside the scope changes nothing: its reply waits with the others.
            transport.deferringReplies {
                transport.reply(to: requests[3], body: [13])
                heldInNested.append(transport.heldReplyCount)
            }
        }
        #expect(heldInside == [1, 2, 3])
        #expect(heldInNested == [4])
        #expect(transport.heldReplyCount == 0)
        var replies: [[[UInt8]]] = []
        for _ in requests { replies.append(try dealer.receive()) }
        #expect(replies == [[[], [10]], [[], [11]], [[], [12]], [[], [13]]])
        // Outside any scope a reply is handed over at once, held by no one.
        try dealer.send([[], [9]])
        while let batch = await iterator.next(), let request = batch.first {
            transport.reply(to: request, body: [19])
            [UInt8]([20]).withUnsafeBytes { transport.reply(to: request, bytes: $0) }
            #expect(transport.heldReplyCount == 0)
            break
        }
        #expect(try dealer.receive() == [[], [19]])
        #expect(try dealer.receive() == [[], [20]])
        dealer.close()
        context.terminate()
        await transport.stop()
    }
}
