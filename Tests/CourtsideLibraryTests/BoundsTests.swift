import CourtsideLibrary
import CourtsideModel
import CourtsideStorage
import Dispatch
import Foundation
import Synchronization
import Testing

/// The real SQLite log whose writer can be held, as a disk stuck in fsync would hold it.
final class HeldLog: ForwardingEventLog {
    let base: any EventLog
    private let held = Mutex(false)
    private let released = DispatchSemaphore(value: 0)
    /// Whether the writer is inside `append`, held.
    let waiting = Mutex(false)

    init(_ base: any EventLog) { self.base = base }

    func hold() { held.withLock { $0 = true } }
    func release() {
        held.withLock { $0 = false }
        released.signal()
    }

    func append(_ events: [GameEvent], refusals: [CommandRefusal]) throws {
        if held.withLock({ $0 }) {
            waiting.withLock { $0 = true }
            released.wait()
            waiting.withLock { $0 = false }
        }
        try base.append(events, refusals: refusals)
    }
}

@Suite("bounded under abuse", .timeLimit(.minutes(LibraryTestLimits.minutes)))
struct BoundsTests {
    @Test(
        "a worker gives freed memory back (and lets go of what it kept for the burst) only once idle after a burst, and never while it has work"
    )
    func idleTrimmer() {
        var trimmer = IdleTrimmer(after: 100)
        let wake = DispatchSemaphore(value: 0)
        var woken: [Bool] = []
        // What is kept only for a burst is let go at its end, once, right before the trim.
        var burstEnds = 0
        // Below the burst's size: a plain wait for work.
        wake.signal()
        woken.append(trimmer.wait(wake) { burstEnds += 1 })
        trimmer.did(100)
        // Work waiting: taken at once, no trim.
        wake.signal()
        woken.append(trimmer.wait(wake) { burstEnds += 1 })
        #expect(burstEnds == 0)
        // A second without work after the burst: a trim, and the count starts again.
        woken.append(trimmer.wait(wake) { burstEnds += 1 })
        #expect(burstEnds == 1)
        wake.signal()
        woken.append(trimmer.wait(wake) { burstEnds += 1 })
        #expect(woken == [true, true, false, true])
        #expect(burstEnds == 1)
    }

    static let window = RetryWindow(recentPerClient: 3, maximumAge: .seconds(3600), maximumPerClient: 5, maximumTotal: 8)

    func rebound(_ library: GameLibrary, _ origin: CommandOrigin) async throws(CourtsideError) -> Receipt {
        try await library.apply(.move(player: Tournament.player("g1", .home), move: .rebound), to: "g1", origin: origin)
    }

    @Test("a retry inside the window gets its answer, across a restart; one beyond it gets retry_expired, never a second move")
    func retryWindow() async throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock()
        var library = try GameLibrary(
            log: SQLiteEventLog(directory: directory.url), clock: clock, retryWindow: Self.window, logger: Tournament.logger)
        try await library.createGame(Tournament.setup("g1"), origin: origin("organiser", "create"))
        var receipts: [Receipt] = []
        for number in 1...5 { receipts.append(try await rebound(library, origin("court-1", "\(number)"))) }
        // All five are within the hour (and the 5 per client).
        #expect(try await rebound(library, origin("court-1", "1")) == receipts[0])

        clock.advance(seconds: 7200)
        _ = try await rebound(library, origin("court-1", "6"))  // 1 to 3 are now old, and beyond the last 3
        for (number, receipt) in receipts.enumerated().suffix(2) {
            #expect(try await rebound(library, origin("court-1", "\(number + 1)")) == receipt)
        }
        let version = try library.snapshot(of: "g1").value.version
        await expectCode(.retryExpired) { try await rebound(library, origin("court-1", "1")) }
        #expect(try library.snapshot(of: "g1").value.version == version, "an expired retry must not apply again")
        // Another client is unaffected, and a new command of this one is applied.
        #expect(try await rebound(library, origin("court-2", "1")).version == version + 1)
        #expect(try await rebound(library, origin("court-1", "new")).version == version + 2)

