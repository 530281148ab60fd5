import CourtsideModel
import DequeModule

/// What a retry is answered with: the ticket of a command still in flight (or answered since
/// the start), or a settled result from the log, which costs no object.
enum RetryAnswer {
    case ticket(CommitTicket)
    case settled(Result<Receipt, CourtsideError>)

    /// The answer as a ticket, made for it when it is a settled result.
    var ticket: CommitTicket {
        switch self {
        case .ticket(let ticket): ticket
        case .settled(let result): CommitTicket(settled: result)
        }
    }

    var isSettled: Bool {
        switch self {
        case .ticket(let ticket): ticket.isSettled
        case .settled: true
        }
    }
}

/// The answers a ``RetryMemory`` holds, within its ``RetryWindow``: a plain value, which the
/// memory keeps under its lock.
///
/// Kept per client, in the order the client's commands came: a client's answers leave from its
/// oldest, through its own bounds or the total one, so each client's are one run that a
/// number finds. A command's answer is found by its client, then its command id, through the
/// client's ``RetryAnswerIndex``: the client's id is held once per client, and the command's
/// once, in its answer. The order of every answer, for the total bound, names its client by a
/// place in a list rather than by its id. About 80 bytes a command at 60,000 commands (70
/// measured with an index of 5 bytes a bucket; it keeps 9, at 2 to 4 buckets a command), where
/// a flat table keyed by both ids took 280 and a dictionary of numbers per client 140
/// (docs/FIGURES.md, "Memory and restart").
struct RetryAnswers {
    /// One answer. Most are a settled receipt: its game in place, its version and sequence
    /// packed in one word (48 bytes a slot; with the answer itself in place, 64). The ticket of
    /// one of the client's last few answers is in its client's `recent`; any other answer (a
    /// refusal, numbers too large to pack, a ticket still in flight further back) in its `others`.
    private struct Slot {
        var commandID: String
        var at: Timestamp
        var game: GameID
        var packed: UInt64

        /// `packed` of an answer kept in `others`: no packed receipt has a version of 2^24 - 1.
        static let elsewhere = UInt64.max
        /// `packed` of a ticket kept in `recent`, the other value with that version.
        static let recentTicket: UInt64 = 0xff_ffff

        init(commandID: String, at: Timestamp, game: GameID, packed: UInt64) {
            self.commandID = commandID
            self.at = at
            self.game = game
            self.packed = packed
        }

        /// A settled receipt's game and packed numbers: its version below 2^24 - 1, its sequence
        /// below 2^40.
        static func pack(_ answer: RetryAnswer) -> (GameID, UInt64)? {
            guard case .settled(.success(let receipt)) = answer, (0..<0xff_ffff).contains(receipt.version),
                (0..<(1 << 40)).contains(receipt.sequence)
            else { return nil }
            return (receipt.gameID, UInt64(receipt.sequence) << 24 | UInt64(receipt.version))
        }

        /// Whether the answer is a receipt packed here.
        var isPacked: Bool { packed & 0xff_ffff != 0xff_ffff }

        /// The receipt packed here, if the answer is.
        var receipt: RetryAnswer? {
            isPacked
                ? .settled(.success(Receipt(gameID: game, version: Int(packed & 0xff_ffff), sequence: Int64(packed >> 24))))
                : nil
        }
    }

    /// One client's answers, oldest first, numbered from `first` without gaps.
    private struct Client {
        let id: String
        var slots: Deque<Slot> = []
        /// Each remembered command's number, found by its id.
        var index = RetryAnswerIndex()
        /// The tickets of the client's newest answers, up to ``ticketsKept`` of them, in the
        /// order of its slots (nil where the answer is no ticket): a move's ticket goes in and
        /// comes out at the ends of a list, with no hash table's insertion, look-up and removal.
        var recent: Deque<CommitTicket?> = []
        /// The answers that are neither a packed receipt nor in `recent`, by number: refusals,
        /// and tickets passed by ``ticketsKept`` newer answers while still in flight.
        var others: [UInt64: RetryAnswer] = [:]
        /// The number of the oldest slot. A client made again after it was forgotten whole
        /// numbers its answers from the memory's serial, beyond any number it had before, so a
        /// stale entry of `order` never matches one of its new answers.
        var first: UInt64

        init(id: String, first: UInt64) {
            self.id = id
            self.first = first
        }

