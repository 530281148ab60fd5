import CourtsideProtocol
import Testing

@testable import CourtsideServer

/// The pace of whole-tournament reads: a display resyncing in a loop waits, one resyncing once
/// does not.
@Suite("the pacer of whole-tournament reads")
struct ReadPacerTests {
    let start = ContinuousClock.now

    @Test("a quarter of a second's worth goes at once; then a paced read waits for the bytes it went over by")
    func bucket() {
        var pacer = ReadPacer(bytesPerSecond: 1_000_000, now: start)
        #expect(pacer.delay(now: start) == .zero)
        pacer.spent(200_000, now: start)
        #expect(pacer.delay(now: start) == .zero)
        pacer.spent(250_000, now: start)
        // 200,000 bytes over: a fifth of a second.
        #expect(pacer.delay(now: start) == .milliseconds(200))
        #expect(pacer.delay(now: start + .milliseconds(150)) == .milliseconds(50))
        #expect(pacer.delay(now: start + .milliseconds(200)) == .zero)
        // Idle time refills at most a quarter of a second's worth.
        #expect(pacer.delay(now: start + .seconds(60)) == .zero)
        pacer.spent(350_000, now: start + .seconds(60))
        #expect(pacer.delay(now: start + .seconds(60)) == .milliseconds(100))
    }

    /// Asks `pacer` about each read in turn, `seconds` after `start`; returns which are paced.
    func paced(_ pacer: inout ReadPacer, _ reads: [(Request.Operation, client: String, seconds: Int)]) -> [Bool] {
        reads.map { pacer.paces($0.0, client: $0.client, now: start + .seconds($0.seconds)) }
    }

    @Test("a client's whole-tournament read is paced only when it had one within the window")
    func loopsArePaced() {
        var pacer = ReadPacer(bytesPerSecond: 1_000_000, now: start)
        let answers = paced(
            &pacer,
            [
                (.snapshot(game: nil), "big-screen", 0), (.snapshot(game: nil), "overlay", 0),
                (.snapshot(game: nil), "big-screen", 1), (.listGames, "big-screen", 2), (.schedule, "big-screen", 3),
                (.snapshot(game: nil), "big-screen", 9),
                // Reads of one game, standings and a game's log never wait.
                (.snapshot(game: "g1"), "big-screen", 9), (.standings, "big-screen", 9), (.log(game: "g1"), "big-screen", 9),
            ])
        #expect(answers == [false, false, true, true, true, false, false, false, false])
    }

    @Test("unpaced, nothing waits")
    func unpaced() {
        var pacer = ReadPacer(bytesPerSecond: 0, now: start)
        let answers = paced(&pacer, [(.snapshot(game: nil), "a", 0), (.snapshot(game: nil), "a", 0)])
        #expect(answers == [false, false])
        pacer.spent(1 << 30, now: start)
        #expect(pacer.delay(now: start) == .zero)
    }

    @Test("clients are forgotten once many are remembered and they have been quiet a window")
    func forgetsQuietClients() {
        var pacer = ReadPacer(bytesPerSecond: 1_000_000, now: start)
        let many = (0..<ReadPacer.rememberedClients).map { (Request.Operation.snapshot(game: nil), "tv-\($0)", 0) }
        #expect(!paced(&pacer, many).contains(true))
        // A second later all are still active: a new client forgets none of them.
        var busy = pacer
        #expect(!paced(&busy, [(.snapshot(game: nil), "early", 1)]).contains(true))
        #expect(busy.rememberedCount == ReadPacer.rememberedClients + 1)
        // A window after them, a new client makes the quiet ones forgotten.
        let window = Int(ReadPacer.loopWindow.components.seconds)
        let answers = paced(&pacer, [(.snapshot(game: nil), "new", window), (.snapshot(game: nil), "new", window + 1)])
        #expect(pacer.rememberedCount == 1)
        #expect(answers == [false, true])
    }
}
