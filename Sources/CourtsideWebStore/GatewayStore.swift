public import Foundation
import GRDB

/// courtside-web's own state, in one SQLite file beside it (`courtside-web.sqlite` in its state
/// directory): each court's join code, the devices that joined, and the browsers' sessions, so
/// that a restart of the gateway logs no volunteer out.
///
/// Nothing here is the tournament's record (that is the daemon's log): losing the file costs
/// every device a new join, no score.
public final class GatewayStore: Sendable {
    let database: DatabaseQueue
    public let path: String

    /// Opens (or creates) the store in `directory`, which is created if need be.
    public init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("courtside-web.sqlite").path
        var configuration = Configuration()
        // Several processes share the file: the gateway, and `courtside-web codes` beside it.
        configuration.busyMode = .timeout(5)
        database = try DatabaseQueue(path: path, configuration: configuration)
        try Self.migrator.migrate(database)
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
        return migrator
    }
}
