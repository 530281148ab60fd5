/// Replies for the command socket, handed to the I/O thread at once: each reply's envelope, and
/// their bodies one after another in one buffer. The log writer's answers to one commit go out
/// this way (``ZMQTransport/deferringReplies(_:)``).
///
/// A buffer a body was one allocation a reply on the log writer, which writes them, and one free
/// on the I/O thread, which sends them; a commit under load answers dozens of commands.
struct ReplyBatch: Sendable {
    /// Each reply's envelope: the request's own array, shared.
    private(set) var envelopes: [[[UInt8]]] = []
    /// Every reply's body, one after another.
    private(set) var bodies: [UInt8] = []
    /// Where each reply's body ends in `bodies`.
    private var ends: [Int] = []

    /// How many replies there are.
    var count: Int { envelopes.count }

    /// Adds a reply, its body copied from `body`.
    mutating func append(envelope: [[UInt8]], body: UnsafeRawBufferPointer) {
        envelopes.append(envelope)
        bodies.append(contentsOf: body)
        ends.append(bodies.count)
    }

    /// Where reply `index`'s body lies in `bodies`.
    func body(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    /// Takes the replies out, leaving an empty batch with room for as many: the next commit's
    /// answers then grow no array, and the taken one is the I/O thread's alone.
    mutating func take() -> ReplyBatch {
        var next = ReplyBatch()
        next.envelopes.reserveCapacity(envelopes.count)
        next.bodies.reserveCapacity(bodies.count)
        next.ends.reserveCapacity(ends.count)
        swap(&self, &next)
        return next
    }
}
