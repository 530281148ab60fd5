import Foundation
import Testing
import ZeroMQ

@Suite("The libzmq wrapper")
struct ZeroMQTests {
    let context = try! ZMQContext()

    /// A ROUTER bound at `endpoint` and a DEALER (routing id `d1`) connected to it.
    private func connectedPair(_ endpoint: String) throws -> (router: ZMQSocket, dealer: ZMQSocket) {
        let router = try context.socket(.router)
        try router.set(.linger(milliseconds: 0))
        try router.bind(endpoint)
        let dealer = try context.socket(.dealer)
        try dealer.set(.linger(milliseconds: 0))
        try dealer.set(.routingID(Array("d1".utf8)))
        try dealer.connect(endpoint)
        return (router, dealer)
    }

    @Test("multipart messages cross a DEALER-ROUTER pair intact, empty frames included")
    func multipart() throws {
        let (router, dealer) = try connectedPair("inproc://multipart")
        try dealer.send([[], Array("hello".utf8), [0, 1, 2]])
        let received = try router.receive()
        #expect(received == [Array("d1".utf8), [], Array("hello".utf8), [0, 1, 2]])
        try router.send([Array("d1".utf8), Array("back".utf8)])
        #expect(try dealer.receive() == [Array("back".utf8)])
    }

    @Test("frames sent one at a time make one message; a reader is handed each frame in place")
    func frameAtATime() throws {
        let (router, dealer) = try connectedPair("inproc://frames")
        try dealer.send(frame: [], more: true)
        try dealer.send(frame: Array("one".utf8), more: true)
        try dealer.send(frame: Array("two".utf8), more: false)
        var frames: [[UInt8]] = []
        let userID = try router.receiveFrames(userID: true) { frames.append(Array($0)) }
        #expect(frames == [Array("d1".utf8), [], Array("one".utf8), Array("two".utf8)])
        #expect(userID == nil)
        try router.send(frame: Array("d1".utf8), more: true)
        try router.send(frame: Array("back".utf8), more: false)
        #expect(try dealer.receive() == [Array("back".utf8)])
    }

    @Test("frames too large to copy are lent to libzmq and arrive intact, over TCP too, after the sender let go")
    func largeFrames() throws {
        let pull = try context.socket(.pull)
        try pull.set(.linger(milliseconds: 0))
        try pull.bind("tcp://127.0.0.1:*")
        let push = try context.socket(.push)
        try push.set(.linger(milliseconds: 0))
        try push.connect(pull.lastEndpoint)
        let sizes = [ZMQSocket.zeroCopyBytes - 1, ZMQSocket.zeroCopyBytes, 3 * 1024 * 1024 + 7]
        for (index, size) in sizes.enumerated() {
            // Built in a scope of its own, so that libzmq's hold is the only one left while it sends.
            do {
                let frame = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
                try push.send([Array("head".utf8), frame])
            }
        }
        for (index, size) in sizes.enumerated() {
            let received = try pull.receive()
            #expect(received.count == 2 && received[0] == Array("head".utf8))
            #expect(received[1] == (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) })
        }
    }

    @Test("a context with two I/O threads has them, and its TCP connections carry messages both ways")
    func twoIOThreads() throws {
        #expect(context.ioThreads == 1)
        let busier = try ZMQContext(ioThreads: 2)
        defer { busier.terminate() }
        #expect(busier.ioThreads == 2)
        let router = try busier.socket(.router)
        defer { router.close() }
        try router.set(.linger(milliseconds: 0))
        try router.bind("tcp://127.0.0.1:*")
        // Several connections, so that both threads get some.
        let dealers = try (0..<4).map { index in
            let dealer = try busier.socket(.dealer)
            try dealer.set(.linger(milliseconds: 0))
            try dealer.set(.routingID(Array("d\(index)".utf8)))
            try dealer.connect(router.lastEndpoint)
            return dealer
        }
        defer { for dealer in dealers { dealer.close() } }
        for (index, dealer) in dealers.enumerated() {
            try dealer.send([Array("ping \(index)".utf8)])
            let received = try router.receive()
            #expect(received == [Array("d\(index)".utf8), Array("ping \(index)".utf8)])
            try router.send([received[0], Array("pong".utf8)])
            #expect(try dealer.receive() == [Array("pong".utf8)])
        }
    }

