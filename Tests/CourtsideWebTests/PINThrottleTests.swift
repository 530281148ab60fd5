import CourtsideWeb
import Testing

@Suite("wrong PINs are slowed down")
struct PINThrottleTests {
    @Test("five wrong PINs are free; then each try waits twice as long as the last, up to the maximum")
    func doubling() {
        var throttle = PINThrottle()
        var now = ContinuousClock.now
        for _ in 0..<5 { #expect(throttle.attempt("a", now: now) == .allowed) }
        #expect(throttle.attempt("a", now: now) == .wait(.seconds(1)))
        #expect(throttle.attempt("b", now: now) == .allowed, "another address is not held up")
        var waits: [Duration] = []
        for _ in 0..<12 {
            now += .seconds(400)  // wait out whatever it is, within the memory of 900 s
            #expect(throttle.attempt("a", now: now) == .allowed)
            if case .wait(let wait) = throttle.attempt("a", now: now) { waits.append(wait) }
        }
        #expect(waits.prefix(5) == [.seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(32)])
        #expect(waits.last == .seconds(300))
    }

    @Test("a right PIN is not counted, yet clears nothing: one court's PIN buys no endless guesses at another's")
    func rightPIN() {
        var throttle = PINThrottle()
        let now = ContinuousClock.now
        for _ in 0..<4 { _ = throttle.attempt("a", now: now) }
        #expect(throttle.attempt("a", now: now) == .allowed)
        throttle.succeeded("a", now: now)  // the fifth was right
        #expect(throttle.attempt("a", now: now) == .allowed, "still four wrong: the fifth is heard")
        #expect(throttle.attempt("a", now: now) == .wait(.seconds(1)), "and the count went on from there")
    }

    @Test("tries sent at once are all counted before any is checked; an address quiet for 15 minutes starts afresh")
    func concurrent() {
        var throttle = PINThrottle()
        var now = ContinuousClock.now
        let heard = (0..<100).filter { _ in throttle.attempt("a", now: now) == .allowed }.count
        #expect(heard == 5)
        now += .seconds(901)
        #expect(throttle.attempt("a", now: now) == .allowed)
        #expect(throttle.attempt("a", now: now) == .allowed, "counted from one again")
    }

    @Test("a flood of addresses is bounded")
    func capacity() {
        var throttle = PINThrottle()
        throttle.capacity = 100
        let now = ContinuousClock.now
        for index in 0..<1000 {
            for _ in 0..<6 { _ = throttle.attempt("10.0.\(index)", now: now + .milliseconds(index)) }
        }
        // The newest are remembered, the oldest forgotten.
        #expect(throttle.attempt("10.0.999", now: now + .seconds(1)) != .allowed)
        #expect(throttle.attempt("10.0.0", now: now + .seconds(1)) == .allowed)
    }
}
