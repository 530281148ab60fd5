import CourtsideLibrary
import CourtsideModel
import CourtsideStorage
import Foundation
import Synchronization
import Testing

@Suite("Durability and retries", .timeLimit(.minutes(LibraryTestLimits.minutes)))
struct DurabilityTests {
    @Test("append N moves, close, reopen: identical state and numbering")
    func reopen() async throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock()
        var library = try Tournament.open(directory.url, clock: clock)
        for game in ["g1", "g2", "g3"] {
            try await library.createGame(Tournament.setup(game, rules: RuleSet(timeLimit: .minutes(10))), origin: origin())
            try await library.apply(.startClock, to: GameID(game), origin: origin())
        }
        var last = Receipt(gameID: "g1", version: 0, sequence: 0)
        for index in 0..<200 {
            let game = ["g1", "g2", "g3"][index % 3]
            clock.advance(seconds: 0.5)
            let move: MoveKind = [.assist, .rebound, .foul, .onePoint][index % 4]
            last = try await library.apply(
                .move(player: Tournament.player(game, (index / 4) % 2 == 0 ? .home : .away), move: move), to: GameID(game),
                origin: origin())
        }
        try await library.retract(version: 5, in: "g1", origin: origin())
        try await library.apply(.pauseClock, to: "g2", origin: origin())
        let before = library.snapshot()
        #expect(before.sequence == last.sequence + 2)
        await library.close()

        library = try Tournament.open(directory.url, clock: clock)
        let after = library.snapshot()
        #expect(after == before)
        // Numbering continues: next sequence and version follow on with no gap.
        let next = try await library.apply(.startClock, to: "g2", origin: origin())
        #expect(next.sequence == before.sequence + 1)
        #expect(next.version == before.value.first { $0.id == "g2" }!.version + 1)
        await library.close()
    }

    @Test("the writer connection runs with synchronous=FULL")
    func synchronousFull() throws {
        let directory = try TemporaryDirectory()
        let log = try SQLiteEventLog(directory: directory.url)
        #expect(try log.synchronousLevel() == 2)
        try log.close()
    }

    @Test("the same command twice is applied once and answered the same, refusals too, also after reopening")
    func retries() async throws {
        let directory = try TemporaryDirectory()
        var library = try Tournament.open(directory.url)
        let scorer = Tournament.player("g1", .home)
        let create = origin("keeper-1", "create-g1")
        let first = try await library.createGame(Tournament.setup("g1"), origin: create)
        #expect(try await library.createGame(Tournament.setup("g1"), origin: create) == first)
        let basket = origin("keeper-1", "42")
        // Concurrent retries of one command, as a keeper resending while the first is in flight.
        let shared = library
        let answers = try await withThrowingTaskGroup(of: Receipt.self) { group in
            for _ in 0..<8 {
                group.addTask { try await shared.apply(.move(player: scorer, move: .twoPoints), to: "g1", origin: basket) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(answers).count == 1)
        #expect(try library.snapshot(of: "g1").value.score.home == 2)
        // The same command id from another client is another command.
        try await library.apply(.move(player: scorer, move: .twoPoints), to: "g1", origin: origin("keeper-2", "42"))
        #expect(try library.snapshot(of: "g1").value.score.home == 4)
        // A refused command keeps its refusal, even once it would be accepted.
        let pause = origin("keeper-1", "43")
        await expectCode(.clockNotRunning) { try await library.apply(.pauseClock, to: "g1", origin: pause) }
        try await library.apply(.startClock, to: "g1", origin: origin())
        await expectCode(.clockNotRunning) { try await library.apply(.pauseClock, to: "g1", origin: pause) }
        #expect(try library.snapshot(of: "g1").value.clock.isRunning)
        await library.close()

        library = try Tournament.open(directory.url)
        let again = try await library.apply(.move(player: scorer, move: .twoPoints), to: "g1", origin: basket)
        #expect(again == answers[0])
        #expect(try await library.createGame(Tournament.setup("g1"), origin: create) == first)
        #expect(try library.snapshot(of: "g1").value.score.home == 4)
        // The refusal was logged too: the clock runs, yet the retried pause is still refused.
        await expectCode(.clockNotRunning) { try await library.apply(.pauseClock, to: "g1", origin: pause) }
        #expect(try library.snapshot(of: "g1").value.clock.isRunning)
        await library.close()
    }

    @Test("a log that fails to commit: the command is refused, nothing is acknowledged, the library stops")
    func storageFailure() async throws {
        let directory = try TemporaryDirectory()
        let log = FailingLog(try SQLiteEventLog(directory: directory.url))
        let library = try GameLibrary(log: log, clock: ManualClock(), logger: Tournament.logger)
        try await library.createGame(Tournament.setup("g1"), origin: origin())
        log.failing.withLock { $0 = true }
        await expectCode(.storageFailure) {
            try await library.apply(.move(player: Tournament.player("g1", .home), move: .twoPoints), to: "g1", origin: origin())
        }
        #expect(library.failure?.code == .storageFailure)
        // Clients get a fixed message: the storage's own words (paths, errno) stay in the log.
        #expect(library.failure?.message == "the event log could not be written; courtsided restarts and rebuilds from the log")
        log.failing.withLock { $0 = false }
        // Once failed, always failed: the in-memory state may be ahead of the log.
        await expectCode(.storageFailure) { try await library.apply(.startClock, to: "g1", origin: origin()) }
        #expect(try library.snapshot(of: "g1").value.score.home == 0)
        await library.close()
        // What the log holds is what was acknowledged.
        let reopened = try Tournament.open(directory.url)
        #expect(try reopened.snapshot(of: "g1").value.version == 1)
        await reopened.close()
    }
}

/// A log whose appends fail on demand, as a full disk would.
final class FailingLog: ForwardingEventLog {
    let base: any EventLog
    init(_ base: any EventLog) { self.base = base }
    let failing = Mutex(false)
    func append(_ events: [GameEvent], refusals: [CommandRefusal]) throws {
        if failing.withLock({ $0 }) { throw CocoaError(.fileWriteOutOfSpace) }
        try base.append(events, refusals: refusals)
    }
}
