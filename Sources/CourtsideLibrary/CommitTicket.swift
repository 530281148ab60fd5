public import CourtsideModel
import Synchronization

/// A one-shot result that many tasks may await: the outcome of committing one command's events.
///
/// Retries of a command await the same ticket as the original, so they get the same answer.
final class CommitTicket: Sendable {
    typealias Callback = @Sendable (Result<Receipt, CourtsideError>) -> Void

    private enum Waiter {
        case task(CheckedContinuation<Result<Receipt, CourtsideError>, Never>)
        case callback(Callback)
    }

    private enum State {
        case waiting([Waiter])
        case done(Result<Receipt, CourtsideError>)
    }

    private let state: Mutex<State>

    init() { state = Mutex(.waiting([])) }

    /// A ticket that is already settled (a command replayed from the log).
    init(settled result: Result<Receipt, CourtsideError>) { state = Mutex(.done(result)) }

    /// Whether the answer is known (committed, or refused).
    var isSettled: Bool {
        state.withLock { state in
            if case .done = state { return true }
            return false
        }
    }

    /// The answer, once it is known.
    var result: Result<Receipt, CourtsideError>? {
        state.withLock { state in
            if case .done(let result) = state { return result }
            return nil
        }
    }

    func complete(_ result: Result<Receipt, CourtsideError>) {
        let waiters: [Waiter] = state.withLock { state in
            guard case .waiting(let waiters) = state else { return [] }
            state = .done(result)
            return waiters
        }
        for waiter in waiters {
            switch waiter {
            case .task(let continuation): continuation.resume(returning: result)
            case .callback(let callback): callback(result)
            }
        }
    }

    /// Calls `callback` with the result on the thread that settles the ticket (the committing one),
    /// or at once if it is settled already.
    func whenSettled(_ callback: @escaping Callback) {
        let settled: Result<Receipt, CourtsideError>? = state.withLock { state in
            switch state {
            case .done(let result): return result
            case .waiting(var waiters):
                waiters.append(.callback(callback))
                state = .waiting(waiters)
                return nil
            }
        }
        if let settled { callback(settled) }
    }

    func wait() async throws(CourtsideError) -> Receipt {
        let result = await withCheckedContinuation { continuation in
            let settled: Result<Receipt, CourtsideError>? = state.withLock { state in
                switch state {
                case .done(let result): return result
                case .waiting(var waiters):
                    waiters.append(.task(continuation))
                    state = .waiting(waiters)
                    return nil
                }
            }
            if let settled { continuation.resume(returning: settled) }
        }
        return try result.get()
    }
}

/// The answer to a submitted command, available once its events are durable.
public struct PendingReceipt: Sendable {
    private enum Source {
        case settled(Result<Receipt, CourtsideError>)
        case ticket(CommitTicket)
    }

    private let source: Source

    init(_ result: Result<Receipt, CourtsideError>) { source = .settled(result) }
    init(_ ticket: CommitTicket) { source = .ticket(ticket) }

    /// Waits for the commit and returns the receipt, or the command's rejection.
    public func value() async throws(CourtsideError) -> Receipt {
        switch source {
        case .settled(let result): try result.get()
        case .ticket(let ticket): try await ticket.wait()
        }
    }

    /// Calls `answer` with the receipt or the rejection as soon as it is known, on the thread
    /// that learns it: the committing thread's right after the commit, or the caller's when the answer
    /// is known already. It must be quick and must not block.
    ///
    /// Cheaper than awaiting ``value()`` in a task of its own: the answer goes out without a
    /// trip through Swift's thread pool between the disk and the reply.
    public func whenSettled(_ answer: @escaping @Sendable (Result<Receipt, CourtsideError>) -> Void) {
        switch source {
        case .settled(let result): answer(result)
        case .ticket(let ticket): ticket.whenSettled(answer)
        }
    }
}