        /// The slot of the answer whose number ends in `low`, if it is held.
        func slot(low: UInt32) -> Int? { Self.slot(slots, first, low) }

        /// The slot of `commandID`'s answer, whose id hashes to `hash`, if it is held.
        func index(of commandID: String, hash: Int) -> Int? {
            let found = index.find(hash: hash) { low in
                Self.slot(slots, first, low).map { slots[$0].commandID == commandID } ?? false
            }
            return found.flatMap { slot(low: $0) }
        }

        /// The answer to `commandID`, if it is held.
        func answer(to commandID: String, hash: Int) -> RetryAnswer? {
            index(of: commandID, hash: hash).map { answer(at: $0) }
        }

        private static func slot(_ slots: Deque<Slot>, _ first: UInt64, _ low: UInt32) -> Int? {
            let offset = low &- UInt32(truncatingIfNeeded: first)
            return offset < UInt32(slots.count) ? Int(offset) : nil
        }

        /// Where slot `index`'s ticket is in `recent`, when `recent` covers the slot.
        private func recentIndex(_ index: Int) -> Int? {
            let offset = index - (slots.count - recent.count)
            return offset >= 0 ? offset : nil
        }

        /// The answer in slot `index`.
        func answer(at index: Int) -> RetryAnswer {
            let slot = slots[index]
            if let receipt = slot.receipt { return receipt }
            if slot.packed == Slot.recentTicket { return .ticket(recent[recentIndex(index)!]!) }
            return others[first &+ UInt64(index)]!
        }

        /// Puts `answer` in slot `index`, in place of the one there.
        mutating func setAnswer(_ answer: RetryAnswer, at index: Int) {
            let number = first &+ UInt64(index)
            if slots[index].packed == Slot.elsewhere { others[number] = nil }
            let inRecent = recentIndex(index)
            if let inRecent { recent[inRecent] = nil }
            if let (game, packed) = Slot.pack(answer) {
                (slots[index].game, slots[index].packed) = (game, packed)
            } else if let inRecent, case .ticket(let ticket) = answer {
                (slots[index].game, slots[index].packed) = (GameID(""), Slot.recentTicket)
                recent[inRecent] = ticket
            } else {
                (slots[index].game, slots[index].packed) = (GameID(""), Slot.elsewhere)
                others[number] = answer
            }
        }

        /// Puts `answer` in place of the one held for `commandID` (whose id hashes to `hash`);
        /// false if none is held.
        mutating func replaceAnswer(to commandID: String, hash: Int, with answer: RetryAnswer) -> Bool {
            guard let index = index(of: commandID, hash: hash) else { return false }
            setAnswer(answer, at: index)
            return true
        }

        /// Adds the newest answer, to `commandID` (whose id hashes to `hash`); returns its number.
        mutating func append(_ commandID: String, hash: Int, _ answer: RetryAnswer, at now: Timestamp) -> UInt64 {
            let number = first &+ UInt64(slots.count)
            if let (game, packed) = Slot.pack(answer) {
                slots.append(Slot(commandID: commandID, at: now, game: game, packed: packed))
                recent.append(nil)
            } else if case .ticket(let ticket) = answer {
                slots.append(Slot(commandID: commandID, at: now, game: GameID(""), packed: Slot.recentTicket))
                recent.append(ticket)
            } else {
                slots.append(Slot(commandID: commandID, at: now, game: GameID(""), packed: Slot.elsewhere))
                recent.append(nil)
                others[number] = answer
            }
            index.insert(UInt32(truncatingIfNeeded: number), hash: hash)
            return number
        }

        /// Numbers passed by the client's last ``ticketsKept`` answers while their command was
        /// still in flight, oldest first: tried again from the front as commits land.
        var inFlight: Deque<UInt64> = []

        /// Keeps settled tickets' results in their place, once the client's answers pass them by
        /// `kept`. One still in flight (a stuck disk, or many commands pipelined) is tried again
        /// at the next answers, from the oldest, until it is settled or forgotten.
        mutating func settle(olderThan kept: Int) {
            while let number = inFlight.first, settle(number) { inFlight.removeFirst() }
            while recent.count > kept {
                let index = slots.count - recent.count
                guard let ticket = recent.removeFirst() else { continue }
                if let result = ticket.result {
                    setAnswer(.settled(result), at: index)
                } else {
                    let number = first &+ UInt64(index)
                    (slots[index].game, slots[index].packed) = (GameID(""), Slot.elsewhere)
                    others[number] = .ticket(ticket)
                    inFlight.append(number)
                }
            }
        }

