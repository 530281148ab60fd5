import CourtsideModel
import CourtsideStorage
import CourtsideThreads
import DequeModule
import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// How long the library remembers each command's answer, so that a retry gets it again.
///
/// Per client, its last ``recentPerClient`` commands are always kept; older ones are kept while
/// younger than ``maximumAge``, up to ``maximumPerClient``; and the whole memory holds at most
/// ``maximumTotal`` answers, the oldest leaving first. The answers held are bounded however many
/// commands or clients arrive; a retry from beyond the window gets `retry_expired`, never a
/// second application (the log tells it apart from a new command). What the window forgets costs
/// about 2 bytes a command, in a filter that says which commands are worth that look-up
/// (``ForgottenCommands``).
public struct RetryWindow: Sendable, Equatable {
    public var recentPerClient: Int
    public var maximumAge: Duration
    public var maximumPerClient: Int
    public var maximumTotal: Int

    public init(
        recentPerClient: Int = 10_000, maximumAge: Duration = .seconds(24 * 3600), maximumPerClient: Int = 100_000,
        maximumTotal: Int = 1_000_000
    ) {
        self.recentPerClient = recentPerClient
        self.maximumAge = maximumAge
        self.maximumPerClient = max(recentPerClient, maximumPerClient)
        self.maximumTotal = maximumTotal
    }
}

/// The answers within the ``RetryWindow``, shared by every game.
///
/// A start rebuilds it from the log's answers on a thread of its own (``load(from:expected:logger:)``),
/// so that the library serves before a long log is read: meanwhile, a command it does not hold
/// asks the log whether it is a retry (``isLoading``), and a retry waits for the rebuild
/// (``waitUntilLoaded()``). The answers remembered meanwhile are then replayed after the
/// log's, so the memory ends as if it had been rebuilt before the first command.
final class RetryMemory: Sendable {
    /// What a retry is answered with: the ticket of a command still in flight (or answered since
    /// the start), or a settled result from the log, which costs no object.
    private enum Answer {
        case ticket(CommitTicket)
        case settled(Result<Receipt, CourtsideError>)

        var isSettled: Bool {
            switch self {
            case .ticket(let ticket): ticket.isSettled
            case .settled: true
            }
        }
    }

    private struct Entry {
        var answer: Answer
        var serial: UInt64
        var at: Timestamp
    }

    private struct Remembered {
        var commandID: String
        var serial: UInt64
        var at: Timestamp
    }

    private struct State {
        let window: RetryWindow
        var entries: [CommandOrigin: Entry] = [:]
        var clients: [String: Deque<Remembered>] = [:]
        /// Every answer in the order it was remembered, for the total bound; entries forgotten
        /// through their client's bound stay here until they reach the front (their serial no
        /// longer matches) or a compaction drops them: it holds at most twice the live ones.
        var order: Deque<(origin: CommandOrigin, serial: UInt64)> = []
        var nextSerial: UInt64 = 0
        /// The commands whose answers were forgotten: a miss that it may hold must ask the log
        /// whether the command is new.
        var forgotten: ForgottenCommands

        init(window: RetryWindow, forgottenCapacity: Int) {
            self.window = window
            forgotten = ForgottenCommands(firstCapacity: forgottenCapacity)
        }

        /// Remembers a command's answer (a retry of it will get the same answer) and forgets
        /// what the window no longer covers.
        mutating func remember(_ origin: CommandOrigin, _ answer: Answer, at now: Timestamp) {
            let serial = nextSerial
            // One look-up for a new command, the usual case (each hashes both ids).
            if let existing = entries.updateValue(Entry(answer: answer, serial: serial, at: now), forKey: origin) {
                entries[origin] = Entry(answer: answer, serial: existing.serial, at: existing.at)
                return
            }
            nextSerial += 1
            order.append((origin, serial))
            add(Remembered(commandID: origin.commandID, serial: serial, at: now), client: origin.clientID)
            while entries.count > window.maximumTotal, let (oldest, serial) = order.first {
                guard let entry = entries[oldest], entry.serial == serial else {
                    order.removeFirst()
                    continue
                }
                // As below: pending answers stay until they are settled.
                guard entry.answer.isSettled else { break }
                order.removeFirst()
                forget(oldest)
                // It is its client's oldest, since a client's answers arrive in order too.
                if var remembered = clients.removeValue(forKey: oldest.clientID) {
                    _ = remembered.popFirst()
                    if !remembered.isEmpty { clients[oldest.clientID] = remembered }
                }
            }
            // Forgotten entries linger in `order` until they reach its front; keep it bounded.
            if order.count > 2 * entries.count + 1024 {
                order = Deque(order.filter { entries[$0.origin]?.serial == $0.serial })
            }
        }

