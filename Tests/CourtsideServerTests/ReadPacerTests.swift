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

    @Test("a client's whole-tournament read is paced only when it had one within the window")
    func loopsArePaced() {
        var pacer = ReadPacer(bytesPerSecond: 1_000_000, now: start)
        let paced1 = pacer.paces(.snapshot(game: nil), client: "big-screen", now: start)
        #expect(!paced1)
        let paced2 = pacer.paces(.snapshot(game: nil), client: "overlay", now: start)
        #expect(!paced2)
        let paced3 = pacer.paces(.snapshot(game: nil), client: "big-screen", now: start + .seconds(1))
        #expect(paced3)
        let paced4 = pacer.paces(.listGames, client: "big-screen", now: start + .seconds(2))
        #expect(paced4)
        let paced5 = pacer.paces(.schedule, client: "big-screen", now: start + .seconds(3))
        #expect(paced5)
        let paced6 = pacer.paces(.snapshot(game: nil), client: "big-screen", now: start + .seconds(9))
        #expect(!paced6)
        // Reads of one game, standings and a game's log never wait.
        let paced7 = pacer.paces(.snapshot(game: "g1"), client: "big-screen", now: start + .seconds(9))
        #expect(!paced7)
        let paced8 = pacer.paces(.standings, client: "big-screen", now: start + .seconds(9))
        #expect(!paced8)
        let paced9 = pacer.paces(.log(game: "g1"), client: "big-screen", now: start + .seconds(9))
        #expect(!paced9)
    }

    @Test("unpaced, nothing waits")
    func unpaced() {
        var pacer = ReadPacer(bytesPerSecond: 0, now: start)
        let paced10 = pacer.paces(.snapshot(game: nil), client: "a", now: start)
        #expect(!paced10)
        let paced11 = pacer.paces(.snapshot(game: nil), client: "a", now: start)
        #expect(!paced11)
        pacer.spent(1 << 30, now: start)
        #expect(pacer.delay(now: start) == .zero)
    }

    @Test("clients are forgotten once many are remembered and they have been quiet a window")
    func forgetsQuietClients() {
        var pacer = ReadPacer(bytesPerSecond: 1_000_000, now: start)
        for client in 0..<ReadPacer.rememberedClients {
            _ = pacer.paces(.snapshot(game: nil), client: "tv-\(client)", now: start)
        }
        // The next new client prunes the quiet ones; tv-0, forgotten, resyncs unpaced.
        let later = start + ReadPacer.loopWindow
        let paced12 = pacer.paces(.snapshot(game: nil), client: "new", now: later)
        #expect(!paced12)
        let paced13 = pacer.paces(.snapshot(game: nil), client: "tv-0", now: later + .seconds(1))
        #expect(!paced13)
        let paced14 = pacer.paces(.snapshot(game: nil), client: "new", now: later + .seconds(1))
        #expect(paced14)
    }
}
