import CourtsideLocalization

/// The messages of one broadcast, made once for each language that has a stream, and the
/// generation it was sent in (``EventStreamSubscribers/generation``).
struct EventStreamBatch: Sendable {
    var generation: UInt64
    var messages: [Language: [EventStreamMessage]]
}

/// Which broadcasts each event stream of one event loop gets, what is held for a stream whose
/// socket takes no more, and which fell so far behind that a fresh `state` serves its display
/// better than what it missed. Pure, with the time passed in: ``EventStreamHub`` keeps it on its
/// loop and performs what it decides.
struct EventStreamRoster {
    struct Member {
        var language: Language
        /// The generation its state reflected: it gets only the broadcasts after it.
        var joined: UInt64
        /// Messages held while its socket took no more (NIO's buffer past its high mark): shared
        /// buffers, a few bytes each, written when the socket takes more.
        var held: [EventStreamMessage] = []
        /// How many messages `held` carries (a held batch may join several), their bytes, and
        /// when the oldest was held.
        var behind = 0
        var heldBytes = 0
        var heldSince: ContinuousClock.Instant?
        /// Fell too far behind: what it missed is dropped, and it gets a fresh `state` when its
        /// socket takes more (a display needs the latest view, not every step to it).
        var owesState = false
    }

    /// What a stream whose socket takes more again is owed.
    enum Owed {
        /// What was held, in order.
        case messages([EventStreamMessage])
        /// A fresh `state` in its language, in place of what it missed.
        case state(Language)
    }

    /// One stream's part of a flush: its messages as one write, and how many they are.
    struct Delivery {
        var id: Int
        var message: EventStreamMessage
        var count: Int
    }

    /// Messages held for a stream whose socket takes none; past it the stream owes a state, as
    /// a browser that reconnected would get.
    let limit: Int
    /// How old the oldest message held for a stream may be: past it, a backlog bigger than a
    /// `state` (``stateBytes``) is replaced by one. A display a second behind shows the game as
    /// it was; the state brings it to now, in fewer bytes for the gateway and for a reader short
    /// of CPU. A reader behind for less (a burst, a moment's stall) still gets every event.
    let lag: Duration
    private(set) var members: [Int: Member] = [:]
    /// The size of the last `state` written in each language.
    private(set) var stateBytes: [Language: Int] = [:]

    init(limit: Int = 1000, lag: Duration = .seconds(1)) {
        self.limit = limit
        self.lag = lag
    }

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

    /// Whether `id` has messages held or a state owed, which must go before any new message.
    func isHolding(_ id: Int) -> Bool { members[id].map { !$0.held.isEmpty || $0.owesState } ?? false }

    /// Notes the size of a `state` written in `language`.
    mutating func wrote(state bytes: Int, in language: Language) { stateBytes[language] = bytes }

    /// Holds `message` (`count` messages) for `id`, whose socket takes no more, at `now`. Past
    /// ``limit`` messages, or past ``lag`` with more bytes than a state, what it holds is dropped
    /// and it owes a state; a message for a stream that owes one is dropped (the state holds it).
    mutating func hold(_ message: EventStreamMessage, count: Int, for id: Int, now: ContinuousClock.Instant) {
        guard var member = members[id], !member.owesState else { return }
        member.held.append(message)
        member.behind += count
        member.heldBytes += message.buffer.readableBytes
        if member.heldSince == nil { member.heldSince = now }
        if member.behind > limit || isStale(member, now: now) {
            (member.held, member.behind, member.heldBytes, member.heldSince) = ([], 0, 0, nil)
            member.owesState = true
        }
        members[id] = member
    }

    /// What `id` is owed now that its socket takes more (nil: nothing), now forgotten: a state
    /// when it owes one or what it holds has gone stale by `now`, else what it holds.
    mutating func release(_ id: Int, now: ContinuousClock.Instant) -> Owed? {
        guard var member = members[id], member.owesState || !member.held.isEmpty else { return nil }
        defer {
            (member.held, member.behind, member.heldBytes, member.heldSince) = ([], 0, 0, nil)
            member.owesState = false
            members[id] = member
        }
        return member.owesState || isStale(member, now: now) ? .state(member.language) : .messages(member.held)
    }

    private func isStale(_ member: Member, now: ContinuousClock.Instant) -> Bool {
        guard let since = member.heldSince, let state = stateBytes[member.language] else { return false }
        return now - since >= lag && member.heldBytes > state
    }

    /// `id` was written a state of the view at `generation`: it gets the broadcasts after it.
    mutating func resynced(_ id: Int, at generation: UInt64) {
        members[id]?.joined = generation
    }
}
