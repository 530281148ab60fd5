import CourtsideModel
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