        /// Adds a client's newest answer and forgets its answers beyond the window.
        private mutating func add(_ newest: Remembered, client: String) {
            // Taken out of the dictionary while it changes, and put back once: any other copy alive
            // meanwhile would make each change copy it whole.
            var remembered = clients.removeValue(forKey: client) ?? []
            remembered.append(newest)
            if remembered.count > Self.ticketsKept {
                settle(CommandOrigin(clientID: client, commandID: remembered[remembered.count - 1 - Self.ticketsKept].commandID))
            }
            let cutoff = newest.at.rawValue - Int64(window.maximumAge.inMilliseconds)
            while remembered.count > window.maximumPerClient
                || (remembered.count > window.recentPerClient && (remembered.first?.at.rawValue ?? .max) < cutoff)
            {
                // An answer still waiting for its commit is kept whatever the window says: the log does
                // not hold it yet, so a retry could not be told from a new command.
                guard let oldest = remembered.first,
                    entries[CommandOrigin(clientID: client, commandID: oldest.commandID)]?.answer.isSettled ?? true
                else { break }
                remembered.removeFirst()
                forget(CommandOrigin(clientID: client, commandID: oldest.commandID))
            }
            clients[client] = remembered
        }

        /// A client's answers further back than this keep their result, not the ticket: a ticket
        /// is an object of its own (about 64 bytes of a remembered answer's 300), and only a
        /// command still in flight, among a client's last few, needs one.
        static let ticketsKept = 256

        /// Keeps a settled ticket's result in its place: each answer gets this once, as its client's
        /// answers pass it by ``ticketsKept``. One still in flight (a stuck disk) stays a ticket.
        private mutating func settle(_ origin: CommandOrigin) {
            guard let index = entries.index(forKey: origin), case .ticket(let ticket) = entries.values[index].answer,
                let result = ticket.result
            else { return }
            entries.values[index].answer = .settled(result)
        }

        /// Whether the answer is kept as a result rather than a ticket.
        func isSettledInPlace(_ origin: CommandOrigin) -> Bool {
            if case .settled = entries[origin]?.answer { return true }
            return false
        }

        private mutating func forget(_ origin: CommandOrigin) {
            entries[origin] = nil
            forgotten.insert(ForgottenCommands.Hashes(origin))
        }

        /// The answers of `live`, in the order it took them, after this memory's own.
        mutating func append(_ live: State) {
            for (origin, serial) in live.order {
                guard let entry = live.entries[origin], entry.serial == serial else { continue }
                remember(origin, entry.answer, at: entry.at)
            }
            // Either may have started more filters than the other: see `formUnion`.
            forgotten.formUnion(live.forgotten)
        }
    }

    private enum Loading {
        case loading(waiters: [CheckedContinuation<Bool, Never>])
        case loaded
        case failed
    }

    private struct Shared {
        var state: State
        var loading: Loading
    }

    let window: RetryWindow
    /// The commands the first filter of forgotten ones takes (a million, but for tests).
    private let forgottenCapacity: Int
    private let shared: Mutex<Shared>
    /// Set on close: the reader stops within a few thousand answers rather than read a long log
    /// to its end (a million answers take seconds; the daemon stops within two).
    private let stopping = Atomic(false)

    private struct Stopped: Error {}

    /// An empty memory, or one that ``load(from:expected:logger:)`` fills next.
    init(window: RetryWindow, loading: Bool = false, forgottenCapacity: Int = 1 << 20) {
        self.window = window
        self.forgottenCapacity = forgottenCapacity
        shared = Mutex(
            Shared(
                state: State(window: window, forgottenCapacity: forgottenCapacity),
                loading: loading ? .loading(waiters: []) : .loaded))
    }

    /// Rebuilds the memory from every answer in `log`, on a thread of its own; the memory must
    /// have been made `loading`. Until it is done, ``isLoading`` is true. `expected` is about how
    /// many answers the log holds.
    func load(from log: any EventLog, expected: Int, logger: Logger) {
        startThread(named: "courtside.retry") { [self] in
            let started = ContinuousClock.now
            var loaded = State(window: window, forgottenCapacity: forgottenCapacity)
            // Sized once: growing a table of many answers holds the old and the new one at once.
            loaded.entries.reserveCapacity(min(expected, window.maximumTotal))
            loaded.order.reserveCapacity(min(expected, window.maximumTotal))
            var count = 0
            do {
                try log.forEachAnswer { answer in
                    count += 1
                    if count % 4096 == 0, stopping.load(ordering: .relaxed) { throw Stopped() }
                    switch answer.outcome {
                    case .event(let game, let version, let sequence):
                        // A command's events come in order: its last one's receipt is its answer.
                        let receipt = Receipt(gameID: game, version: version, sequence: sequence)
                        loaded.remember(answer.origin, .settled(.success(receipt)), at: answer.at)
                    case .refusal(let refusal):
                        // A refusal under a reserved client id can only have come from a client, before such
                        // ids were refused at the door: it must never stand as the answer to the daemon's own
                        // command.
                        guard !CommandOrigin.isReserved(clientID: refusal.origin.clientID) else { return }
                        loaded.remember(answer.origin, .settled(.failure(refusal.error)), at: answer.at)
                    }
                }
            } catch is Stopped {
                fail()
                return
            } catch {
                logger.critical(
                    "the retry memory could not be read from the event log; retries of earlier commands are refused",
                    metadata: ["error": "\(error)"])
                fail()
                return
            }
            let remembered = loaded.entries.count
            let live = finish(consume loaded)
            // The start is over: what it freed (the games read, the answers streamed, this
            // thread's malloc arena) goes back to the system rather than stay in the RSS.
            FreedMemory.giveBack()
            logger.info(
                "retry memory loaded",
                metadata: [
                    "retry.answers": "\(count)", "retry.remembered": "\(remembered)",
                    "retry.answered_while_loading": "\(live)",
                    "retry.load_ms": "\((ContinuousClock.now - started).inMilliseconds)",
                ])
        }
    }

