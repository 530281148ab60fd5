import CourtsideWebStore
import Foundation
import GRDB
import Hummingbird
import Testing

/// What issue 37 found: joins with a court's PIN filled the store without limit, and a name
/// that clashed answered 500.
@Suite("the gateway store stays bounded: devices per court, unused devices, sessions, names")
struct GatewayStoreBoundsTests {
    /// The value the gateway's keeper sessions hold (`KeeperSession` in CourtsideWeb).
    struct KeeperSession: Codable, Sendable, Equatable { var device: String }

    /// A store in a fresh directory: on tmpfs when there is one, as thousands of joins here test
    /// bounds, not fsyncs.
    static func store(_ limits: GatewayStore.Limits = .init()) throws -> (GatewayStore, URL) {
        let shm = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        let base = FileManager.default.isWritableFile(atPath: shm.path) ? shm : FileManager.default.temporaryDirectory
        let directory = base.appendingPathComponent("courtside-web-\(UUID().uuidString)")
        return (try GatewayStore(directory: directory, limits: limits), directory)
    }

    /// Joins as the gateway does: the device, then its session.
    static func join(
        _ store: GatewayStore, _ sessions: SQLitePersistDriver, pin: String, name: String?, install: String? = nil, now: Date
    ) async throws -> (device: KeeperDevice, session: String) {
        let device = try #require(try await store.join(pin: pin, name: name, install: install, now: now))
        let key = "keeper.\(UUID().uuidString)"
        try await sessions.create(key: key, value: KeeperSession(device: device.id), expires: .seconds(3 * 24 * 3600))
        return (device, key)
    }

    /// The name of the device the store says is joined (its times come back to the microsecond).
    static func joined(_ store: GatewayStore, _ id: String, now: Date) async throws -> String? {
        if case .joined(let found) = try await store.standing(ofDevice: id, now: now) { found.name } else { nil }
    }

    static func close(_ dates: [Date], _ expected: [Date]) -> Bool {
        dates.count == expected.count && zip(dates, expected).allSatisfy { abs($0.timeIntervalSince($1)) < 0.001 }
    }

    // 2,000 joins are 50 times the court's 40 devices and 20 times the 100 expiries it logs:
    // every bound is met many times over, in a fifth of the time 10,000 took.
    @Test("2,000 joins with a court's PIN keep the court's devices, the sessions and the file bounded, with no error")
    func flood() async throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sessions = SQLitePersistDriver(store)
        let court1 = try await store.code(for: "Court 1")
        let court2 = try await store.code(for: "Court 2")
        let start = Date()
        let keeper = try await Self.join(store, sessions, pin: court1.pin, name: "Ann's phone", now: start)
        #expect(try await store.markCommanded(device: keeper.device.id))
        let other = try await Self.join(store, sessions, pin: court2.pin, name: nil, now: start)
        let empty = try await store.stats().fileBytes

        var names = Set([keeper.device.name, other.device.name])
        var peak = 0
        for index in 0..<2_000 {
            let now = start.addingTimeInterval(Double(index) * 0.01)
            let (device, _) = try await Self.join(store, sessions, pin: court1.pin, name: index % 2 == 0 ? "flood" : nil, now: now)
            names.insert(device.name)
            if index % 200 == 199 { peak = max(peak, try await store.stats().fileBytes) }
        }
        #expect(names.count == 2_002, "every device got a name of its own")

        let stats = try await store.stats()
        #expect(stats.devicesByCourt == ["Court 1": 40, "Court 2": 1])
        #expect(stats.devices == 41 && stats.sessions == 41, "each device's session, and no other")
        #expect(stats.devicesNamed == 2_002)
        #expect(stats.expiredDevices[.courtFull] == 2_001 - 40 && stats.expiredDevices[.unused] == 0)
        #expect(peak < 256 * 1024 && stats.fileBytes < 256 * 1024, "from \(empty) bytes to at most \(peak)")
        let listed = try await store.devices(court: "Court 1")
        #expect(listed.contains { $0.device.id == keeper.device.id && $0.device.commanded }, "the used device stays")
        #expect(try await Self.joined(store, other.device.id, now: start) == other.device.name)
        #expect(try await sessions.get(key: keeper.session, as: KeeperSession.self) == KeeperSession(device: keeper.device.id))

