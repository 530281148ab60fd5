import Foundation
import GRDB
public import Hummingbird

/// Hummingbird's key-value store for sessions, kept in the gateway's SQLite file so that
/// sessions survive a restart (Hummingbird's own driver keeps them in memory). Values are
/// stored as JSON; an expired one reads as absent and is deleted when next met. A value with a
/// `device` (a keeper's session) files it in the row's `device` column, so the session goes with
/// its device.
public struct SQLitePersistDriver: PersistDriver {
    let store: GatewayStore

    public init(_ store: GatewayStore) { self.store = store }

    public func create<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        let data = try JSONEncoder().encode(value)
        try await store.database.write { db in
            try Self.deleteIfExpired(key, in: db)
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sessions WHERE key = ?)", arguments: [key]) != true
            else { throw PersistError.duplicate }
            try db.execute(
                sql: "INSERT INTO sessions (key, value, expires_at, device) VALUES (?, ?, ?, ?)",
                arguments: [key, data, expires.map(Self.expiry), Self.device(in: data)])
        }
    }

    public func set<Object: Codable & Sendable>(key: String, value: Object, expires: Duration?) async throws {
        let data = try JSONEncoder().encode(value)
        try await store.database.write { db in
            // No new expiry keeps the old one, as the protocol asks.
            try db.execute(
                sql: """
                    INSERT INTO sessions (key, value, expires_at, device) VALUES (?1, ?2, ?3, ?4)
                    ON CONFLICT(key) DO UPDATE SET value = ?2, expires_at = COALESCE(?3, expires_at), device = ?4
                    """, arguments: [key, data, expires.map(Self.expiry), Self.device(in: data)])
        }
    }

    public func get<Object: Codable & Sendable>(key: String, as object: Object.Type) async throws -> Object? {
        try await getWithTTL(key: key, as: object)?.object
    }

    public func getWithTTL<Object: Codable & Sendable>(key: String, as object: Object.Type) async throws -> (
        object: Object, ttl: Duration?
    )? {
        // A read: every keeper request loads its session, and expired rows go at the next join.
        let now = Date().timeIntervalSince1970
        let row = try await store.database.read { db -> (Data, Double?)? in
            try Row.fetchOne(
                db, sql: "SELECT value, expires_at FROM sessions WHERE key = ? AND (expires_at IS NULL OR expires_at > ?)",
                arguments: [key, now]
            ).map { ($0["value"], $0["expires_at"]) }
        }
        guard let (data, expiresAt) = row else { return nil }
        guard let value = try? JSONDecoder().decode(Object.self, from: data) else { throw PersistError.invalidConversion }
        return (value, expiresAt.map { .seconds($0 - Date().timeIntervalSince1970) })
    }

    public func remove(key: String) async throws {
        try await store.database.write { db in try db.execute(sql: "DELETE FROM sessions WHERE key = ?", arguments: [key]) }
    }

    /// The value's `device` if it is a JSON object with that string (a keeper's session), read
    /// here rather than with SQLite's JSON functions: newer SQLite reads a BLOB as JSONB.
    static func device(in value: Data) -> String? {
        struct DeviceField: Decodable { var device: String }
        return try? JSONDecoder().decode(DeviceField.self, from: value).device
    }

    private static func expiry(_ duration: Duration) -> Double {
        Date().timeIntervalSince1970 + Double(duration.components.seconds)
    }

    private static func deleteIfExpired(_ key: String, in db: Database) throws {
        try db.execute(
            sql: "DELETE FROM sessions WHERE key = ? AND expires_at <= ?", arguments: [key, Date().timeIntervalSince1970])
    }
}
