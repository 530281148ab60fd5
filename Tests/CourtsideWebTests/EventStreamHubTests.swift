import CourtsideLocalization
import NIOCore
import NIOEmbedded
import Synchronization
import Testing

@testable import CourtsideWeb

@Suite(
    "the event streams of one event loop: each broadcast encoded once, joined while the loop is busy, a stream behind sent a state"
)
struct EventStreamHubTests {
    static func message(_ text: String) -> EventStreamMessage {
        EventStreamMessage(buffer: ByteBuffer(string: text))
    }

    static func batch(_ generation: UInt64, _ english: [String], japanese: [String] = []) -> EventStreamBatch {
        var messages: [Language: [EventStreamMessage]] = [.english: english.map(message)]
        if !japanese.isEmpty { messages[Language(tag: "ja")!] = japanese.map(message) }
        return EventStreamBatch(generation: generation, messages: messages)
    }

    static func address(_ message: EventStreamMessage) -> UnsafeRawPointer? {
        message.buffer.withUnsafeReadableBytes { UnsafeRawPointer($0.baseAddress) }
    }

    @Test("each stream gets the broadcasts after the one its state held, in its language, one buffer shared by all")
    func deliveries() throws {
        var roster = EventStreamRoster()
        let japanese = try #require(Language(tag: "ja"))
        roster.join(1, language: .english, after: 0)
        roster.join(2, language: .english, after: 0)
        roster.join(3, language: .english, after: 1)
        roster.join(4, language: japanese, after: 0)
        roster.join(5, language: .english, after: 2)
        let batches = [Self.batch(1, ["a", "b"], japanese: ["ア"]), Self.batch(2, ["c"], japanese: ["イ"])]
        let deliveries = Dictionary(uniqueKeysWithValues: roster.deliveries(of: batches).map { ($0.id, $0) })
        #expect(deliveries.keys.sorted() == [1, 2, 3, 4], "the stream that joined after both gets nothing")
        #expect(deliveries[1].map { String(buffer: $0.message.buffer) } == "abc" && deliveries[1]?.count == 3)
        #expect(deliveries[3].map { String(buffer: $0.message.buffer) } == "c" && deliveries[3]?.count == 1)
        #expect(deliveries[4].map { String(buffer: $0.message.buffer) } == "アイ")
        let first = try #require(deliveries[1]).message
        let second = try #require(deliveries[2]).message
        #expect(Self.address(first) == Self.address(second), "two streams of one language share one joined buffer")
    }

    static func held(_ owed: EventStreamRoster.Owed?) -> [String]? {
        guard case .messages(let messages)? = owed else { return nil }
        return messages.map { String(buffer: $0.buffer) }
    }

    @Test("messages are held for a stream whose socket takes none, given back in order; past the limit it owes a state")
    func held() {
        var roster = EventStreamRoster(limit: 5)
        let now = ContinuousClock.now
        roster.join(1, language: .english, after: 0)
        #expect(!roster.isHolding(1) && roster.release(1, now: now) == nil)
        roster.hold(Self.message("a"), count: 3, for: 1, now: now)
        roster.hold(Self.message("b"), count: 2, for: 1, now: now)
        #expect(roster.isHolding(1))
        #expect(Self.held(roster.release(1, now: now)) == ["a", "b"], "five held: at the limit, still kept")
        #expect(!roster.isHolding(1), "released: the count starts again")
        roster.hold(Self.message("c"), count: 5, for: 1, now: now)
        roster.hold(Self.message("d"), count: 1, for: 1, now: now)
        roster.hold(Self.message("e"), count: 1, for: 1, now: now)
        #expect(roster.isHolding(1))
        guard case .state(let language)? = roster.release(1, now: now) else {
            Issue.record("six held: what it missed is dropped, and a state is owed in its language")
            return
        }
        #expect(language == .english && !roster.isHolding(1) && roster.release(1, now: now) == nil)
        roster.hold(Self.message("f"), count: 1, for: 2, now: now)
        #expect(!roster.isHolding(2), "a stream that is not there")
    }

