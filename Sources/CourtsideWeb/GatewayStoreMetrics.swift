public import CourtsideWebStore
import Metrics

/// The gateway store's size in `/metrics`, read at each scrape: its bytes, devices and sessions,
/// and the devices expired by reason, so that a flood of joins shows as it happens.
public struct GatewayStoreMetrics: Sendable {
    private let store: GatewayStore
    private let bytes = Gauge(label: "courtside_web_store_bytes")
    private let devices = Gauge(label: "courtside_web_store_devices")
    private let sessions = Gauge(label: "courtside_web_store_sessions")
    private let named = Gauge(label: "courtside_web_store_devices_named")
    /// One gauge a reason, made once: the reasons are fixed.
    private let expired = Dictionary(
        uniqueKeysWithValues: DeviceExpiry.Reason.all.map {
            ($0, Gauge(label: "courtside_web_store_devices_expired", dimensions: [("reason", $0.rawValue)]))
        })

    public init(_ store: GatewayStore) { self.store = store }

    /// Reads the store's figures into the gauges; a store that cannot be read leaves them as they were.
    public func record() async {
        guard let stats = try? await store.stats() else { return }
        bytes.record(stats.fileBytes)
        devices.record(stats.devices)
        sessions.record(stats.sessions)
        named.record(stats.devicesNamed)
        for (reason, count) in stats.expiredDevices { expired[reason]?.record(count) }
    }
}
