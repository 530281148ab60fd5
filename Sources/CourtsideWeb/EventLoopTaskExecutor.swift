import NIOCore

/// A task executor that runs its jobs on one NIO event loop. A keeper's socket prefers its
/// connection's loop: a frame read there is decided there, and the answer's continuation
/// comes back there to be written, with no hop to Swift's pool and back on either side (a
/// thread woken each way, most of the gateway's share of a tap on a quiet machine). NIO's event
/// loops are serial executors for actors, but not task executors.
///
/// Only work that never blocks may prefer it: the relay's blocking ZeroMQ calls keep to their
/// own queue, and the store's reads to GRDB's.
final class EventLoopTaskExecutor: TaskExecutor {
    let loop: any EventLoop

    init(_ loop: any EventLoop) { self.loop = loop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
