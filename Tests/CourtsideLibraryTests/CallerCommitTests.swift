import CourtsideModel
import CourtsideStorage
import Foundation
import Synchronization
import Testing

@testable import CourtsideLibrary

/// Records which thread wrote each commit, and can hold or slow the next ones.
final class ThreadRecordingLog: ForwardingEventLog {
    let base: any EventLog
    private let state = Mutex((threads: [pthread_t](), held: false, delay: Duration.zero))
    private let released = DispatchSemaphore(value: 0)

    init(_ base: any EventLog) { self.base = base }

    /// The writing thread, commit by commit.
    var threads: [pthread_t] { state.withLock { $0.threads } }

    func hold() { state.withLock { $0.held = true } }
    func release() {
        state.withLock { $0.held = false }
        released.signal()
    }
    func slow(by delay: Duration) { state.withLock { $0.delay = delay } }

    func append(_ events: [GameEvent], refusals: [CommandRefusal]) throws {
        let (held, delay) = state.withLock { state in
            state.threads.append(pthread_self())
            return (state.held, state.delay)
        }
        if held { released.wait() }
        if delay > .zero {
            Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
        }
        try base.append(events, refusals: refusals)
    }

    /// Whether each commit was written by the log writer's thread: the one that wrote the first
    /// commit (the game's creation, which goes through the writer). Compared by `pthread_t`,
    /// since a thread's name read back here sometimes came out as a pool thread's.
    var byWriter: [Bool] {
        let threads = self.threads
        return threads.map { $0 == threads.first }
    }
}

@Suite("commits on the caller's thread", .timeLimit(.minutes(LibraryTestLimits.minutes)))
struct CallerCommitTests {
    private static func open(_ directory: URL) async throws -> (GameLibrary, ThreadRecordingLog) {
        let log = ThreadRecordingLog(try SQLiteEventLog(directory: directory))
        let library = try GameLibrary(log: log, clock: ManualClock(), logger: Tournament.logger)
        try await library.createGame(Tournament.setup("g1"), origin: origin())
        // The writer holds its role a moment after the creation's ticket settles.
        library.waitUntilNotWriting()
        return (library, log)
    }

    /// Commits on the caller's thread when `mayBlock`.
    private static func callersThread(_ mayBlock: Bool) -> CommitPolicy { .callersThread { mayBlock } }

    /// A move in g1 submitted through `committing`, and its receipt.
    private static func moveCommittingHere(_ library: GameLibrary, mayBlock: Bool) async -> PendingReceipt {
        let pending = Mutex<PendingReceipt?>(nil)
        await library.committing(callersThread(mayBlock)) { policy in
            let receipt = await Self.move(library, commit: policy)
            pending.withLock { $0 = receipt }
        }
        return pending.withLock { $0 }!
    }

    /// A move in g1, decided and queued for commit.
    private static func move(_ library: GameLibrary, _ side: Side = .home, commit: CommitPolicy = .logWriter) async
        -> PendingReceipt
    {
        await library.submit(
            .move(player: Tournament.player("g1", side), move: .twoPoints), to: "g1", origin: origin(), commit: commit)
    }

    @Test("a command submitted in committing(_:_:) is committed by the caller, and settled before it returns")
    func committedHere() async throws {
        let directory = try TemporaryDirectory()
        let (library, log) = try await Self.open(directory.url)
        let settled = Mutex<Result<Receipt, CourtsideError>?>(nil)
        await library.committing(Self.callersThread(true)) { policy in
            await Self.move(library, commit: policy).whenSettled { result in settled.withLock { $0 = result } }
            // Not handed to the writer meanwhile: it is not woken for it.
            try? await Task.sleep(for: .milliseconds(100))
            #expect(log.threads.count == 1)
        }
        #expect(try settled.withLock { $0 }?.get().version == 2)
        #expect(log.threads.count == 2)
        #expect(log.byWriter == [true, false])
        #expect(!library.isCommitting)
        await library.close()
        // Durable: a reopened library has the move.
        let reopened = try Tournament.open(directory.url)
        #expect(try reopened.snapshot(of: "g1").value.score.home == 2)
        await reopened.close()
    }

    @Test("while the writer is busy, committing(_:_:) leaves its commands to the writer's next commit")
    func busyWriterCommits() async throws {
        let directory = try TemporaryDirectory()
        let (library, log) = try await Self.open(directory.url)
        log.hold()
        let first = await Self.move(library)
        while log.threads.count < 2 { try await Task.sleep(for: .milliseconds(5)) }
        let second = Mutex<PendingReceipt?>(nil)
        await library.committing(Self.callersThread(true)) { policy in
            let pending = await Self.move(library, .away, commit: policy)
            second.withLock { $0 = pending }
        }
        #expect(log.threads.count == 2)  // not committed here: the writer holds its role
        log.release()
        #expect(try await first.value().version == 2)
        #expect(try await second.withLock { $0 }!.value().version == 3)
        #expect(log.byWriter == [true, true, true])
        await library.close()
    }

    @Test("a caller that may not block after all leaves the commit to the writer")
    func mayNotBlock() async throws {
        let directory = try TemporaryDirectory()
        let (library, log) = try await Self.open(directory.url)
        let pending = await Self.moveCommittingHere(library, mayBlock: false)
        #expect(try await pending.value().version == 2)
        #expect(log.byWriter == [true, true])
        await library.close()
    }

    @Test("a caller that may block when it submits, but not once it is done, hands its commands to the writer")
    func mayNotBlockAfterAll() async throws {
        let directory = try TemporaryDirectory()
        let (library, log) = try await Self.open(directory.url)
        // As a task that left the I/O thread while it submitted: asked twice, yes then no.
        let asked = Mutex(0)
        let policy = CommitPolicy.callersThread {
            asked.withLock { count in
                count += 1
                return count == 1
            }
        }
        let pending = Mutex<PendingReceipt?>(nil)
        await library.committing(policy) { policy in
            let receipt = await Self.move(library, commit: policy)
            pending.withLock { $0 = receipt }
        }
        #expect(asked.withLock { $0 } == 2)
        #expect(try await pending.withLock { $0 }!.value().version == 2)
        #expect(log.byWriter == [true, true])
        await library.close()
    }

    @Test("after a slow commit on the caller's thread, the writer commits for callers")
    func slowCommitPauses() async throws {
        let directory = try TemporaryDirectory()
        let (library, log) = try await Self.open(directory.url)
        log.slow(by: .milliseconds(150))
        _ = await Self.moveCommittingHere(library, mayBlock: true)
        log.slow(by: .zero)
        let pending = await Self.moveCommittingHere(library, mayBlock: true)
        #expect(try await pending.value().version == 3)
        #expect(log.byWriter == [true, false, true])
        await library.close()
    }
}
