public import CourtsideModel
import Synchronization

/// A one-shot result that many tasks may await: the outcome of committing one command's events.
///
/// Retries of a command await the same ticket as the original, so they get the same answer.
final class CommitTicket: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Result<Receipt, CourtsideError>, Never>])
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

    func complete(_ result: Result<Receipt, CourtsideError>) {
        let waiters: [CheckedContinuation<Result<Receipt, CourtsideError>, Never>] = state.withLock { state in
            guard case .waiting(let waiters) = state else { return [] }
            state = .done(result)
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: result) }
    }

    func wait() async throws(CourtsideError) -> Receipt {
        let result = await withCheckedContinuation { continuation in
            let settled: Result<Receipt, CourtsideError>? = state.withLock { state in
                switch state {
                case .done(let result): return result
                case .waiting(var waiters):
                    waiters.append(continuation)
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
}