    /// Puts the loaded answers in force, followed by those remembered meanwhile, and wakes the
    /// waiters. Returns how many answers were remembered meanwhile.
    private func finish(_ loaded: consuming State) -> Int {
        // Moved, never copied: a copy of a million answers would take as long as reading them.
        var state = consume loaded
        let (waiters, live) = shared.withLock { shared -> ([CheckedContinuation<Bool, Never>], Int) in
            guard case .loading(let waiters) = shared.loading else { return ([], 0) }
            let live = shared.state.entries.count
            state.append(shared.state)
            swap(&shared.state, &state)
            shared.loading = .loaded
            return (waiters, live)
        }
        for waiter in waiters { waiter.resume(returning: true) }
        return live
    }

    /// Loading failed: retries of commands from before the start cannot be answered.
    private func fail() {
        let waiters = shared.withLock { shared -> [CheckedContinuation<Bool, Never>] in
            guard case .loading(let waiters) = shared.loading else { return [] }
            shared.loading = .failed
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: false) }
    }

    /// Whether the log's answers are not all in the memory: still being read, or their reading
    /// failed. A command not remembered may then be a retry of one answered before the start,
    /// whatever its filter of forgotten commands says: only the log can tell (and after a failure, such a
    /// retry can only be refused, never decided again).
    var isLoading: Bool {
        shared.withLock { if case .loaded = $0.loading { false } else { true } }
    }

    /// Stops reading the log, if the memory still is, and waits for the reader to be done with it.
    func stopLoading() async {
        stopping.store(true, ordering: .relaxed)
        _ = await waitUntilLoaded()
    }

    /// Waits until the log's answers are in the memory; false if they could not be read.
    func waitUntilLoaded() async -> Bool {
        await withCheckedContinuation { continuation in
            let done: Bool? = shared.withLock { shared in
                switch shared.loading {
                case .loading(var waiters):
                    waiters.append(continuation)
                    shared.loading = .loading(waiters: waiters)
                    return nil
                case .loaded: return true
                case .failed: return false
                }
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    /// The answer remembered for a command, if it is within the window.
    func answer(to origin: CommandOrigin) -> CommitTicket? {
        let answer = shared.withLock { $0.state.entries[origin]?.answer }
        switch answer {
        case .ticket(let ticket): return ticket
        case .settled(let result): return CommitTicket(settled: result)
        case nil: return nil
        }
    }

    /// What the memory knows of a command, for a new command's way in.
    enum Recall: Equatable {
        /// Its answer is remembered: the game's actor gives it.
        case remembered
        /// Not a command the memory has seen, nor one it may have forgotten: new.
        case new
        /// Only the log can tell whether it is a retry: the memory is still being read from it,
        /// or its reading failed (`loading`: see ``isLoading``), or the command may be one whose
        /// answer it forgot.
        case askLog(loading: Bool)
    }

    /// The answer's presence, ``isLoading`` and the filter of forgotten commands in one look under the lock:
    /// every command asks this, and the pool threads that decide commands all take this lock.
    func recall(_ origin: CommandOrigin) -> Recall {
        let hashes = ForgottenCommands.Hashes(origin)
        return shared.withLock { shared in
            if shared.state.entries[origin] != nil { return .remembered }
            if case .loaded = shared.loading {
                return shared.state.forgotten.mayContain(hashes) ? .askLog(loading: false) : .new
            }
            return .askLog(loading: true)
        }
    }

    /// Whether the memory keeps this command's answer as a result, without its ticket.
    func keepsResultOnly(_ origin: CommandOrigin) -> Bool { shared.withLock { $0.state.isSettledInPlace(origin) } }

    /// How many answers are remembered now.
    var count: Int { shared.withLock { $0.state.entries.count } }

    /// How many filters of forgotten commands there are (none until one is forgotten).
    var forgottenGenerations: Int { shared.withLock { $0.state.forgotten.generations } }

    /// Remembers a command's answer (a retry of it will get the same ticket) and forgets what
    /// the window no longer covers.
    func remember(_ origin: CommandOrigin, _ ticket: CommitTicket, at now: Timestamp) {
        shared.withLock { $0.state.remember(origin, .ticket(ticket), at: now) }
    }
}
