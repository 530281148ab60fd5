import CourtsideProtocol
import Testing

@testable import CourtsideServer

/// The pace of whole-tournament reads: a second's worth at once, then the budget's rate.
@Suite("the pacer of whole-tournament reads")
struct ReadPacerTests {
    let start = ContinuousClock.now

    @Test("a second's worth goes at once; then each reply waits for the bytes it went over by")
    func bucket() {
        var pacer = ReadPacer(bytesPerSecond: 1_000_000, now: start)
        #expect(pacer.delay(now: start) == .zero)
        pacer.spent(600_000, now: start)
        #expect(pacer.delay(now: start) == .zero)
        pacer.spent(600_000, now: start)
        // 200,000 bytes over: a fifth of a second.
        #expect(pacer.delay(now: start) == .milliseconds(200))
        #expect(pacer.delay(now: start + .milliseconds(150)) == .milliseconds(50))
        #expect(pacer.delay(now: start + .milliseconds(200)) == .zero)
        // Idle time refills at most a second's worth.
        #expect(pacer.delay(now: start + .seconds(60)) == .zero)
        pacer.spent(1_100_000, now: start + .seconds(60))
        #expect(pacer.delay(now: start + .seconds(60)) == .milliseconds(100))
    }

    @Test("only reads whose replies grow with the games wait, and none when unpaced")
    func whichReadsWait() {
        let pacer = ReadPacer(bytesPerSecond: 1_000_000, now: start)
        #expect(pacer.paces(.snapshot(game: nil)))
        #expect(pacer.paces(.listGames))
        #expect(pacer.paces(.schedule))
        #expect(!pacer.paces(.snapshot(game: "g1")))
        #expect(!pacer.paces(.standings))
        #expect(!pacer.paces(.log(game: "g1")))
        var unpaced = ReadPacer(bytesPerSecond: 0, now: start)
        #expect(!unpaced.paces(.snapshot(game: nil)))
        unpaced.spent(1 << 30, now: start)
        #expect(unpaced.delay(now: start) == .zero)
    }
}
