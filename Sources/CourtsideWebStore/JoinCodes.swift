public import Foundation
import GRDB

/// Join codes and the devices that joined with them.
extension GatewayStore {
    /// Every court's current code, by court name.
    public func codes() async throws -> [JoinCode] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT court, generation, token, pin FROM join_codes ORDER BY court").map(Self.code)
        }
    }

    /// The court's current code, made first if it has none.
    public func code(for court: String) async throws -> JoinCode {
        try await database.write { db in
            if let row = try Row.fetchOne(
                db, sql: "SELECT court, generation, token, pin FROM join_codes WHERE court = ?", arguments: [court])
            {
                return Self.code(row)
            }
            return try Self.store(Self.fresh(court: court, generation: 1, in: db), in: db)
        }
    }

    /// A new code for the court: every device that joined with the old one is revoked at its
    /// next request.
    @discardableResult
    public func renewCode(for court: String) async throws -> JoinCode {
        try await database.write { db in try Self.renew(court, in: db) }
    }

    /// A new code for the court if its current one is still code `generation` (0: it has none
    /// yet), or nil when another came first: an organiser who confirms twice renews it once.
    public func renewCode(for court: String, replacing generation: Int) async throws -> JoinCode? {
        try await database.write { db in
            try Self.generation(of: court, in: db) == generation ? try Self.renew(court, in: db) : nil
        }
    }

    private static func generation(of court: String, in db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT generation FROM join_codes WHERE court = ?", arguments: [court]) ?? 0
    }

    private static func renew(_ court: String, in db: Database) throws -> JoinCode {
        try store(fresh(court: court, generation: generation(of: court, in: db) + 1, in: db), in: db)
    }

    /// The device joining with a link's token or a typed PIN, or nil when neither is a court's
    /// current one. `name` is what the volunteer called it ("Ann's phone"), or nil. `install`
    /// names the browser (a long-lived cookie of its own): a browser that joins again keeps its
    /// device name, so the commands it still has queued keep their client id and a retry of one
    /// already applied is still recognised by the daemon.
    public func join(token: String? = nil, pin: String? = nil, name: String?, install: String? = nil, now: Date = Date())
        async throws -> KeeperDevice?
    {
        try await database.write { db in
            try Self.purge(db, now: now)
            let row: Row?
            if let token {
                row = try Row.fetchOne(db, sql: "SELECT court, generation FROM join_codes WHERE token = ?", arguments: [token])
            } else if let pin {
                row = try Row.fetchOne(
                    db, sql: "SELECT court, generation FROM join_codes WHERE pin = ?",
                    arguments: [JoinCode.normalizedPIN(pin)])
            } else {
                row = nil
            }
            guard let row else { return nil }
            let id = JoinCode.randomToken(bytes: 12)
            let known = try install.flatMap {
                try String.fetchOne(db, sql: "SELECT name FROM devices WHERE install = ?", arguments: [$0])
            }
            // Unique however many devices share a name: the id's first characters follow it.
            let device = KeeperDevice(
                id: id, court: row["court"], generation: row["generation"],
                name: known ?? "\(JoinCode.slug(name ?? "device"))-\(id.prefix(4).lowercased())", joinedAt: now, lastSeen: now)
            // A browser that joins again takes over its row: its old sessions end with it.
            try db.execute(sql: "DELETE FROM devices WHERE install = ?", arguments: [install])
            try db.execute(
                sql:
                    "INSERT INTO devices (id, court, generation, name, joined_at, last_seen, install) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [
                    device.id, device.court, device.generation, device.name, now.timeIntervalSince1970, now.timeIntervalSince1970,
                    install,
                ])
            return device
        }
    }

    /// What a device's session may do now.
    public enum Standing: Sendable, Equatable {
        case joined(KeeperDevice)
        /// Its court has a newer code, or the device was revoked one by one.
        case revoked(court: String)
        /// No such device: a forged or forgotten session.
        case unknown
    }

    /// Whether the device may keep score, noting that it was seen.
    public func standing(ofDevice id: String, now: Date = Date()) async throws -> Standing {
        // A read first: most requests come within seconds of the last, and need no write.
        let standing = try await database.read { db in try Self.standing(ofDevice: id, in: db) }
        guard case .joined(let device) = standing, now.timeIntervalSince(device.lastSeen) >= 10 else { return standing }
        try await database.write { db in
            try db.execute(sql: "UPDATE devices SET last_seen = ? WHERE id = ?", arguments: [now.timeIntervalSince1970, id])
        }
        return standing
    }

    private static func standing(ofDevice id: String, in db: Database) throws -> Standing {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT d.id, d.court, d.generation, d.name, d.joined_at, d.last_seen, c.generation AS current
                    FROM devices d LEFT JOIN join_codes c ON c.court = d.court WHERE d.id = ?
                    """, arguments: [id])
        else { return .unknown }
        let device = Self.device(row)
        return row["current"] as Int? == device.generation ? .joined(device) : .revoked(court: device.court)
    }

    /// Forgets expired sessions, and devices revoked or unseen for a week: run at each join, so
    /// the file stays the size of a tournament's devices however many links are opened.
    static func purge(_ db: Database, now: Date) throws {
        let time = now.timeIntervalSince1970
        try db.execute(sql: "DELETE FROM sessions WHERE expires_at <= ?", arguments: [time])
        try db.execute(
            sql: """
                DELETE FROM devices WHERE last_seen < ?1 - 604800 OR (generation != COALESCE(
                    (SELECT generation FROM join_codes c WHERE c.court = devices.court), -1) AND last_seen < ?1 - 86400)
                """, arguments: [time])
    }

    /// The devices of a court (every court when nil), newest first, revoked ones included.
    public func devices(court: String? = nil) async throws -> [(device: KeeperDevice, revoked: Bool)] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT d.id, d.court, d.generation, d.name, d.joined_at, d.last_seen, c.generation AS current
                    FROM devices d LEFT JOIN join_codes c ON c.court = d.court
                    WHERE ?1 IS NULL OR d.court = ?1 ORDER BY d.joined_at DESC
                    """, arguments: [court]
            ).map { (Self.device($0), $0["current"] as Int? != $0["generation"] as Int) }
        }
    }

    /// Revokes one device (lost phone): its generation is set below any court's.
    public func revoke(device id: String) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "UPDATE devices SET generation = 0 WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    /// A new code whose PIN and token no other court has (a clash is rare, but would let one
    /// court's PIN join another).
    private static func fresh(court: String, generation: Int, in db: Database) throws -> JoinCode {
        while true {
            let code = JoinCode.make(court: court, generation: generation)
            let taken = try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM join_codes WHERE (pin = ? OR token = ?) AND court != ?)",
                arguments: [code.pin, code.token, court])
            if taken != true { return code }
        }
    }

    private static func store(_ code: JoinCode, in db: Database) throws -> JoinCode {
        try db.execute(
            sql: """
                INSERT INTO join_codes (court, generation, token, pin, created_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(court) DO UPDATE SET generation = excluded.generation, token = excluded.token,
                    pin = excluded.pin, created_at = excluded.created_at
                """,
            arguments: [code.court, code.generation, code.token, code.pin, Date().timeIntervalSince1970])
        return code
    }

    private static func code(_ row: Row) -> JoinCode {
        JoinCode(court: row["court"], generation: row["generation"], token: row["token"], pin: row["pin"])
    }

    private static func device(_ row: Row) -> KeeperDevice {
        KeeperDevice(
            id: row["id"], court: row["court"], generation: row["generation"], name: row["name"],
            joinedAt: Date(timeIntervalSince1970: row["joined_at"]), lastSeen: Date(timeIntervalSince1970: row["last_seen"]))
    }
}
