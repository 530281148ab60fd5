public import Foundation
import GRDB

/// courtside-web's own state, in one SQLite file beside it (`courtside-web.sqlite` in its state
/// directory): each court's join code, the devices that joined, and the browsers' sessions, so
/// that a restart of the gateway logs no volunteer out.
///
/// Nothing here is the tournament's record (that is the daemon's log): losing the file costs
/// every device a new join, no score. Its size is bounded by ``Limits``, however many joins come.
public final class GatewayStore: Sendable {
    let database: DatabaseQueue
    public let path: String
    /// How many devices it keeps, and for how long.
    public let limits: Limits
    /// Keepers' sessions as last read, while the file is unchanged.
    let sessionStandings: SessionStandings

    /// Opens (or creates) the store in `directory`, which is created if need be.
    public init(directory: URL, limits: Limits = Limits()) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("courtside-web.sqlite").path
        self.limits = limits
        var configuration = Configuration()
        // Several processes share the file: the gateway, and `courtside-web codes` beside it.
        configuration.busyMode = .timeout(5)
        database = try DatabaseQueue(path: path, configuration: configuration)
        try Self.migrator.migrate(database)
        let journal = try database.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        sessionStandings = SessionStandings(path: path, rollbackJournal: journal?.lowercased() != "wal")
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE join_codes (
                        court TEXT PRIMARY KEY, generation INTEGER NOT NULL, token TEXT NOT NULL UNIQUE,
                        pin TEXT NOT NULL UNIQUE, created_at DOUBLE NOT NULL);
                    CREATE TABLE devices (
                        id TEXT PRIMARY KEY, court TEXT NOT NULL, generation INTEGER NOT NULL, name TEXT NOT NULL UNIQUE,
                        joined_at DOUBLE NOT NULL, last_seen DOUBLE NOT NULL);
                    CREATE INDEX devices_by_court ON devices(court);
                    CREATE TABLE sessions (key TEXT PRIMARY KEY, value BLOB NOT NULL, expires_at DOUBLE);
                    """)
        }
        migrator.registerMigration("v2: a browser's install id, so a device that joins again keeps its name") { db in
            try db.execute(
                sql: """
                    ALTER TABLE devices ADD COLUMN install TEXT;
                    CREATE UNIQUE INDEX devices_by_install ON devices(install) WHERE install IS NOT NULL;
                    CREATE INDEX sessions_by_expiry ON sessions(expires_at);
                    """)
        }
        migrator.registerMigration("v3: devices numbered, bounded per court and expired in a log; sessions go with their device")
        {
            db in try migrateV3(db)
        }
        return migrator
    }

    /// `counters` holds the number the next device name takes (and the expiries by reason);
    /// `sessions.device` names the device a keeper's session stands for, so that deleting the
    /// device (a trigger) deletes its sessions; `device_expiries` is what the organiser reads.
    private static func migrateV3(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE devices ADD COLUMN commanded INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
                ALTER TABLE sessions ADD COLUMN device TEXT;
                CREATE INDEX sessions_by_device ON sessions(device) WHERE device IS NOT NULL;
                CREATE TABLE device_expiries (
                    id INTEGER PRIMARY KEY AUTOINCREMENT, court TEXT NOT NULL, name TEXT NOT NULL,
                    joined_at DOUBLE NOT NULL, last_seen DOUBLE NOT NULL, commanded INTEGER NOT NULL,
                    expired_at DOUBLE NOT NULL, reason TEXT NOT NULL);
                CREATE INDEX device_expiries_by_court ON device_expiries(court, id);
                CREATE TRIGGER devices_take_their_sessions AFTER DELETE ON devices
                    BEGIN DELETE FROM sessions WHERE device = OLD.id; END;
                """)
        // Whether a device of v2 ever sent a command is unknown: one seen again after joining
        // counts as used, so the purge of unused devices spares the volunteers of a running
        // tournament and takes the joins nobody came back to (a flood's).
        try db.execute(sql: "UPDATE devices SET commanded = 1 WHERE last_seen > joined_at")
        // The numbers start above any that v2's random suffixes (4 characters) happen to spell.
        let taken = try String.fetchAll(db, sql: "SELECT name FROM devices").compactMap(Self.number(in:)).max() ?? 0
        try db.execute(sql: "INSERT INTO counters (name, value) VALUES ('device', ?)", arguments: [taken])
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM sessions") {
            let value: Data = row["value"]
            guard let device = SQLitePersistDriver.device(in: value) else { continue }
            try db.execute(sql: "UPDATE sessions SET device = ? WHERE key = ?", arguments: [device, row["key"] as String])
        }
        try db.execute(
            sql: "DELETE FROM sessions WHERE device IS NOT NULL AND NOT EXISTS (SELECT 1 FROM devices WHERE id = sessions.device)"
        )
    }

    /// The number a device name ends with (`ann-s-phone-17`: 17), if it ends with one.
    static func number(in name: String) -> Int? {
        guard let dash = name.lastIndex(of: "-") else { return nil }
        let digits = name[name.index(after: dash)...]
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }
}
