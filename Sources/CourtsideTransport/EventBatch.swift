/// A commit's events for the event socket, handed to the I/O thread at once: each event's topic,
/// and their bodies one after another in one buffer.
///
/// A buffer a body was one allocation an event on the pool, where the publisher writes them,
/// and one free on the I/O thread, which sends them; a commit under load holds hundreds.
public struct EventBatch: Sendable {
    /// Each event's topic frame.
    let topics: [[UInt8]]
    /// Every event's body, one after another.
    let bodies: [UInt8]
    /// Where each event's body ends in `bodies`.
    let ends: [Int]

    /// Events whose bodies lie one after another in `bodies`, the first from its start, each
    /// ending where `ends` says: as many topics as ends, in increasing order.
    public init(topics: [[UInt8]], bodies: [UInt8], ends: [Int]) {
        precondition(topics.count == ends.count && ends.last ?? 0 <= bodies.count, "an end for each topic, within the bodies")
        self.topics = topics
        self.bodies = bodies
        self.ends = ends
    }

    /// How many events there are.
    public var count: Int { topics.count }

    /// Where event `index`'s body lies in `bodies`.
    func body(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }
}
