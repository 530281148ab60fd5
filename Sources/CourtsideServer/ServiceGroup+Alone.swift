import Logging
import ServiceLifecycle
import UnixSignals

extension ServiceGroup {
    /// Runs `service` in a group of its own, named `name`, until it ends (which shuts the group
    /// down) or `signals` or the enclosing group ask for a graceful shutdown.
    static func run(alone service: some Service, named name: String, signals: [UnixSignal] = [], logger: Logger)
        async throws
    {
        try await ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(
                        service: service, successTerminationBehavior: .gracefullyShutdownGroup,
                        failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: name)
                ], gracefulShutdownSignals: signals, logger: logger)
        ).run()
    }
}
