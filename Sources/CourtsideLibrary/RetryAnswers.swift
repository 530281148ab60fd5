import CourtsideModel
import DequeModule

/// What a retry is answered with: the ticket of a command still in flight (or answered since
/// the start), or a settled result from the log, which costs no object.
enum RetryAnswer {
    case ticket(CommitTicket)
    case settled(Result<Receipt, CourtsideError>)

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
/// number finds. A command's answer is found by its client, then its command id: the client's
/// id is held once per client, not once per command (a flat table keyed by both ids, with the
/// order of every answer beside it, took about 280 bytes a command; this, about 140 at 60,000
/// commands: docs/FIGURES.md, "Memory and restart").
struct RetryAnswers {
    private struct Slot {
        var commandID: String
        var answer: RetryAnswer
        var at: Timestamp
    }

    /// One client's answers, oldest first, numbered from `first` without gaps.
    private struct Client {
        var slots: Deque<Slot> = []
        /// Each remembered command's number, by its id.
        var numbers: [String: UInt64] = [:]
        /// The number of the oldest slot. A client made again after it was forgotten whole
        /// numbers its answers from the memory's serial, beyond any number it had before, so a
        /// stale entry of `order` never matches one of its new answers.
        var first: UInt64

        init(first: UInt64) { self.first = first }

        func slot(_ number: UInt64) -> Int? {
            let offset = number &- first
            return offset < UInt64(slots.count) ? Int(offset) : nil
        }

        func index(of commandID: String) -> Int? {
            numbers[commandID].flatMap(slot)
        }

        /// Drops the oldest answer, returning its command's id.
        mutating func dropOldest() -> String {
            let oldest = slots.removeFirst()
            numbers[oldest.commandID] = nil
            first &+= 1
            return oldest.commandID
        }
    }

    let window: RetryWindow
    private var clients: [String: Client] = [:]
    /// Every answer's client and number in the order it was remembered, for the total bound;
    /// answers forgotten through their client's bound stay here until they reach the front (the
    /// client's numbers no longer hold them) or a compaction drops them: it holds at most twice
    /// the live ones.
    private var order: Deque<(client: String, number: UInt64)> = []
    /// Numbers every answer remembered: what a new client's numbering starts from.
    private var nextSerial: UInt64 = 0
    /// How many answers are remembered.
    private(set) var count = 0
    /// The commands whose answers were forgotten: a miss that it may hold must ask the log
    /// whether the command is new.
    private(set) var forgotten: ForgottenCommands

    init(window: RetryWindow, forgottenCapacity: Int) {
        self.window = window
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
        guard let client = clients[origin.clientID], let index = client.index(of: origin.commandID) else { return nil }
        return client.slots[index].answer
    }

    /// Whether the answer is kept as a result rather than a ticket.
    func isSettledInPlace(_ origin: CommandOrigin) -> Bool {
        if case .settled = answer(to: origin) { return true }
        return false
    }

    /// Remembers a command's answer (a retry of it will get the same answer) and forgets what
    /// the window no longer covers.
    mutating func remember(_ origin: CommandOrigin, _ answer: RetryAnswer, at now: Timestamp) {
        // Taken out of the dictionary while it changes, and put back once: any other copy alive
        // meanwhile would make each change copy it whole.
        var client = clients.removeValue(forKey: origin.clientID) ?? Client(first: nextSerial)
        if let index = client.index(of: origin.commandID) {
            // Known already: the new answer in its place, its time and place in the order kept.
            client.slots[index].answer = answer
            clients[origin.clientID] = client
            return
        }
        let number = client.first &+ UInt64(client.slots.count)
        client.slots.append(Slot(commandID: origin.commandID, answer: answer, at: now))
        client.numbers[origin.commandID] = number
        nextSerial = max(nextSerial, number) &+ 1
        count += 1
        order.append((origin.clientID, number))
        if client.slots.count > Self.ticketsKept { settle(&client.slots[client.slots.count - 1 - Self.ticketsKept]) }
        let cutoff = now.rawValue - Int64(window.maximumAge.inMilliseconds)
        while client.slots.count > window.maximumPerClient
            || (client.slots.count > window.recentPerClient && (client.slots.first?.at.rawValue ?? .max) < cutoff)
        {
            // An answer still waiting for its commit is kept whatever the window says: the log does
            // not hold it yet, so a retry could not be told from a new command.
            guard client.slots.first?.answer.isSettled ?? false else { break }
            forget(CommandOrigin(clientID: origin.clientID, commandID: client.dropOldest()))
        }
        clients[origin.clientID] = client
        while count > window.maximumTotal, let (oldest, number) = order.first {
            guard var owner = clients[oldest], owner.slot(number) == 0 else {
                order.removeFirst()
                continue
            }
            // As above: pending answers stay until they are settled.
            guard owner.slots[0].answer.isSettled else { break }
            order.removeFirst()
            clients[oldest] = nil
            forget(CommandOrigin(clientID: oldest, commandID: owner.dropOldest()))
            if !owner.slots.isEmpty { clients[oldest] = owner }
        }
        // Forgotten answers linger in `order` until they reach its front; keep it bounded.
        if order.count > 2 * count + 1024 {
            order = Deque(order.filter { clients[$0.client]?.slot($0.number) != nil })
        }
    }

    /// Keeps a settled ticket's result in its place: each answer gets this once, as its client's
    /// answers pass it by ``ticketsKept``. One still in flight (a stuck disk) stays a ticket.
    private func settle(_ slot: inout Slot) {
        guard case .ticket(let ticket) = slot.answer, let result = ticket.result else { return }
        slot.answer = .settled(result)
    }

    private mutating func forget(_ origin: CommandOrigin) {
        count -= 1
        forgotten.insert(ForgottenCommands.Hashes(origin))
    }

    /// The answers of `live`, in the order it took them, after these.
    mutating func append(_ live: RetryAnswers) {
        for (client, number) in live.order {
            guard let owner = live.clients[client], let index = owner.slot(number) else { continue }
            let slot = owner.slots[index]
            remember(CommandOrigin(clientID: client, commandID: slot.commandID), slot.answer, at: slot.at)
        }
        // Either may have started more filters than the other: see `formUnion`.
        forgotten.formUnion(live.forgotten)
    }
}
