import Synchronization

/// The requests the I/O thread has read, a poll cycle's worth at a time, in arrival order.
public struct RequestBatches: AsyncSequence, Sendable {
    public typealias Element = [IncomingRequest]

    let stream: AsyncStream<[IncomingRequest]>
    let continuation: AsyncStream<[IncomingRequest]>.Continuation
    /// Requests handed over and not yet taken, for the queue's limit.
    let queued: QueuedCount

    /// Ends the sequence once the batches already handed over are taken; requests read after
    /// this are not handed over (a graceful stop: their clients retry against the next start).
    ///
    /// Unlike cancelling the consumer, this needs no task of its own between the I/O thread
    /// and the consumer, so a consumer that prefers the transport's executor is resumed on the
    /// I/O thread itself.
    public func finish() {
        continuation.finish()
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<[IncomingRequest]>.AsyncIterator
        let queued: QueuedCount

        public mutating func next() async -> [IncomingRequest]? {
            guard let batch = await base.next() else { return nil }
            queued.value.subtract(batch.count, ordering: .releasing)
            return batch
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), queued: queued)
    }
}

/// A count shared by the I/O thread and the consumer of its requests.
final class QueuedCount: Sendable {
    let value = Atomic<Int>(0)
}
