import CourtsideLibrary
import CourtsideModel
import CourtsideStorage
import Foundation
import Synchronization
import Testing

/// A wall clock and a monotonic clock the test sets by hand.
final class Clocks: Sendable {
    let wall = Mutex(Timestamp(milliseconds: 1_700_000_000_000))
    let monotonic = Mutex(Duration.seconds(1000))

    func source() -> SystemTimeSource {
        SystemTimeSource(wall: { self.wall.withLock { $0 } }, monotonic: { self.monotonic.withLock { $0 } })
    }

    func step(wallBy milliseconds: Int64) { wall.withLock { $0 = $0.adding(milliseconds: milliseconds) } }
    func pass(_ duration: Duration) {
        monotonic.withLock { $0 += duration }
        step(wallBy: Int64(duration.inMilliseconds))
    }
}

@Suite("game time follows the monotonic clock")
struct TimeSourceTests {
    @Test("a wall clock that jumps forward or back changes nothing; only real time passes")
    func wallSteps() {
        let clocks = Clocks()
        let source = clocks.source()
        let start = source.now()
        #expect(start == Timestamp(milliseconds: 1_700_000_000_000))
        clocks.pass(.milliseconds(2500))
        clocks.step(wallBy: 3_600_000)  // NTP or an operator sets the clock an hour ahead
        #expect(source.now().milliseconds(since: start) == 2500)
        clocks.step(wallBy: -7_200_000)  // and then two hours back
        clocks.pass(.seconds(1))
        #expect(source.now().rawValue - start.rawValue == 3500)
        #expect(source.wallClockOffset == -3_600_000)
    }

    @Test("a wall clock running sixty times too fast counts real seconds only")
    func fastWallClock() {
        let clocks = Clocks()
        let source = clocks.source()
        var clock = GameClock()
        clock.start(at: source.now())
        clocks.monotonic.withLock { $0 += .milliseconds(2500) }
        clocks.step(wallBy: 150_000)
        clock.stop(at: source.now())
        #expect(clock.accumulated == 2500)
    }

    @Test("after a restart, time never runs before the log's last event, and a running clock counts the gap once")
    func restartAfterWallWentBack() async throws {
        let directory = try TemporaryDirectory()
        let clocks = Clocks()
        let library = try GameLibrary(
            log: SQLiteEventLog(directory: directory.url), clock: clocks.source(), logger: Tournament.logger)
        try await library.createGame(Tournament.setup("g1"), origin: origin())
        try await library.apply(.startClock, to: "g1", origin: origin())
        clocks.pass(.seconds(10))
        try await library.apply(.move(player: Tournament.player("g1", .home), move: .rebound), to: "g1", origin: origin())
        let lastEvent = try library.snapshot(of: "g1").value
        await library.close()

        // Down for a minute, during which the wall clock was set back an hour.
        clocks.pass(.seconds(60))
        clocks.step(wallBy: -3_600_000)
        let source = clocks.source()
        let reopened = try GameLibrary(log: SQLiteEventLog(directory: directory.url), clock: source, logger: Tournament.logger)
        let game = try reopened.snapshot(of: "g1").value
        #expect(game.version == lastEvent.version)
        let now = source.now()
        #expect(now >= Timestamp(milliseconds: 1_700_000_010_000), "time ran backwards across the restart")
        // The game clock reads what it read at the last event, not an hour less (and never negative).
        #expect(game.clock.elapsed(at: now) >= 10_000)
        await reopened.close()
    }
}