    @Test("a backlog held past the lag and bigger than a state is replaced by one; a stream resynced gets what came after")
    func resync() throws {
        var roster = EventStreamRoster(lag: .seconds(1))
        let japanese = try #require(Language(tag: "ja"))
        let start = ContinuousClock.now
        roster.join(1, language: .english, after: 0)
        roster.join(2, language: japanese, after: 0)
        roster.wrote(state: 4, in: .english)
        // Each: a stream, what is held for it and when, and when its socket takes more; it then
        // gets every message held.
        let kept: [(id: Int, held: [(String, Duration)], at: Duration, why: Comment)] = [
            (1, [("abcdef", .zero)], .milliseconds(999), "bigger than a state, but behind by less than the lag"),
            (1, [("ab", .zero), ("c", .seconds(2))], .seconds(2), "past the lag, but smaller than a state"),
            (2, [("efghijklm", .zero)], .seconds(5), "no state known in Japanese: held by count alone"),
        ]
        for (id, held, at, why) in kept {
            for (text, when) in held { roster.hold(Self.message(text), count: 1, for: id, now: start + when) }
            #expect(Self.held(roster.release(id, now: start + at)) == held.map(\.0), why)
        }
        roster.hold(Self.message("abc"), count: 1, for: 1, now: start)
        roster.hold(Self.message("de"), count: 1, for: 1, now: start + .seconds(1))
        #expect(roster.isHolding(1))
        roster.hold(Self.message("dropped"), count: 1, for: 1, now: start + .seconds(1))
        guard case .state(.english)? = roster.release(1, now: start + .seconds(1)) else {
            Issue.record("five bytes held a second against a state of four: a state is owed")
            return
        }
        roster.resynced(1, at: 3)
        let batches = [Self.batch(2, ["x"]), Self.batch(3, ["y"]), Self.batch(4, ["z"])]
        let delivered = roster.deliveries(of: batches).first { $0.id == 1 }
        #expect(delivered.map { String(buffer: $0.message.buffer) } == "z", "its state held the broadcasts up to 3")
        roster.hold(Self.message("abcdef"), count: 1, for: 1, now: start)
        guard case .state? = roster.release(1, now: start + .seconds(3)) else {
            Issue.record("a backlog gone stale by the time its socket takes more is replaced too")
            return
        }
    }

    @Test("a loop of a few hundred streams writes each broadcast at once; one of thousands waits up to 250 ms for more")
    func window() {
        #expect(EventStreamHub.window(streams: 0) == .zero && EventStreamHub.window(streams: 499) == .zero)
        #expect(EventStreamHub.window(streams: 500) == .milliseconds(25))
        #expect(EventStreamHub.window(streams: 2500) == .milliseconds(125))
        #expect(EventStreamHub.window(streams: 5000) == .milliseconds(250))
        #expect(EventStreamHub.window(streams: 50_000) == .milliseconds(250))
    }