        let expiries = try await store.recentExpiries(court: "Court 1", limit: 1000)
        #expect(expiries.count == 100, "the log keeps 100 a court")
        #expect(expiries.allSatisfy { $0.reason == .courtFull && !$0.commanded && $0.name != keeper.device.name })
        #expect(expiries.map(\.expiredAt) == expiries.map(\.expiredAt).sorted(by: >), "newest first")
        #expect(try await store.recentExpiries(court: "Court 2").isEmpty)
    }

    @Test("names are unique over 5,000 joins that ask for the same few names, short and safe as client ids")
    func uniqueNames() async throws {
        let (store, directory) = try Self.store(.init(devicesPerCourt: 5))
        defer { try? FileManager.default.removeItem(at: directory) }
        let pins = [try await store.code(for: "Court 1").pin, try await store.code(for: "Court 2").pin]
        let asked: [String?] = [
            "Ann's phone", "ann-s-phone", "ann-s-phone-1", "Ann's phone 1", nil, "", "!!!", "device-1", String(repeating: "a-", count: 40),
        ]
        let start = Date()
        var names = Set<String>()
        for index in 0..<5_000 {
            let device = try #require(
                try await store.join(pin: pins[index % 2], name: asked[index % asked.count], now: start.addingTimeInterval(Double(index))))
            names.insert(device.name)
            #expect(device.name.count <= 40 && !device.name.contains { $0.isWhitespace || $0.asciiValue.map { $0 < 32 } == true })
        }
        #expect(names.count == 5_000)
        #expect(names.contains("ann-s-phone-1") && names.contains("ann-s-phone-1-3") && names.contains("device-5"))
        #expect(names.contains("device-6") && names.contains("device-7"), "no name, an empty one or no letter: device")
        #expect(try await store.stats().devices == 10)
    }

    @Test("a browser joining again with its install id keeps its name and use; its old session goes")
    func rejoin() async throws {
        let (store, directory) = try Self.store(.init(devicesPerCourt: 3))
        defer { try? FileManager.default.removeItem(at: directory) }
        let sessions = SQLitePersistDriver(store)
        let code = try await store.code(for: "Court 1")
        let now = Date()
        let first = try await Self.join(store, sessions, pin: code.pin, name: "Ann's phone", install: "install-1", now: now)
        try await store.markCommanded(device: first.device.id)
        for index in 0..<10 {
            _ = try await Self.join(store, sessions, pin: code.pin, name: "Ann's phone", now: now.addingTimeInterval(Double(index)))
        }
        let renewed = try await store.renewCode(for: "Court 1")
        let again = try await Self.join(store, sessions, pin: renewed.pin, name: "other", install: "install-1", now: now + 60)
        #expect(again.device.name == first.device.name && again.device.id != first.device.id && again.device.commanded)
        #expect(try await sessions.get(key: first.session, as: KeeperSession.self) == nil)
        #expect(try await store.standing(ofDevice: first.device.id, now: now + 60) == .unknown)
        #expect(try await Self.joined(store, again.device.id, now: now + 60) == again.device.name)
        #expect(try await store.devices(court: "Court 1").filter { $0.device.name == first.device.name }.count == 1)
    }

    @Test("devices that never sent a command go with their sessions once unused for the limit; used ones stay")
    func unusedExpire() async throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sessions = SQLitePersistDriver(store)
        let code = try await store.code(for: "Court 1")
        let start = Date()
        let used = try await Self.join(store, sessions, pin: code.pin, name: "used", now: start)
        let idle = try await Self.join(store, sessions, pin: code.pin, name: "idle", now: start)
        let waiting = try await Self.join(store, sessions, pin: code.pin, name: "waiting", now: start)
        #expect(try await store.markCommanded(device: used.device.id))
        #expect(try await store.markCommanded(device: used.device.id) == false, "once")
        #expect(try await store.markCommanded(device: "nobody") == false)
        guard case .joined(let seen) = try await store.standing(ofDevice: used.device.id, now: start) else {
            Issue.record("the used device is joined")
            return
        }
        #expect(seen.commanded)
        // Its page stays open, waiting for the game: seen, never used.
        _ = try await store.standing(ofDevice: waiting.device.id, now: start + 7000)

        let later = start + 2 * 3600 + 60
        let newcomer = try await Self.join(store, sessions, pin: code.pin, name: "late", now: later)
        let names = try await store.devices(court: "Court 1").map(\.device.name)
        #expect(Set(names) == [used.device.name, waiting.device.name, newcomer.device.name])
        #expect(try await sessions.get(key: idle.session, as: KeeperSession.self) == nil)
        #expect(try await sessions.get(key: used.session, as: KeeperSession.self) != nil)
        #expect(try await store.standing(ofDevice: idle.device.id, now: later) == .unknown)

        let afterwards = start + 7000 + 2 * 3600 + 60
        _ = try await store.join(pin: code.pin, name: nil, now: afterwards)
        let expiries = try await store.recentExpiries(court: "Court 1")
        #expect(expiries.map(\.name) == [waiting.device.name, idle.device.name])
        #expect(expiries.map(\.reason) == [.unused, .unused] && expiries.allSatisfy { !$0.commanded })
        #expect(Self.close(expiries.map(\.expiredAt), [afterwards, later]))
        #expect(Self.close(expiries.map(\.joinedAt), [start, start]) && Self.close(expiries.map(\.lastSeen), [start + 7000, start]))
        #expect(try await store.stats().expiredDevices == [.unused: 2, .courtFull: 0, .unseen: 0, .revoked: 0])
        #expect(try await store.stats().sessions == 2, "used and late: the last join made none")
    }

    @Test("revoked devices go first when the court is full, then unused ones, then the least recently seen")
    func courtFullOrder() async throws {
        let (store, directory) = try Self.store(.init(devicesPerCourt: 3))
        defer { try? FileManager.default.removeItem(at: directory) }
        let code = try await store.code(for: "Court 1")
        let start = Date()
        let a = try #require(try await store.join(pin: code.pin, name: "a", now: start))
        let b = try #require(try await store.join(pin: code.pin, name: "b", now: start + 1))
        let c = try #require(try await store.join(pin: code.pin, name: "c", now: start + 2))
        try await store.markCommanded(device: a.id)
        try await store.markCommanded(device: b.id)
        #expect(try await store.revoke(device: b.id))
        let d = try #require(try await store.join(pin: code.pin, name: "d", now: start + 3))
        let e = try #require(try await store.join(pin: code.pin, name: "e", now: start + 4))
        try await store.markCommanded(device: d.id)
        try await store.markCommanded(device: e.id)
        _ = try await store.standing(ofDevice: a.id, now: start + 100)
        let f = try #require(try await store.join(pin: code.pin, name: "f", now: start + 200))
        #expect(try await store.recentExpiries().map(\.name) == [d.name, c.name, b.name])
        #expect(Set(try await store.devices().map(\.device.name)) == [a.name, e.name, f.name])
    }

    @Test("stats: the file's bytes, devices, sessions and devices by court")
    func stats() async throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sessions = SQLitePersistDriver(store)
        let empty = try await store.stats()
        #expect(empty.devices == 0 && empty.sessions == 0 && empty.devicesByCourt.isEmpty && empty.devicesNamed == 0)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int)
        #expect(empty.fileBytes == size)
        let pins = [try await store.code(for: "Court 1").pin, try await store.code(for: "Court 2").pin]
        for index in 0..<5 { _ = try await Self.join(store, sessions, pin: pins[index % 2], name: nil, now: Date()) }
        try await sessions.set(key: "desk.x", value: ["desk": "organiser"], expires: .seconds(60))
        let stats = try await store.stats()
        #expect(stats.devices == 5 && stats.sessions == 6 && stats.devicesByCourt == ["Court 1": 3, "Court 2": 2])
        #expect(stats.devicesNamed == 5 && stats.fileBytes >= empty.fileBytes)
    }

    @Test("a store of v2 opens: its used devices stay, its numbers are not given again, its sessions find their devices")
    func migrateFromV2() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courtside-web-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("courtside-web.sqlite").path)
        let start = Date().timeIntervalSince1970 - 3 * 3600
        try await queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    INSERT INTO grdb_migrations VALUES ('v1'), ('v2: a browser''s install id, so a device that joins again keeps its name');
                    CREATE TABLE join_codes (
                        court TEXT PRIMARY KEY, generation INTEGER NOT NULL, token TEXT NOT NULL UNIQUE,
                        pin TEXT NOT NULL UNIQUE, created_at DOUBLE NOT NULL);
                    CREATE TABLE devices (
                        id TEXT PRIMARY KEY, court TEXT NOT NULL, generation INTEGER NOT NULL, name TEXT NOT NULL UNIQUE,
                        joined_at DOUBLE NOT NULL, last_seen DOUBLE NOT NULL);
                    CREATE INDEX devices_by_court ON devices(court);
                    CREATE TABLE sessions (key TEXT PRIMARY KEY, value BLOB NOT NULL, expires_at DOUBLE);
                    ALTER TABLE devices ADD COLUMN install TEXT;
                    CREATE UNIQUE INDEX devices_by_install ON devices(install) WHERE install IS NOT NULL;
                    CREATE INDEX sessions_by_expiry ON sessions(expires_at);
                    """)
            try db.execute(
                sql: "INSERT INTO join_codes VALUES ('Court 1', 1, 'TOKEN', 'ACDEFH', ?)", arguments: [start])
            // Used (seen after joining), and a flood's (never seen again): one ends with a number.
            try db.execute(
                sql: "INSERT INTO devices VALUES ('used', 'Court 1', 1, 'ann-s-phone-x9a_', ?1, ?1 + 600, 'i1'), "
                    + "('flood', 'Court 1', 1, 'device-4711', ?1, ?1, NULL)", arguments: [start])
            for (key, device) in [("keeper.1", "used"), ("keeper.2", "flood"), ("keeper.3", "gone")] {
                try db.execute(
                    sql: "INSERT INTO sessions VALUES (?, ?, ?)",
                    arguments: [key, try JSONEncoder().encode(KeeperSession(device: device)), start + 86400])
            }
            try db.execute(sql: "INSERT INTO sessions VALUES ('desk.1', ?, NULL)", arguments: [Data(#"{"desk":"d"}"#.utf8)])
        }
        try queue.close()

        let store = try GatewayStore(directory: directory)
        let sessions = SQLitePersistDriver(store)
        #expect(try await sessions.get(key: "keeper.3", as: KeeperSession.self) == nil, "its device was gone")
        let now = Date()
        let device = try #require(try await store.join(pin: "ACDEFH", name: "Ann's phone", now: now))
        #expect(device.name == "ann-s-phone-4712")
        #expect(try await store.devices().map(\.device.id).sorted() == [device.id, "used"].sorted())
        #expect(try await store.devices().first { $0.device.id == "used" }?.device.commanded == true)
        #expect(try await store.recentExpiries().map(\.name) == ["device-4711"])
        #expect(try await sessions.get(key: "keeper.2", as: KeeperSession.self) == nil)
        #expect(try await sessions.get(key: "keeper.1", as: KeeperSession.self) == KeeperSession(device: "used"))
        #expect(try await sessions.get(key: "desk.1", as: [String: String].self) == ["desk": "d"])
    }
}
