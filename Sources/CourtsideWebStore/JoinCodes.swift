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
    ///
    /// A new device is numbered (``JoinCode/deviceName(_:number:)``), so its name never clashes;
    /// a court at ``Limits/devicesPerCourt`` lets its least useful devices go first (see
    /// ``recentExpiries(court:limit:)``). It throws only when the file cannot be read or written.
    public func join(token: String? = nil, pin: String? = nil, name: String?, install: String? = nil, now: Date = Date())
        async throws -> KeeperDevice?
    {
        let limits = limits
        return try await database.write { db in
            try Self.purge(db, now: now, limits: limits)
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
            let court: String = row["court"]
            // A browser that joins again takes over its row, with its name and whether it was
            // used; its old sessions end with it (the trigger of v3).
            let known = try install.flatMap {
                try Row.fetchOne(db, sql: "SELECT id, name, commanded FROM devices WHERE install = ?", arguments: [$0])
            }
            if let known {
                try db.execute(sql: "DELETE FROM devices WHERE id = ?", arguments: [known["id"] as String])
            }
            try Self.makeRoom(on: court, now: now, limits: limits, in: db)
            let device = KeeperDevice(
                id: JoinCode.randomToken(bytes: 12), court: court, generation: row["generation"],
                name: try known?["name"] ?? Self.newName(name, in: db), joinedAt: now, lastSeen: now,
                commanded: known?["commanded"] ?? false)
            try db.execute(
                sql: """
                    INSERT INTO devices (id, court, generation, name, joined_at, last_seen, install, commanded)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    device.id, device.court, device.generation, device.name, now.timeIntervalSince1970, now.timeIntervalSince1970,
                    install, device.commanded,
                ])
            return device
        }
    }

    /// A name no device has had: the counter only grows, whatever is deleted. The check is for
    /// names of v2 (a random suffix) whose number the migration could not see.
    private static func newName(_ requested: String?, in db: Database) throws -> String {
        while true {
            try db.execute(
                sql: "INSERT INTO counters (name, value) VALUES ('device', 1) ON CONFLICT(name) DO UPDATE SET value = value + 1")
            let number = try Int.fetchOne(db, sql: "SELECT value FROM counters WHERE name = 'device'") ?? 1
            let name = JoinCode.deviceName(requested, number: number)
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM devices WHERE name = ?)", arguments: [name]) != true {
                return name
            }
        }
    }

    /// Expires the court's devices beyond `devicesPerCourt - 1`, so that one more fits: the
    /// revoked first, then those that never sent a command, then the least recently seen.
    private static func makeRoom(on court: String, now: Date, limits: Limits, in db: Database) throws {
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM devices WHERE court = ?", arguments: [court]) ?? 0
        let excess = count - limits.devicesPerCourt + 1
        guard excess > 0 else { return }
        let victims = try Row.fetchAll(
            db,
            sql: """
                SELECT d.id, d.court, d.name, d.joined_at, d.last_seen, d.commanded, ?2 AS reason
                FROM devices d LEFT JOIN join_codes c ON c.court = d.court WHERE d.court = ?1
                ORDER BY d.generation = COALESCE(c.generation, -1), d.commanded, d.last_seen, d.joined_at LIMIT ?3
                """, arguments: [court, DeviceExpiry.Reason.courtFull.rawValue, excess])
        try expire(victims, now: now, limits: limits, in: db)
    }

    /// Notes that the device sent a command (the gateway calls it as it relays one), so that it
    /// is kept before unused ones. The caller calls it only while the ``KeeperDevice`` in hand
    /// says not `commanded`, so once a device; one conditional update. True when this call
    /// noted it.
    @discardableResult
    public func markCommanded(device id: String) async throws -> Bool {
        let before = sessionStandings.counter()
        let noted = try await database.write { db in
            try db.execute(sql: "UPDATE devices SET commanded = 1 WHERE id = ? AND commanded = 0", arguments: [id])
            return db.changesCount > 0
        }
        // Only a write that changed a row moved the counter itself; after one that changed
        // nothing, a step of one is another write's (a device revoked, say).
        if noted, let before, let after = sessionStandings.counter() {
            sessionStandings.advance(from: before, to: after, device: id) { $0.commanded = true }
        }
        return noted
    }

    /// What a device's session may do now.
    public enum Standing: Sendable, Equatable {
        case joined(KeeperDevice)
        /// Its court has a newer code since it joined.
        case revoked(court: String)
        /// The organiser revoked this device alone (a lost phone); the court's code still stands.
        case revokedAlone(court: String)
        /// No such device: a forged or forgotten session.
        case unknown
    }

    /// Whether the device may keep score, noting that it was seen.
    public func standing(ofDevice id: String, now: Date = Date()) async throws -> Standing {
        // A read first: most requests come within seconds of the last, and need no write.
        let standing = try await database.read { db in
            try Self.standing(
                Row.fetchOne(
                    db,
                    sql: """
                        SELECT d.id, d.court, d.generation, d.name, d.joined_at, d.last_seen, d.commanded, c.generation AS current
                        FROM devices d LEFT JOIN join_codes c ON c.court = d.court WHERE d.id = ?
                        """, arguments: [id]))
        }
        return try await seen(standing, now: now)
    }

    /// Whether the device that a keeper's session stands for may keep score, noting that it was
    /// seen; nil when no such session is current (never saved, expired or removed). `key` is the
    /// session's key in the store (``SQLitePersistDriver``). The session and its device are read
    /// at once, in one read (the session's row names its device): a keeper's every command is
    /// checked, and two reads were two trips to the store's queue on the way to the daemon.
    /// A joined device's session is answered without the store's queue while the file is unchanged
    /// since it was read (``SessionStandings``) and the device was seen less than 10 s before.
    public func standing(ofSession key: String, now: Date = Date()) async throws -> Standing? {
        // The counter before the read: a write after it leaves the entry behind the file, never ahead.
        let counter = sessionStandings.counter()
        if let counter, let device = sessionStandings.device(ofSession: key, now: now, counter: counter),
            now.timeIntervalSince(device.lastSeen) < Self.seenInterval
        {
            return .joined(device)
        }
        let found = try await database.read { db -> (standing: Standing, expiresAt: Double?)? in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT s.device AS session_device, s.expires_at, d.id, d.court, d.generation, d.name, d.joined_at,
                            d.last_seen, d.commanded, c.generation AS current
                        FROM sessions s LEFT JOIN devices d ON d.id = s.device LEFT JOIN join_codes c ON c.court = d.court
                        WHERE s.key = ? AND (s.expires_at IS NULL OR s.expires_at > ?)
                        """, arguments: [key, now.timeIntervalSince1970])
            else { return nil }
            // A session that names no device is not a keeper's.
            guard row["session_device"] as String? != nil else { return nil }
            return (try Self.standing(row["id"] as String? == nil ? nil : row), row["expires_at"])
        }
        guard let found else { return nil }
        if let counter, case .joined(let device) = found.standing {
            sessionStandings.remember(device, ofSession: key, expiresAt: found.expiresAt, counter: counter)
        }
        return try await seen(found.standing, now: now)
    }

    /// How long after a device was last noted as seen a request notes it again.
    static let seenInterval: TimeInterval = 10

    /// `standing`, after noting that a joined device was seen: a write only when it was last seen
    /// ``seenInterval`` ago or more, since most requests come within seconds of the last.
    private func seen(_ standing: Standing, now: Date) async throws -> Standing {
        guard case .joined(let device) = standing, now.timeIntervalSince(device.lastSeen) >= Self.seenInterval else {
            return standing
        }
        let before = sessionStandings.counter()
        let noted = try await database.write { db in
            try db.execute(
                sql: "UPDATE devices SET last_seen = ? WHERE id = ?", arguments: [now.timeIntervalSince1970, device.id])
            return db.changesCount > 0
        }
        if noted, let before, let after = sessionStandings.counter() {
            sessionStandings.advance(from: before, to: after, device: device.id) { $0.lastSeen = now }
        }
        return standing
    }

    /// The standing a device's row gives (its columns, and `current`, its court's code generation).
    private static func standing(_ row: Row?) throws -> Standing {
        guard let row else { return .unknown }
        let device = Self.device(row)
        if row["current"] as Int? == device.generation { return .joined(device) }
        // A device revoked alone has generation 0, which no code has.
        return device.generation == 0 ? .revokedAlone(court: device.court) : .revoked(court: device.court)
    }

    /// Forgets expired sessions, and devices revoked, unused or unseen for too long (``Limits``),
    /// with their sessions: run at each join, so the file stays the size of a tournament's
    /// devices however many links are opened. Devices go by last sighting, not by join: a
    /// volunteer's page left open on a court is seen at each session check.
    static func purge(_ db: Database, now: Date, limits: Limits) throws {
        let time = now.timeIntervalSince1970
        try db.execute(sql: "DELETE FROM sessions WHERE expires_at <= ?", arguments: [time])
        // A session saved just after its device went (a join, then a court full before the
        // session was written) stands for nobody.
        try db.execute(
            sql: "DELETE FROM sessions WHERE device IS NOT NULL AND NOT EXISTS (SELECT 1 FROM devices WHERE id = sessions.device)"
        )
        let victims = try Row.fetchAll(
            db,
            sql: """
                SELECT * FROM (
                    SELECT d.id, d.court, d.name, d.joined_at, d.last_seen, d.commanded, CASE
                        WHEN d.generation != COALESCE(c.generation, -1) AND d.last_seen < ?1 - ?2 THEN 'revoked'
                        WHEN d.commanded = 0 AND d.last_seen < ?1 - ?3 THEN 'unused'
                        WHEN d.last_seen < ?1 - ?4 THEN 'unseen' END AS reason
                    FROM devices d LEFT JOIN join_codes c ON c.court = d.court)
                WHERE reason IS NOT NULL ORDER BY last_seen
                """,
            arguments: [
                time, limits.revokedDevice.storeSeconds, limits.unusedDevice.storeSeconds, limits.unseenDevice.storeSeconds,
            ])
        try expire(victims, now: now, limits: limits, in: db)
    }

    /// The devices of a court (every court when nil), newest first, revoked ones included; those
    /// that expired are in ``recentExpiries(court:limit:)``.
    public func devices(court: String? = nil) async throws -> [(device: KeeperDevice, revoked: Bool)] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT d.id, d.court, d.generation, d.name, d.joined_at, d.last_seen, d.commanded, c.generation AS current
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
            joinedAt: Date(timeIntervalSince1970: row["joined_at"]), lastSeen: Date(timeIntervalSince1970: row["last_seen"]),
            commanded: row["commanded"])
    }
}
