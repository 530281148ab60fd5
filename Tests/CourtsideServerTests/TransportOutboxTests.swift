import Testing

@testable import CourtsideTransport

/// The I/O thread's hand-over and lifecycle, driven with plain values: no thread, no socket.
@Suite("the transport's outbox")
struct TransportOutboxTests {
    typealias Outbox = TransportOutbox<Int, String>

    @Test("new work wakes a polling thread once; an awake thread sees it without a wake-up")
    func wakesOncePerPoll() {
        var outbox = Outbox()
        let first = outbox.post([.event(topic: [1], body: [])])
        let second = outbox.post([.reply(envelope: [[2]], body: [])])
        let job = outbox.enqueue(7)
        #expect(first && !second)
        #expect(job == .wait)
        let handed = outbox.take()
        #expect(handed.messages.map(\.isReply) == [false, true])
        #expect(handed.jobs == [7])
        // Nothing left: the thread is about to poll, so the next hand-over wakes it.
        let nothing = outbox.take()
        let cut = outbox.cut(["ann"])
        #expect(nothing.isEmpty && cut)
        outbox.awake()
        let cuts = outbox.take().cut
        #expect(cuts == ["ann"])
        outbox.awake()
        let later = outbox.enqueue(8)
        #expect(later == .wait)
    }

    @Test("a stop refuses posts, lets jobs run, and is handed to the thread once")
    func stop() {
        var outbox = Outbox()
        let stop = outbox.stop("first")
        let again = outbox.stop("second")
        #expect(stop == .wake && again == .resume)
        let posted = outbox.post([.event(topic: [1], body: [])])
        let cut = outbox.cut(["ann"])
        let job = outbox.enqueue(1)
        #expect(!posted && !cut && job == .wait)
        let handed = outbox.take()
        #expect(handed.onStop == "first")
        #expect(handed.jobs == [1])
        #expect(handed.messages.isEmpty)
        // Jobs that come while the thread closes its sockets wait for the end, then run elsewhere.
        let closing = outbox.enqueue(2)
        #expect(closing == .wait)
        let (onStop, jobs) = outbox.end()
        #expect(onStop == nil)
        #expect(jobs == [2])
        let ended = outbox.enqueue(3)
        let late = outbox.stop("late")
        #expect(ended == .runElsewhere && late == .resume)
    }

    @Test("a loop that ends on its own resumes a stop still waiting and sends later jobs elsewhere")
    func endsOnItsOwn() {
        var outbox = Outbox()
        outbox.awake()
        let stop = outbox.stop("waiting")
        let job = outbox.enqueue(1)
        #expect(stop == .wait && job == .wait)
        let (onStop, jobs) = outbox.end()
        #expect(onStop == "waiting")
        #expect(jobs == [1])
        let nothing = outbox.take()
        #expect(nothing.isEmpty)
        guard case .ended = outbox.lifecycle else {
            Issue.record("the outbox is \(outbox.lifecycle), not ended")
            return
        }
        let later = outbox.enqueue(2)
        #expect(later == .runElsewhere)
    }
}
