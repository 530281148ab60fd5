import CourtsideLocalization

/// The messages of one broadcast, made once for each language that has a stream, and the
/// generation it was sent in (``EventStreamSubscribers/generation``).
struct EventStreamBatch: Sendable {
    var generation: UInt64
    var messages: [Language: [EventStreamMessage]]
}

/// Which broadcasts each event stream of one event loop gets, what is held for a stream whose
/// socket takes no more, and which fell too far behind. Pure: ``EventStreamHub`` keeps it on its
/// loop and performs what it decides.
struct EventStreamRoster {
    struct Member {
        var language: Language
        /// The generation its state reflected: it gets only the broadcasts after it.
        var joined: UInt64
        /// Messages held while its socket took no more (NIO's buffer past its high mark): shared
        /// buffers, a few bytes each, written when the socket takes more.
        var held: [EventStreamMessage] = []
        /// How many messages `held` carries (a held batch may join several).
        var behind = 0
    }

    /// One stream's part of a flush: its messages as one write, and how many they are.
    struct Delivery {
        var id: Int
        var message: EventStreamMessage
        var count: Int
    }

    /// Messages held for a stream whose socket takes none; past it the stream ends, and its
    /// EventSource reconnects and starts again from a full state.
    let limit: Int
    private(set) var members: [Int: Member] = [:]

    init(limit: Int = 1000) { self.limit = limit }

    mutating func join(_ id: Int, language: Language, after generation: UInt64) {
        members[id] = Member(language: language, joined: generation)
    }

    /// The member that left, or nil when it had already.
    mutating func leave(_ id: Int) -> Member? { members.removeValue(forKey: id) }

    /// Each member's part of `batches` (in the order they were sent): the messages of its language
    /// sent after it joined, joined into one buffer once for each language and starting point,
    /// however many members share them.
    func deliveries(of batches: [EventStreamBatch]) -> [Delivery] {
        struct Part: Hashable {
            var language: Language
            var first: Int
        }
        // A part with nothing in its language holds an empty message and a count of 0.
        var made: [Part: (message: EventStreamMessage, count: Int)] = [:]
        var deliveries: [Delivery] = []
        deliveries.reserveCapacity(members.count)
        for (id, member) in members {
            // Usually 0: a stream that joined after some of these batches skips those its state held.
            let first = batches.firstIndex { $0.generation > member.joined } ?? batches.count
            let part = Part(language: member.language, first: first)
            if made[part] == nil {
                let messages = batches[first...].flatMap { $0.messages[member.language] ?? [] }
                made[part] = (messages.count == 1 ? messages[0] : EventStreamMessage(joining: messages), messages.count)
            }
            if let share = made[part], share.count > 0 {
                deliveries.append(Delivery(id: id, message: share.message, count: share.count))
            }
        }
        return deliveries
    }

    /// Whether `id` has messages held, which must go before any new one.
    func isHolding(_ id: Int) -> Bool { members[id].map { !$0.held.isEmpty } ?? false }

    /// Holds `message` (`count` messages) for `id`, whose socket takes no more; false when it
    /// now holds more than ``limit``: it must end.
    mutating func hold(_ message: EventStreamMessage, count: Int, for id: Int) -> Bool {
        guard var member = members[id] else { return false }
        member.held.append(message)
        member.behind += count
        members[id] = member
        return member.behind <= limit
    }

    /// The messages held for `id`, in order, now forgotten: its socket takes more.
    mutating func release(_ id: Int) -> [EventStreamMessage] {
        guard var member = members[id], !member.held.isEmpty else { return [] }
        defer {
            (member.held, member.behind) = ([], 0)
            members[id] = member
        }
        return member.held
    }
}