        /// Settles the answer numbered `number` in place if its ticket is settled; false while
        /// the command is in flight.
        private mutating func settle(_ number: UInt64) -> Bool {
            guard number >= first, number &- first < UInt64(slots.count), slots[Int(number &- first)].packed == Slot.elsewhere,
                case .ticket(let ticket) = others[number]
            else { return true }
            guard let result = ticket.result else { return false }
            setAnswer(.settled(result), at: Int(number &- first))
            return true
        }

        /// Drops the oldest answer if `window` no longer covers it (its bounds for one client;
        /// `cutoff`, the oldest time it keeps beyond the recent ones) and it is settled, returning
        /// its command's id. An answer still waiting for its commit is kept whatever the window
        /// says: the log does not hold it yet, so a retry could not be told from a new command.
        mutating func dropOldest(beyond window: RetryWindow, cutoff: Int64) -> String? {
            guard let oldest = slots.first,
                slots.count > window.maximumPerClient || (slots.count > window.recentPerClient && oldest.at.rawValue < cutoff),
                answer(at: 0).isSettled
            else { return nil }
            return dropOldest()
        }

        /// Drops the oldest answer, returning its command's id.
        mutating func dropOldest() -> String {
            let commandID = slots[0].commandID
            let (low, hash) = (UInt32(truncatingIfNeeded: first), commandID.hashValue)
            index.remove(low, hash: hash)
            if slots[0].packed == Slot.elsewhere { others[first] = nil }
            if recent.count == slots.count { recent.removeFirst() }
            slots.removeFirst()
            first &+= 1
            return commandID
        }
    }

    /// An answer's place in the order of all: its client's place in `clients`, and the low 32
    /// bits of its number. A stale entry could only be taken for a live one after 2^32 answers
    /// more, and `order` is compacted before that (see ``remember(_:_:at:)``).
    private struct Place {
        var client: UInt32
        var number: UInt32
    }

    let window: RetryWindow
    /// The window's ``RetryWindow/maximumAge``, as a timestamp counts it.
    private let maximumAgeMilliseconds: Int64
    /// Each client's place in `clients`.
    private var places: [String: UInt32] = [:]
    /// The clients; nil where one was forgotten whole, a place `free` lists for the next one.
    private var clients: [Client?] = []
    private var free: [UInt32] = []
    /// Every answer's place in the order it was remembered, for the total bound; answers
    /// forgotten through their client's bound stay here until they reach the front (the
    /// client's numbers no longer hold them) or a compaction drops them: it holds at most twice
    /// the live ones.
    private var order: Deque<Place> = []
    /// Numbers every answer remembered: what a new client's numbering starts from.
    private var nextSerial: UInt64 = 0
    /// How many answers are remembered.
    private(set) var count = 0
    /// The commands whose answers were forgotten: a miss that it may hold must ask the log
    /// whether the command is new.
    private(set) var forgotten: ForgottenCommands

    init(window: RetryWindow, forgottenCapacity: Int) {
        self.window = window
        maximumAgeMilliseconds = Int64(window.maximumAge.inMilliseconds)
        forgotten = ForgottenCommands(firstCapacity: forgottenCapacity)
    }

    /// A client's answers further back than this keep their result, not the ticket: a ticket
    /// is an object of its own, and only a command still in flight, among a client's last few,
    /// needs one.
    static let ticketsKept = 256

    /// Makes room for about `count` answers in the order of all of them (a start knows how many
    /// the log holds).
    mutating func reserveCapacity(_ count: Int) { order.reserveCapacity(count) }

    /// The answer remembered for `origin`, if it is within the window.
    func answer(to origin: CommandOrigin) -> RetryAnswer? {
        answer(to: origin, hash: Self.hash(origin))
    }

    /// The hash of `origin`'s command id that ``answer(to:hash:)`` and ``remember(_:_:at:hash:)``
    /// take: a game's actor hashes a command once for both.
    static func hash(_ origin: CommandOrigin) -> Int { origin.commandID.hashValue }

