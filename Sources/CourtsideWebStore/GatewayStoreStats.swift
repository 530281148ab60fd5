import Foundation
import GRDB

/// The store's size, for `/metrics`: a few counts and pragmas, cheap enough for every scrape.
public struct GatewayStoreStats: Sendable, Equatable {
    /// The database's bytes (its pages, as SQLite counts them), with a write-ahead log's if any.
    public var fileBytes: Int
    public var devices: Int
    /// Every session row: the keepers' and the desk's.
    public var sessions: Int
    /// Devices by court name (courts with none are absent).
    public var devicesByCourt: [String: Int]
    /// Device names given since the store was made: one a new device, so its rate is the rate of
    /// joins. A store from before numbering starts at the highest number its names then ended with.
    public var devicesNamed: Int
    /// Devices expired since the store was made, by reason (all of ``DeviceExpiry/Reason/all``).
    public var expiredDevices: [DeviceExpiry.Reason: Int]

    public init(
        fileBytes: Int, devices: Int, sessions: Int, devicesByCourt: [String: Int], devicesNamed: Int,
        expiredDevices: [DeviceExpiry.Reason: Int]
    ) {
        self.fileBytes = fileBytes
        self.devices = devices
        self.sessions = sessions
        self.devicesByCourt = devicesByCourt
        self.devicesNamed = devicesNamed
        self.expiredDevices = expiredDevices
    }
}

extension GatewayStore {
    /// The store's size now: one read of counts over bounded tables.
    public func stats() async throws -> GatewayStoreStats {
        let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        return try await database.read { db in
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let byCourt = try Row.fetchAll(db, sql: "SELECT court, COUNT(*) AS n FROM devices GROUP BY court")
            let counters = try Row.fetchAll(db, sql: "SELECT name, value FROM counters")
            let counter = { (name: String) in counters.first { $0["name"] == name }.map { $0["value"] as Int } ?? 0 }
            return GatewayStoreStats(
                fileBytes: pages * pageSize + wal,
                devices: byCourt.reduce(0) { $0 + ($1["n"] as Int) },
                sessions: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sessions") ?? 0,
                devicesByCourt: Dictionary(uniqueKeysWithValues: byCourt.map { ($0["court"], $0["n"]) }),
                devicesNamed: counter("device"),
                expiredDevices: Dictionary(
                    uniqueKeysWithValues: DeviceExpiry.Reason.all.map { ($0, counter("expired.\($0.rawValue)")) }))
        }
    }
}
