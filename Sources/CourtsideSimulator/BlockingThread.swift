import Foundation
import Synchronization

/// A thread whose typed result can be waited for. Keepers block on ZeroMQ, so they get threads
/// of their own rather than Swift's cooperative pool.
public final class BlockingThread<Value: Sendable, Failure: Error>: Sendable {
    private let result = Mutex<Result<Value, Failure>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Starts `body` on a new thread.
    public init(_ body: @escaping @Sendable () throws(Failure) -> Value) {
        Thread { [self] in
            let outcome: Result<Value, Failure>
            do throws(Failure) {
                outcome = .success(try body())
            } catch {
                outcome = .failure(error)
            }
            result.withLock { $0 = outcome }
            done.signal()
        }.start()
    }

    /// Blocks until the body has returned or thrown.
    public func wait() -> Result<Value, Failure> {
        done.wait()
        return result.withLock { $0! }
    }
}
