public import Foundation
import GRDB

/// A device the store let go without the organiser asking, as the desk's codes page and
/// `courtside-web codes devices` list it: a court that fills up, or a device unused, unseen or
/// revoked for too long (``GatewayStore/Limits``).
public struct DeviceExpiry: Sendable, Equatable {
    /// Why a device went; its `rawValue` is a stable code (for logs and metrics).
    public struct Reason: Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// A join found the court at its most devices, and this one was its least worth keeping.
        public static let courtFull = Reason("court_full")
        /// It never sent a command, and went unseen for ``GatewayStore/Limits/unusedDevice``.
        public static let unused = Reason("unused")
        /// Unseen for ``GatewayStore/Limits/unseenDevice``.
        public static let unseen = Reason("unseen")
        /// Revoked, and unseen for ``GatewayStore/Limits/revokedDevice``.
        public static let revoked = Reason("revoked")
        public static let all: [Reason] = [.courtFull, .unused, .unseen, .revoked]

        /// The reason stored as `rawValue`, or nil for one this version does not know.
        public init?(rawValue: String) {
            guard let known = Self.all.first(where: { $0.rawValue == rawValue }) else { return nil }
            self = known
        }

        /// In words, for the organiser.
        public var description: String {
            switch rawValue {
            case Self.courtFull.rawValue: "the court had its most devices"
            case Self.unused.rawValue: "never used"
            case Self.unseen.rawValue: "not seen for long"
            default: "revoked"
            }
        }
    }

    public var court: String
    /// Its name, the client id its commands went under.
    public var name: String
    public var joinedAt: Date
    public var lastSeen: Date
    public var commanded: Bool
    public var expiredAt: Date
    public var reason: Reason

    public init(
        court: String, name: String, joinedAt: Date, lastSeen: Date, commanded: Bool, expiredAt: Date, reason: Reason
    ) {
        self.court = court
        self.name = name
        self.joinedAt = joinedAt
        self.lastSeen = lastSeen
        self.commanded = commanded
        self.expiredAt = expiredAt
        self.reason = reason
    }
}

extension GatewayStore {
    /// The last devices that expired on a court (every court when nil), newest first: the log
    /// keeps ``Limits/expiriesPerCourt`` a court, and ``stats()`` counts them all.
    public func recentExpiries(court: String? = nil, limit: Int = 20) async throws -> [DeviceExpiry] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT court, name, joined_at, last_seen, commanded, expired_at, reason FROM device_expiries
                    WHERE ?1 IS NULL OR court = ?1 ORDER BY id DESC LIMIT ?2
                    """, arguments: [court, max(0, limit)]
            ).map { row in
                DeviceExpiry(
                    court: row["court"], name: row["name"], joinedAt: Date(timeIntervalSince1970: row["joined_at"]),
                    lastSeen: Date(timeIntervalSince1970: row["last_seen"]), commanded: row["commanded"],
                    expiredAt: Date(timeIntervalSince1970: row["expired_at"]),
                    reason: DeviceExpiry.Reason(rawValue: row["reason"]) ?? .unseen)
            }
        }
    }

    /// Deletes the devices of `rows` (`id, court, name, joined_at, last_seen, commanded, reason`)
    /// with their sessions (the trigger of v3), logs each, and keeps each court's log bounded.
    static func expire(_ rows: [Row], now: Date, limits: Limits, in db: Database) throws {
        guard !rows.isEmpty else { return }
        var courts = Set<String>()
        var counts: [String: Int] = [:]
        for row in rows {
            let court: String = row["court"]
            let reason: String = row["reason"]
            courts.insert(court)
            counts[reason, default: 0] += 1
            try db.execute(sql: "DELETE FROM devices WHERE id = ?", arguments: [row["id"] as String])
            try db.execute(
                sql: """
                    INSERT INTO device_expiries (court, name, joined_at, last_seen, commanded, expired_at, reason)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    court, row["name"] as String, row["joined_at"] as Double, row["last_seen"] as Double,
                    row["commanded"] as Bool, now.timeIntervalSince1970, reason,
                ])
        }
        for (reason, count) in counts {
            try db.execute(
                sql: "INSERT INTO counters (name, value) VALUES (?1, ?2) ON CONFLICT(name) DO UPDATE SET value = value + ?2",
                arguments: ["expired.\(reason)", count])
        }
        for court in courts {
            try db.execute(
                sql: """
                    DELETE FROM device_expiries WHERE court = ?1 AND id <= (
                        SELECT id FROM device_expiries WHERE court = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)
                    """, arguments: [court, limits.expiriesPerCourt])
        }
    }
}
