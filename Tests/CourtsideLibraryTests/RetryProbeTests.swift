import CourtsideLibrary
import CourtsideModel
import CourtsideStorage
import Foundation
import Testing

/// A game's actor looks each command up in the retry memory once, and decides it only when the
/// memory holds no answer for it: these check that a retry still gets its original answer and is
/// never applied again, whichever way it comes in.
@Suite("Retries through the actor's one look at the memory", .timeLimit(.minutes(LibraryTestLimits.minutes)))
struct RetryProbeTests {
    @Test("a move retried while in flight and after its commit gets its original receipt, applied once")
    func moveRetried() async throws {
        let directory = try TemporaryDirectory()
        let library = try Tournament.open(directory.url)
        try await library.createGame(Tournament.setup("g1"), origin: origin())
        let move = GameCommand.move(player: Tournament.player("g1", .home), move: .twoPoints)
        let sent = origin("keeper", "move-1")
        // The retry follows before the first's commit is awaited: both get the first's answer.
        let first = await library.submit(move, to: "g1", origin: sent)
        let retried = await library.submit(move, to: "g1", origin: sent)
        let receipt = try await first.value()
        #expect(try await retried.value() == receipt)
        #expect(try await library.apply(move, to: "g1", origin: sent) == receipt)
        // Sent to another game, the same command is still the one answered, not a new move there.
        try await library.createGame(Tournament.setup("g2"), origin: origin())
        #expect(try await library.apply(move, to: "g2", origin: sent) == receipt)
        let game = try library.snapshot(of: "g1").value
        #expect(game.version == 2 && game.score == SideValues(home: 2, away: 0) && game.plays.count == 1)
        #expect(try library.snapshot(of: "g2").value.version == 1)
        await library.close()
    }

    @Test("a refused command retried after the game changed keeps its refusal; a new one is decided afresh")
    func refusalRetried() async throws {
        let directory = try TemporaryDirectory()
        let library = try Tournament.open(directory.url)
        try await library.createGame(Tournament.setup("g1"), origin: origin())
        let pause = origin("keeper", "pause-1")
        await expectCode(.clockNotRunning) { try await library.apply(.pauseClock, to: "g1", origin: pause) }
        try await library.apply(.startClock, to: "g1", origin: origin())
        // The clock runs now, so the same pause, were it decided again, would pass.
        await expectCode(.clockNotRunning) { try await library.apply(.pauseClock, to: "g1", origin: pause) }
        #expect(try library.snapshot(of: "g1").value.clock.isRunning)
        try await library.apply(.pauseClock, to: "g1", origin: origin())
        #expect(try !library.snapshot(of: "g1").value.clock.isRunning)
        await library.close()
    }

    @Test("after a restart, a retry of a command from before it gets its receipt from the log's answers")
    func retriedAcrossRestart() async throws {
        let directory = try TemporaryDirectory()
        let sent = origin("keeper", "move-before")
        let move = GameCommand.move(player: Tournament.player("g1", .away), move: .onePoint)
        var library = try Tournament.open(directory.url)
        try await library.createGame(Tournament.setup("g1"), origin: origin())
        let receipt = try await library.apply(move, to: "g1", origin: sent)
        await library.close()
        library = try Tournament.open(directory.url)
        #expect(try await library.apply(move, to: "g1", origin: sent) == receipt)
        #expect(await library.retryMemoryLoaded())
        #expect(try await library.apply(move, to: "g1", origin: sent) == receipt)
        #expect(try library.snapshot(of: "g1").value.version == 2)
        await library.close()
    }
}
