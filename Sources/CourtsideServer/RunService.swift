import ServiceLifecycle

/// A service whose run is a closure: for a body that reads best where it is written.
struct RunService: Service {
    let body: @Sendable () async throws -> Void

    init(_ body: @escaping @Sendable () async throws -> Void) {
        self.body = body
    }

    func run() async throws { try await body() }
}
