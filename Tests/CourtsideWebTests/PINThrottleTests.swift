import CourtsideWeb
import Testing

@Suite("wrong PINs are slowed down")
struct PINThrottleTests {
    @Test("five wrong PINs are free; then each waits twice as long, up to the maximum; a right one clears it")
    func doubling() {
        var throttle = PINThrottle()
        let start = ContinuousClock.now
        var now = start
        for _ in 0..<4 {
            #expect(throttle.decision(for: "a", now: now) == .allowed)
            throttle.record("a", right: false, now: now)
        }
        #expect(throttle.decision(for: "a", now: now) == .allowed)
        throttle.record("a", right: false, now: now)  // the fifth
        #expect(throttle.decision(for: "a", now: now) == .wait(.seconds(1)))
        #expect(throttle.decision(for: "b", now: now) == .allowed, "another address is not held up")
        var waits: [Duration] = []
        for _ in 0..<12 {
            now += .seconds(400)  // wait out whatever it is, within the memory of 900 s
            throttle.record("a", right: false, now: now)
            if case .wait(let wait) = throttle.decision(for: "a", now: now) { waits.append(wait) }
        }
        #expect(waits.prefix(5) == [.seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(32)])
        #expect(waits.last == .seconds(300))
        throttle.record("a", right: true, now: now)
        #expect(throttle.decision(for: "a", now: now) == .allowed)
    }

    @Test("ten wrong PINs in a row are slowed down; an address quiet for 15 minutes starts afresh")
    func tenInARow() {
        var throttle = PINThrottle()
        var now = ContinuousClock.now
        var slowed = 0
        for _ in 0..<10 {
            if case .wait(let wait) = throttle.decision(for: "a", now: now) {
                slowed += 1
                now += wait
            }
            throttle.record("a", right: false, now: now)
        }
        #expect(slowed >= 4)
        #expect(throttle.decision(for: "a", now: now) != .allowed)
        now += .seconds(901)
        #expect(throttle.decision(for: "a", now: now) == .allowed)
        throttle.record("a", right: false, now: now)
        #expect(throttle.decision(for: "a", now: now) == .allowed, "counted from one again")
    }

    @Test("a flood of addresses is bounded")
    func capacity() {
        var throttle = PINThrottle()
        throttle.capacity = 100
        let now = ContinuousClock.now
        for index in 0..<1000 {
            for _ in 0..<5 { throttle.record("10.0.\(index)", right: false, now: now + .milliseconds(index)) }
        }
        // The newest are remembered, the oldest forgotten.
        #expect(throttle.decision(for: "10.0.999", now: now + .seconds(1)) != .allowed)
        #expect(throttle.decision(for: "10.0.0", now: now + .seconds(1)) == .allowed)
    }
}