    /// ``answer(to:)`` with the command's ``hash(_:)`` at hand.
    func answer(to origin: CommandOrigin, hash: Int) -> RetryAnswer? {
        // Through the array's element in place: a client bound to a name is a copy, a retain of
        // each of its arrays and a release after, and so is one read through the array's own
        // subscript and unwrapped (a profile showed that copy); the buffer's subscript lends it.
        guard let place = places[origin.clientID] else { return nil }
        return clients.withUnsafeBufferPointer { $0[Int(place)]?.answer(to: origin.commandID, hash: hash) }
    }

    /// Whether the answer is kept as a result rather than a ticket.
    func isSettledInPlace(_ origin: CommandOrigin) -> Bool {
        if case .settled = answer(to: origin) { return true }
        return false
    }

    /// The place of `clientID`'s answers, made for it if it has none.
    private mutating func place(of clientID: String) -> Int {
        if let place = places[clientID] { return Int(place) }
        let client = Client(id: clientID, first: nextSerial)
        let place: Int
        if let reused = free.popLast() {
            place = Int(reused)
            clients[place] = client
        } else {
            place = clients.count
            clients.append(client)
        }
        places[clientID] = UInt32(place)
        return place
    }

    /// Remembers a command's answer (a retry of it will get the same answer) and forgets what
    /// the window no longer covers.
    mutating func remember(_ origin: CommandOrigin, _ answer: RetryAnswer, at now: Timestamp) {
        remember(origin, answer, at: now, hash: Self.hash(origin))
    }

    /// ``remember(_:_:at:)`` with the command's ``hash(_:)`` at hand, for the look-up and the index.
    mutating func remember(_ origin: CommandOrigin, _ answer: RetryAnswer, at now: Timestamp, hash: Int) {
        let place = place(of: origin.clientID)
        // Moved out of the list while it changes, and back: a copy alive meanwhile would make
        // each change copy the client's answers whole, and each change through the list's
        // optional element unwrapped it again.
        var client = clients[place].take()!
        // Known already: the new answer in its place, its time and place in the order kept.
        if client.replaceAnswer(to: origin.commandID, hash: hash, with: answer) {
            clients[place] = consume client
            return
        }
        let number = client.append(origin.commandID, hash: hash, answer, at: now)
        client.settle(olderThan: Self.ticketsKept)
        while let dropped = client.dropOldest(beyond: window, cutoff: now.rawValue - maximumAgeMilliseconds) {
            forget(CommandOrigin(clientID: origin.clientID, commandID: dropped))
        }
        clients[place] = consume client
        nextSerial = max(nextSerial, number) &+ 1
        count += 1
        order.append(Place(client: UInt32(place), number: UInt32(truncatingIfNeeded: number)))
        while count > window.maximumTotal, let oldest = order.first {
            let owner = Int(oldest.client)
            // Read through a copy that ends here: one alive while the client changes would copy it.
            let front = clients[owner].flatMap { client in
                client.slot(low: oldest.number) == 0 ? (id: client.id, settled: client.answer(at: 0).isSettled) : nil
            }
            guard let front else {
                order.removeFirst()
                continue
            }
            // As above: pending answers stay until they are settled.
            guard front.settled else { break }
            order.removeFirst()
            forget(CommandOrigin(clientID: front.id, commandID: clients[owner]!.dropOldest()))
            if clients[owner]!.slots.isEmpty {
                places[front.id] = nil
                clients[owner] = nil
                free.append(oldest.client)
            }
        }
        // Forgotten answers linger in `order` until they reach its front; keep it bounded, and
        // compacted once every 2^31 answers, so that no stale low number meets a live one.
        if order.count > 2 * count + 1024 || nextSerial & 0x7fff_ffff == 0 {
            order = Deque(order.filter { clients[Int($0.client)]?.slot(low: $0.number) != nil })
        }
    }

    private mutating func forget(_ origin: CommandOrigin) {
        count -= 1
        forgotten.insert(ForgottenCommands.Hashes(origin))
    }

    /// The answers of `live`, in the order it took them, after these.
    mutating func append(_ live: RetryAnswers) {
        for place in live.order {
            guard let owner = live.clients[Int(place.client)], let index = owner.slot(low: place.number) else {
                continue
            }
            let slot = owner.slots[index]
            remember(CommandOrigin(clientID: owner.id, commandID: slot.commandID), owner.answer(at: index), at: slot.at)
        }
        // Either may have started more filters than the other: see `formUnion`.
        forgotten.formUnion(live.forgotten)
    }
}
