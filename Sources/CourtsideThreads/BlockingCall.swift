/// Runs `body`, which blocks (on a database's reply, say), on a new thread named `name`, and
/// waits for it without holding one of Swift's few cooperative threads meanwhile.
package func blockingCall<T: Sendable>(named name: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        startThread(named: name) { continuation.resume(with: Result { try body() }) }
    }
}
