import CourtsideModel
import DequeModule
import Synchronization

/// How long the library remembers each command's answer, so that a retry gets it again.
///
/// Per client, its last ``recentPerClient`` commands are always kept; older ones are kept while
/// younger than ``maximumAge``, up to ``maximumPerClient``; and the whole memory holds at most
/// ``maximumTotal`` answers, the oldest leaving first. Memory is bounded however many commands
/// or clients arrive; a retry from beyond the window gets `retry_expired`, never a second
/// application (the log tells it apart from a new command).
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
final class RetryMemory: Sendable {
    private struct Entry {
        var ticket: CommitTicket
        var serial: UInt64
    }

    private struct Remembered {
        var commandID: String
        var serial: UInt64
        var at: Timestamp
    }

    private struct State {
        var entries: [CommandOrigin: Entry] = [:]
        var clients: [String: Deque<Remembered>] = [:]
        /// Every answer in the order it was remembered, for the total bound; entries forgotten
        /// through their client's bound stay here until they reach the front (their serial no
        /// longer matches) or a compaction drops them: it holds at most twice the live ones.
        var order: Deque<(origin: CommandOrigin, serial: UInt64)> = []
        var nextSerial: UInt64 = 0
        /// The commands whose answers were forgotten, as a Bloom filter of fixed size (2 MiB): a
        /// miss that it may contain must ask the log whether the command is new; any other miss
        /// is a new command for certain. A false positive costs only that look-up.
        var forgotten = [UInt64](repeating: 0, count: RetryMemory.filterWords)
    }

    let window: RetryWindow
    private let state = Mutex(State())

    init(window: RetryWindow) { self.window = window }

    /// The answer remembered for a command, if it is within the window.
    func answer(to origin: CommandOrigin) -> CommitTicket? {
        state.withLock { $0.entries[origin]?.ticket }
    }

    /// Whether a command that is not remembered may be one whose answer was forgotten.
    func mayHaveForgotten(_ origin: CommandOrigin) -> Bool {
        let bits = Self.bits(origin)
        return state.withLock { state in bits.allSatisfy { state.forgotten[$0 / 64] & (1 << UInt64($0 % 64)) != 0 } }
    }

    /// How many answers are remembered now.
    var count: Int { state.withLock { $0.entries.count } }

    /// Remembers a command's answer (a retry of it will get the same ticket) and forgets what
    /// the window no longer covers.
    func remember(_ origin: CommandOrigin, _ ticket: CommitTicket, at now: Timestamp) {
        state.withLock { state in
            if let existing = state.entries[origin] {
                state.entries[origin] = Entry(ticket: ticket, serial: existing.serial)
                return
            }
            let serial = state.nextSerial
            state.nextSerial += 1
            state.entries[origin] = Entry(ticket: ticket, serial: serial)
            state.order.append((origin, serial))
            add(Remembered(commandID: origin.commandID, serial: serial, at: now), client: origin.clientID, &state)
            while state.entries.count > window.maximumTotal, let (oldest, serial) = state.order.first {
                guard let entry = state.entries[oldest], entry.serial == serial else {
                    state.order.removeFirst()
                    continue
                }
                // As above: pending answers stay until they are settled.
                guard entry.ticket.isSettled else { break }
                state.order.removeFirst()
                forget(oldest, &state)
                // It is its client's oldest, since a client's answers arrive in order too.
                if var remembered = state.clients.removeValue(forKey: oldest.clientID) {
                    _ = remembered.popFirst()
                    if !remembered.isEmpty { state.clients[oldest.clientID] = remembered }
                }
            }
            // Forgotten entries linger in `order` until they reach its front; keep it bounded.
            if state.order.count > 2 * state.entries.count + 1024 {
                state.order = Deque(state.order.filter { state.entries[$0.origin]?.serial == $0.serial })
            }
        }
    }

    /// Adds a client's newest answer and forgets its answers beyond the window.
    private func add(_ newest: Remembered, client: String, _ state: inout State) {
        // Taken out of the dictionary while it changes, and put back once: any other copy alive
        // meanwhile would make each change copy it whole.
        var remembered = state.clients.removeValue(forKey: client) ?? []
        remembered.append(newest)
        let cutoff = newest.at.rawValue - Int64(window.maximumAge.inMilliseconds)
        while remembered.count > window.maximumPerClient
            || (remembered.count > window.recentPerClient && (remembered.first?.at.rawValue ?? .max) < cutoff)
        {
            // An answer still waiting for its commit is kept whatever the window says: the log does
            // not hold it yet, so a retry could not be told from a new command.
            guard let oldest = remembered.first,
                state.entries[CommandOrigin(clientID: client, commandID: oldest.commandID)]?.ticket.isSettled ?? true
            else { break }
            remembered.removeFirst()
            forget(CommandOrigin(clientID: client, commandID: oldest.commandID), &state)
        }
        state.clients[client] = remembered
    }

    private func forget(_ origin: CommandOrigin, _ state: inout State) {
        state.entries[origin] = nil
        for bit in Self.bits(origin) { state.forgotten[bit / 64] |= 1 << UInt64(bit % 64) }
    }

    /// 2^24 bits: a false positive rate near 0.2% with a million forgotten commands, rising as
    /// more are forgotten (a false positive costs one indexed read).
    static let filterWords = (1 << 24) / 64

    /// The filter's four bits for a command: double hashing over FNV-1a of its two ids.
    private static func bits(_ origin: CommandOrigin) -> [Int] {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in origin.clientID.utf8 + [0] + origin.commandID.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        let (first, second) = (hash & 0xffff_ffff, (hash >> 32) | 1)
        let size = UInt64(filterWords * 64)
        return (0..<4).map { Int((first &+ UInt64($0) &* second) % size) }
    }
}