        await library.close()
        library = try GameLibrary(
            log: SQLiteEventLog(directory: directory.url), clock: clock, retryWindow: Self.window, logger: Tournament.logger)
        #expect(try await rebound(library, origin("court-1", "new")).version == version + 2)
        await expectCode(.retryExpired) { try await rebound(library, origin("court-1", "2")) }
        #expect(library.rememberedAnswers <= Self.window.maximumTotal)
        await library.close()
    }

    @Test("a game's creation retried from beyond the window gets retry_expired; another client's gets game_exists")
    func creationBeyondWindow() async throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock()
        let library = try GameLibrary(
            log: SQLiteEventLog(directory: directory.url), clock: clock, retryWindow: Self.window, logger: Tournament.logger)
        let creation = origin("organiser", "create")
        let receipt = try await library.createGame(Tournament.setup("g1"), origin: creation)
        #expect(try await library.createGame(Tournament.setup("g1"), origin: creation) == receipt)
        clock.advance(seconds: 7200)
        for number in 1...4 { try await rebound(library, origin("organiser", "\(number)")) }
        await expectCode(.retryExpired) { try await library.createGame(Tournament.setup("g1"), origin: creation) }
        await expectCode(.gameExists) {
            try await library.createGame(Tournament.setup("g1"), origin: origin("organiser-2", "create"))
        }
        await library.close()
    }

    @Test("many clients with fresh ids: the memory stays within its total, the oldest leave first")
    func totalBound() async throws {
        let directory = try TemporaryDirectory()
        let library = try GameLibrary(
            log: SQLiteEventLog(directory: directory.url), clock: ManualClock(), retryWindow: Self.window,
            logger: Tournament.logger)
        try await library.createGame(Tournament.setup("g1"), origin: origin("organiser", "create"))
        for client in 0..<50 { _ = try await rebound(library, origin("phone-\(client)", "1")) }
        #expect(library.rememberedAnswers == Self.window.maximumTotal)
        await expectCode(.retryExpired) { try await rebound(library, origin("phone-0", "1")) }
        #expect(try await rebound(library, origin("phone-49", "1")).version == 51)
        await library.close()
    }

    @Test("a full commit queue answers overloaded at once and decides nothing")
    func overloaded() async throws {
        let directory = try TemporaryDirectory()
        let log = HeldLog(try SQLiteEventLog(directory: directory.url))
        let library = try GameLibrary(log: log, clock: ManualClock(), commitQueueLimit: 4, logger: Tournament.logger)
        try await library.createGame(Tournament.setup("g1"), origin: origin("organiser", "create"))
        let move = GameCommand.move(player: Tournament.player("g1", .home), move: .rebound)
        log.hold()
        // The writer takes the first command and blocks writing it; four more fill the queue.
        var pending = [await library.submit(move, to: "g1", origin: origin("k", "0"))]
        while !log.waiting.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        for number in 1...4 { pending.append(await library.submit(move, to: "g1", origin: origin("k", "\(number)"))) }
        await expectCode(.overloaded) { try await rebound(library, origin("k", "5")) }
        log.release()
        for receipt in pending { _ = try await receipt.value() }
        // Not remembered, since nothing was decided: sent again, it is applied now.
        #expect(try await rebound(library, origin("k", "5")).version == 7)
        await library.close()
    }

    @Test("a refusal is answered before its audit record is written, and the record still reaches the log")
    func refusalsDoNotWait() async throws {
        let directory = try TemporaryDirectory()
        let log = HeldLog(try SQLiteEventLog(directory: directory.url))
        let library = try GameLibrary(log: log, clock: ManualClock(), logger: Tournament.logger)
        try await library.createGame(Tournament.setup("g1"), origin: origin("organiser", "create"))
        try await library.createGame(Tournament.setup("g2"), origin: origin("organiser", "create-2"))
        log.hold()
        let released = Atomic(false)
        let releaser = Task {
            try? await Task.sleep(for: .seconds(2))
            released.store(true, ordering: .sequentiallyConsistent)
            log.release()
        }
        // A player of g2 in g1: the game refuses it.
        await expectCode(.playerNotInGame) {
            try await library.apply(
                .move(player: Tournament.player("g2", .home), move: .rebound), to: "g1", origin: origin("k", "wrong-game"))
        }
        let answeredAfterRelease = released.load(ordering: .sequentiallyConsistent)
        #expect(!answeredAfterRelease, "the refusal waited for the disk")
        await releaser.value
        await library.close()
        let refusals = try SQLiteEventLog(directory: directory.url).readRefusals()
        #expect(refusals.map(\.origin.commandID) == ["wrong-game"])
    }
}
