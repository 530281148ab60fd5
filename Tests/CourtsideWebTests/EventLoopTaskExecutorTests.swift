import Dispatch
import NIOCore
import NIOPosix
import Testing

@testable import CourtsideWeb

@Suite("a keeper socket's work on its connection's event loop")
struct EventLoopTaskExecutorTests {
    @Test("work preferring the loop runs on it, comes back to it after waiting on another thread, and so do its child tasks")
    func staysOnTheLoop() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let loop = group.next()
        let seen = await withTaskExecutorPreference(EventLoopTaskExecutor(loop)) { () async -> [Bool] in
            var seen = [loop.inEventLoop]
            // As the relay answers: a continuation resumed from a dispatch queue's thread.
            await withCheckedContinuation { continuation in DispatchQueue.global().async { continuation.resume() } }
            seen.append(loop.inEventLoop)
            // As the socket answers each command: a child task of a group.
            await withTaskGroup(of: Bool.self) { tasks in
                for _ in 0..<3 { tasks.addTask { loop.inEventLoop } }
                for await onLoop in tasks { seen.append(onLoop) }
            }
            return seen
        }
        #expect(seen == [true, true, true, true, true])
        try await group.shutdownGracefully()
    }
}
