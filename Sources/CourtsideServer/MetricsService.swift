import CourtsideLibrary
import CourtsideModel
import Hummingbird
import Logging
import Metrics
public import Prometheus
import ServiceLifecycle

/// Where courtsided serves `/metrics` (Prometheus text format), when asked to.
public struct MetricsEndpoint: Sendable {
    public var host: String
    public var port: Int
    /// The registry that `MetricsSystem` was bootstrapped with.
    public var registry: PrometheusCollectorRegistry

    public init(host: String, port: Int, registry: PrometheusCollectorRegistry) {
        self.host = host
        self.port = port
        self.registry = registry
    }
}

/// Serves `/metrics` over HTTP, and keeps the gauges that are states rather than events (games
/// by status, the current sequence) up to date once a second.
struct MetricsService: Service {
    let endpoint: MetricsEndpoint
    let library: GameLibrary
    let logger: Logger

    func run() async throws {
        let router = Router()
        let registry = endpoint.registry
        router.get("/metrics") { _, _ -> Response in
            var buffer: [UInt8] = []
            registry.emit(into: &buffer)
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: buffer)))
        }
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(endpoint.host, port: endpoint.port), serverName: "courtsided"),
            logger: logger)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { try await app.run() }
            group.addTask {
                while !Task.isShuttingDownGracefully, !Task.isCancelled {
                    updateGauges()
                    try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(1)) }
                }
            }
        }
    }

    private func updateGauges() {
        let counts = library.statusCounts()
        for status in GameStatus.allCases {
            Gauge(label: "courtside_games", dimensions: [("status", status.rawValue)]).record(counts.value[status] ?? 0)
        }
        Gauge(label: "courtside_sequence").record(counts.sequence)
        Gauge(label: "courtside_retry_answers").record(library.rememberedAnswers)
    }
}