    @Test(
        "on the loop: the state first, broadcasts that came while the loop was busy in one write, and a stream behind sent a state"
    )
    func hub() throws {
        let loop = EmbeddedEventLoop()
        let left = Mutex<[Language]>([])
        // The view as the hub would read it for a stream behind: a generation and its state.
        let view = Mutex<(UInt64, String)?>((5, "state at 5;"))
        let hub = EventStreamHub(
            eventLoop: loop, limit: 3,
            seed: { _ in view.withLock { $0.map { ($0.0, Self.message($0.1)) } } },
            left: { language in left.withLock { $0.append(language) } })
        let reading = EmbeddedChannel(loop: loop)
        let stalled = EmbeddedChannel(loop: loop)
        try reading.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        try stalled.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 2)).wait()
        let ended = Mutex<[Int]>([])
        for (id, channel) in [(1, reading), (2, stalled)] {
            hub.join(
                id, channel: channel, language: .english, generation: 1, state: Self.message("state;"), syncEvery: nil,
                inSync: { true }, ended: { ended.withLock { $0.append(id) } })
        }
        func written(_ channel: EmbeddedChannel) throws -> [String] {
            var parts: [String] = []
            while let part = try channel.readOutbound(as: EventStreamHub.Part.self) {
                if case .body(let buffer) = part { parts.append(String(buffer: buffer)) }
            }
            return parts
        }
        #expect(try written(reading) == ["state;"])
        // Three broadcasts before the loop runs: the first already in the state, the others one write.
        for batch in [Self.batch(1, ["old;"]), Self.batch(2, ["b;"]), Self.batch(3, ["c;", "d;"])] { hub.post(batch) }
        loop.run()
        #expect(try written(reading) == ["b;c;d;"])
        _ = try written(stalled)
        // The stalled stream's socket takes nothing: its messages are held, not written; three is
        // the limit, the fourth makes it owe a state, which it gets when its socket takes more,
        // and after it only the broadcasts its state did not hold.
        stalled.isWritable = false
        hub.post(Self.batch(4, ["e;", "f;", "g;"]))
        loop.run()
        hub.post(Self.batch(5, ["h;"]))
        loop.run()
        #expect(try written(stalled).isEmpty && ended.withLock { $0 }.isEmpty, "behind, not ended")
        #expect(try written(reading) == ["e;f;g;", "h;"])
        stalled.isWritable = true
        stalled.pipeline.fireChannelWritabilityChanged()
        loop.run()
        #expect(try written(stalled) == ["state at 5;"])
        hub.post(Self.batch(5, ["h;"]))
        hub.post(Self.batch(6, ["h2;"]))
        loop.run()
        #expect(try written(stalled) == ["h2;"])
        _ = try written(reading)
        // Behind again when the state cannot be made (the gateway stopping): it ends.
        stalled.isWritable = false
        hub.post(Self.batch(7, ["s1;", "s2;", "s3;", "s4;"]))
        loop.run()
        view.withLock { $0 = nil }
        stalled.isWritable = true
        stalled.pipeline.fireChannelWritabilityChanged()
        loop.run()
        #expect(ended.withLock { $0 } == [2] && left.withLock { $0 } == [.english])
        #expect(try written(stalled).isEmpty)
        #expect(try written(reading) == ["s1;s2;s3;s4;"])
        // A socket that takes more again gets what was held, in order, before anything new.
        reading.isWritable = false
        hub.post(Self.batch(8, ["i;"]))
        hub.post(Self.batch(9, ["j;"]))
        loop.run()
        #expect(try written(reading).isEmpty)
        reading.isWritable = true
        reading.pipeline.fireChannelWritabilityChanged()
        loop.run()
        #expect(try written(reading) == ["i;j;"])
        hub.post(Self.batch(10, ["k;"]))
        loop.run()
        #expect(try written(reading) == ["k;"])
        // A stream whose browser left ends with its channel.
        try reading.close().wait()
        loop.run()
        #expect(ended.withLock { $0 } == [2, 1])
        hub.post(Self.batch(11, ["l;"]))
        loop.run()
        #expect(try written(stalled).isEmpty, "the ended stream got nothing more")
    }
}

@Suite("the state new streams start with: encoded once for those that join together")
struct EventStreamStatesTests {
    @Test("a state is given again within its freshness at its generation, and made again after either moves")
    func states() throws {
        var states = EventStreamStates(freshness: .milliseconds(50))
        let japanese = try #require(Language(tag: "ja"))
        let start = ContinuousClock.now
        #expect(states.state(.english, generation: 3, now: start) == nil, "none made yet")
        states.keep(EventStreamMessage(buffer: ByteBuffer(string: "state 3")), .english, generation: 3, now: start)
        let again = states.state(.english, generation: 3, now: start + .milliseconds(50))
        #expect(again.flatMap { $0 }.map { String(buffer: $0.buffer) } == "state 3")
        #expect(states.state(.english, generation: 3, now: start + .milliseconds(51)) == nil, "too old: its clocks would lag")
        #expect(states.state(.english, generation: 4, now: start) == nil, "a broadcast since: the view moved")
        #expect(states.state(japanese, generation: 3, now: start) == nil, "each language its own")
        states.keep(nil, japanese, generation: 3, now: start)
        #expect(
            states.state(japanese, generation: 3, now: start).map { $0 == nil } == true,
            "one that could not be encoded is not tried again")
    }
}
