import CourtsideModel
import CourtsideStorage
import CourtsideThreads
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
    private enum Loading {
        case loading(waiters: [CheckedContinuation<Bool, Never>])
        case loaded
        case failed
    }

    private struct Shared {
        var state: RetryAnswers
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
                state: RetryAnswers(window: window, forgottenCapacity: forgottenCapacity),
                loading: loading ? .loading(waiters: []) : .loaded))
    }

    /// Rebuilds the memory from every answer in `log`, on a thread of its own; the memory must
    /// have been made `loading`. Until it is done, ``isLoading`` is true. `expected` is about how
    /// many answers the log holds.
    func load(from log: any EventLog, expected: Int, logger: Logger) {
        startThread(named: "courtside.retry") { [self] in
            let started = ContinuousClock.now
            var loaded = RetryAnswers(window: window, forgottenCapacity: forgottenCapacity)
            // Sized once: growing a list of many answers holds the old and the new one at once.
            loaded.reserveCapacity(min(expected, window.maximumTotal))
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
            let remembered = loaded.count
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
    private func finish(_ loaded: consuming RetryAnswers) -> Int {
        // Moved, never copied: a copy of a million answers would take as long as reading them.
        var state = consume loaded
        let (waiters, live) = shared.withLock { shared -> ([CheckedContinuation<Bool, Never>], Int) in
            guard case .loading(let waiters) = shared.loading else { return ([], 0) }
            let live = shared.state.count
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
        shared.withLock { $0.state.answer(to: origin) }?.ticket
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

    /// What ``admit(_:)`` found: a ``Recall`` with the answer itself when it is remembered.
    enum Admission {
        /// Its answer is remembered: a retry, given this.
        case answered(RetryAnswer)
        /// Not a command the memory has seen, nor one it may have forgotten: new.
        case new
        /// Only the log can tell whether it is a retry (see ``Recall/askLog(loading:)``).
        case askLog(loading: Bool)
    }

    /// The answer's presence, ``isLoading`` and the filter of forgotten commands in one look under the lock.
    func recall(_ origin: CommandOrigin) -> Recall {
        switch admit(origin) {
        case .answered: .remembered
        case .new: .new
        case .askLog(let loading): .askLog(loading: loading)
        }
    }

    /// ``recall(_:)`` and ``answer(to:)`` in one probe of the client's answers under the lock:
    /// what a game's actor asks of each command before it decides it (the pool threads that
    /// decide commands all take this lock).
    func admit(_ origin: CommandOrigin) -> Admission {
        admit(origin, hash: RetryAnswers.hash(origin))
    }

    /// ``admit(_:)`` with the command's hash at hand (``RetryAnswers/hash(_:)``), which the
    /// caller hands ``remember(_:_:at:hash:)`` next.
    func admit(_ origin: CommandOrigin, hash: Int) -> Admission {
        let found: Admission? = shared.withLock { shared in
            if let answer = shared.state.answer(to: origin, hash: hash) { return .answered(answer) }
            guard case .loaded = shared.loading else { return .askLog(loading: true) }
            // Most venues never forget a command: then no filter needs the command's hashes.
            return shared.state.forgotten.generations == 0 ? .new : nil
        }
        if let found { return found }
        // Hashed outside the lock. Filters only ever gain commands, and this one was not
        // remembered a moment ago, so a look in them now says what it would have said then.
        let hashes = ForgottenCommands.Hashes(origin)
        return shared.withLock { $0.state.forgotten.mayContain(hashes) } ? .askLog(loading: false) : .new
    }

    /// Whether the memory keeps this command's answer as a result, without its ticket.
    func keepsResultOnly(_ origin: CommandOrigin) -> Bool { shared.withLock { $0.state.isSettledInPlace(origin) } }

    /// How many answers are remembered now.
    var count: Int { shared.withLock { $0.state.count } }

    /// How many filters of forgotten commands there are (none until one is forgotten).
    var forgottenGenerations: Int { shared.withLock { $0.state.forgotten.generations } }

    /// Remembers a command's answer (a retry of it will get the same ticket) and forgets what
    /// the window no longer covers.
    func remember(_ origin: CommandOrigin, _ ticket: CommitTicket, at now: Timestamp) {
        remember(origin, ticket, at: now, hash: RetryAnswers.hash(origin))
    }

    /// ``remember(_:_:at:)`` with the command's hash at hand (``RetryAnswers/hash(_:)``).
    func remember(_ origin: CommandOrigin, _ ticket: CommitTicket, at now: Timestamp, hash: Int) {
        shared.withLock { $0.state.remember(origin, .ticket(ticket), at: now, hash: hash) }
    }
}