    @Test("a non-blocking receive with nothing queued throws EAGAIN")
    func wouldBlock() throws {
        let pull = try context.socket(.pull)
        try pull.set(.linger(milliseconds: 0))
        try pull.bind("inproc://empty")
        #expect(throws: ZMQError.self) { try pull.receive(flags: .dontWait) }
        do {
            _ = try pull.receive(flags: .dontWait)
        } catch {
            #expect(error.wouldBlock)
            #expect(!error.message.isEmpty)
        }
    }

    @Test("binding a taken endpoint reports errno and zmq_strerror")
    func bindError() throws {
        let first = try context.socket(.pub)
        try first.set(.linger(milliseconds: 0))
        try first.bind("tcp://127.0.0.1:*")
        let endpoint = first.lastEndpoint
        #expect(endpoint.hasPrefix("tcp://127.0.0.1:"))
        let second = try context.socket(.pub)
        try second.set(.linger(milliseconds: 0))
        #expect {
            try second.bind(endpoint)
        } throws: { error in
            let error = error as? ZMQError
            return error?.message == "Address already in use" && error?.description.contains(endpoint) == true
        }
    }

    @Test("the poller reports which socket is readable; subscriptions filter by prefix")
    func pollerAndTopics() throws {
        let publisher = try context.socket(.pub)
        try publisher.set(.linger(milliseconds: 0))
        try publisher.bind("inproc://topics")
        let subscriber = try context.socket(.sub)
        try subscriber.set(.linger(milliseconds: 0))
        try subscriber.connect("inproc://topics")
        try subscriber.set(.subscribe(Array("g1/".utf8)))
        var poller = ZMQPoller()
        let index = poller.add(subscriber)
        #expect(try poller.poll(timeoutMilliseconds: 0) == [false])
        // inproc subscriptions take effect at once; the g10 message must be filtered out.
        try publisher.send([Array("g10/event".utf8), [1]])
        try publisher.send([Array("g1/event".utf8), [2]])
        #expect(try poller.poll(timeoutMilliseconds: 1000)[index])
        #expect(try subscriber.receive() == [Array("g1/event".utf8), [2]])
        #expect(try poller.poll(timeoutMilliseconds: 50) == [false])
    }

    @Test("the descriptor poller finds queued messages, a socket not read to the end, and a plain descriptor")
    func socketPoller() throws {
        let (router, dealer) = try connectedPair("inproc://socket-poller")
        // Queued before the poller existed: its descriptor signalled to nobody.
        try dealer.send([Array("one".utf8)])
        try dealer.send([Array("two".utf8)])
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { for fd in ends { close(fd) } }
        var poller = ZMQSocketPoller()
        let routerIndex = try poller.add(router)
        let pipeIndex = poller.add(fileDescriptor: ends[0])
        #expect(try poller.poll(timeoutMilliseconds: 1000) == [true, false])
        #expect(try router.receive(flags: .dontWait).last == Array("one".utf8))
        // The second message sends no new signal: the poller must ask the socket again.
        #expect(try poller.poll(timeoutMilliseconds: 1000) == [true, false])
        #expect(try router.receive(flags: .dontWait).last == Array("two".utf8))
        #expect(try poller.poll(timeoutMilliseconds: 20) == [false, false])
        // A reply sent while a message comes in may take its signal; `used` has it asked again.
        try dealer.send([Array("three".utf8)])
        Thread.sleep(forTimeInterval: 0.05)
        try router.send([Array("d1".utf8), Array("back".utf8)])
        poller.used(routerIndex)
        #expect(try poller.poll(timeoutMilliseconds: 1000)[routerIndex])
        #expect(try router.receive(flags: .dontWait).last == Array("three".utf8))
        #expect(try dealer.receive() == [Array("back".utf8)])
        var byte: UInt8 = 1
        #expect(write(ends[1], &byte, 1) == 1)
        #expect(try poller.poll(timeoutMilliseconds: 1000) == [false, true])
    }

    @Test("MAXMSGSIZE and the high-water marks are accepted as typed options")
    func options() throws {
        let router = try context.socket(.router)
        try router.set(.maxMessageSize(1024))
        try router.set(.sendHighWaterMark(10))
        try router.set(.receiveHighWaterMark(10))
        try router.set(.linger(milliseconds: 0))
        try router.set(.routerMandatory(false))
        let version = ZMQContext.version
        #expect(version.major == 4)
    }
}
