import Foundation
import Hummingbird
import Testing

@testable import CourtsideWebStore

@Suite("the gateway's join codes, devices and sessions")
struct GatewayStoreTests {
    static func store() throws -> (GatewayStore, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courtside-web-\(UUID().uuidString)")
        return (try GatewayStore(directory: directory), directory)
    }

    /// The id of the device the store says is joined (its times come back to the microsecond).
    static func joined(_ store: GatewayStore, _ device: KeeperDevice) async throws -> String? {
        if case .joined(let found) = try await store.standing(ofDevice: device.id) { found.id } else { nil }
    }

    @Test("PINs avoid look-alike characters, read in any case with dashes, and print in two groups")
    func pins() {
        for _ in 0..<200 {
            let code = JoinCode.make(court: "Court 1", generation: 1)
            #expect(code.pin.count == 6)
            #expect(code.pin.allSatisfy { JoinCode.pinAlphabet.contains($0) })
            #expect(JoinCode.normalizedPIN(code.printedPIN.lowercased()) == code.pin)
            #expect(code.token.count >= 32 && !code.token.contains("/") && !code.token.contains("+"))
        }
        #expect(!JoinCode.pinAlphabet.contains { "0O1IL2Z5S6G8B".contains($0) })
        #expect(JoinCode.slug("Court 1") == "court-1" && JoinCode.slug("  Centre court!! ") == "centre-court")
    }

    @Test("a device joins by token or PIN; a new code revokes it; the store survives reopening")
    func joinAndRevoke() async throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await store.code(for: "Court 1")
        #expect(try await store.code(for: "Court 1") == first)
        let other = try await store.code(for: "Court 2")
        #expect(other.pin != first.pin && other.token != first.token)

        let phone = try #require(try await store.join(token: first.token, name: "Ann's phone"))
        #expect(phone.court == "Court 1" && phone.name.hasPrefix("ann-s-phone-"))
        let tablet = try #require(try await store.join(pin: first.printedPIN.lowercased(), name: nil))
        #expect(tablet.name.hasPrefix("device-") && tablet.name != phone.name)
        #expect(try await store.join(pin: "AAAAAA", name: nil) == nil)
        #expect(try await store.join(token: "forged", name: nil) == nil)
        #expect(try await store.join(name: nil) == nil)
        #expect(try await Self.joined(store, phone) == phone.id)
        #expect(try await store.standing(ofDevice: "nobody") == .unknown)

        let renewed = try await store.renewCode(for: "Court 1")
        #expect(renewed.generation == 2 && renewed.pin != first.pin)
        #expect(try await store.standing(ofDevice: phone.id) == .revoked(court: "Court 1"))
        #expect(try await store.join(token: first.token, name: nil) == nil, "the old link is dead")

        // Reopened, as after a restart of the gateway: the same codes and devices.
        let reopened = try GatewayStore(directory: directory)
        #expect(try await reopened.codes().map(\.pin) == [renewed.pin, other.pin])
        let late = try #require(try await reopened.join(pin: renewed.pin, name: "late"))
        #expect(try await Self.joined(reopened, late) == late.id)
        #expect(try await reopened.revoke(device: late.id))
        #expect(try await reopened.standing(ofDevice: late.id) == .revokedAlone(court: "Court 1"))
        let listed = try await reopened.devices(court: "Court 1")
        #expect(listed.count == 3 && listed.allSatisfy(\.revoked))
    }

    @Test("a new code that names the code it replaces is made once, however often it is asked for; the first from 0")
    func renewOnce() async throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try #require(try await store.renewCode(for: "Court 1", replacing: 0))
        #expect(first.generation == 1)
        #expect(try await store.renewCode(for: "Court 1", replacing: 0) == nil)
        let second = try #require(try await store.renewCode(for: "Court 1", replacing: 1))
        #expect(second.generation == 2 && second.pin != first.pin)
        #expect(try await store.renewCode(for: "Court 1", replacing: 1) == nil, "confirmed twice: renewed once")
        #expect(try await store.codes() == [second])
    }

    @Test("sessions: create refuses a duplicate, set keeps the expiry, an expired one is gone, and all survive reopening")
    func sessions() async throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sessions = SQLitePersistDriver(store)
        try await sessions.create(key: "a", value: ["device": "d1"], expires: .seconds(3600))
        await #expect(throws: PersistError.duplicate) { try await sessions.create(key: "a", value: 1, expires: nil) }
        try await sessions.set(key: "a", value: ["device": "d2"], expires: nil)
        let (value, ttl) = try #require(try await sessions.getWithTTL(key: "a", as: [String: String].self))
        #expect(value == ["device": "d2"])
        #expect(ttl.map { $0 > .seconds(3500) } == true)
        await #expect(throws: PersistError.invalidConversion) { try await sessions.get(key: "a", as: Int.self) }
        try await sessions.set(key: "old", value: 1, expires: .seconds(-1))
        #expect(try await sessions.get(key: "old", as: Int.self) == nil)
        #expect(try await SQLitePersistDriver(GatewayStore(directory: directory)).get(key: "a", as: [String: String].self) != nil)
        try await sessions.remove(key: "a")
        #expect(try await sessions.get(key: "a", as: [String: String].self) == nil)
    }

    @Test(
        "a session's device in one read: joined, then revoked with its court's new code; none for a session expired, removed, unknown or naming no device"
    )
    func sessionStanding() async throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sessions = SQLitePersistDriver(store)
        let code = try await store.code(for: "Court 1")
        let phone = try #require(try await store.join(pin: code.pin, name: "phone"))
        try await sessions.create(key: "keeper.s1", value: ["device": phone.id], expires: .seconds(3600))
        guard case .joined(let found) = try await store.standing(ofSession: "keeper.s1") else {
            Issue.record("the session's device is not joined")
            return
        }
        #expect(found.id == phone.id && found.court == "Court 1")
        try await sessions.create(key: "keeper.ghost", value: ["device": "nobody"], expires: nil)
        #expect(try await store.standing(ofSession: "keeper.ghost") == .unknown)
        try await sessions.create(key: "keeper.old", value: ["device": phone.id], expires: .seconds(-1))
        #expect(try await store.standing(ofSession: "keeper.old") == nil)
        try await sessions.create(key: "desk.s", value: ["name": "organiser"], expires: nil)
        #expect(try await store.standing(ofSession: "desk.s") == nil)
        #expect(try await store.standing(ofSession: "keeper.never") == nil)
        try await store.renewCode(for: "Court 1")
        #expect(try await store.standing(ofSession: "keeper.s1") == .revoked(court: "Court 1"))
        try await sessions.remove(key: "keeper.s1")
        #expect(try await store.standing(ofSession: "keeper.s1") == nil)
    }

    @Test(
        "a joined session is answered from memory while the file is unchanged or only a device was noted as seen or commanding here, and read again after another connection's revoke or once expired"
    )
    func sessionStandingKept() async throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        // `courtside-web codes` beside the gateway: another connection to the same file.
        let other = try GatewayStore(directory: directory)
        let code = try await store.code(for: "Court 1")
        let phone = try #require(try await store.join(pin: code.pin, name: "phone"))
        try await SQLitePersistDriver(store).create(key: "keeper.s1", value: ["device": phone.id], expires: .seconds(5))
        func device(now: Date = Date()) async throws -> String? {
            if case .joined(let found) = try await store.standing(ofSession: "keeper.s1", now: now) { found.id } else { nil }
        }
        #expect(try await device() == phone.id)
        let counter = try #require(store.sessionStandings.counter())
        #expect(store.sessionStandings.device(ofSession: "keeper.s1", now: Date(), counter: counter)?.id == phone.id)
        // Past the session's expiry, less than the 10 s after which the device is noted as seen.
        #expect(try await device(now: Date().addingTimeInterval(6)) == nil)
        #expect(try await device() == phone.id)
        // Another device noted as seen (its first request 10 s on) leaves this one's entry as it was.
        let tablet = try #require(try await store.join(pin: code.pin, name: "tablet"))
        try await SQLitePersistDriver(store).create(key: "keeper.s2", value: ["device": tablet.id], expires: nil)
        #expect(try await device() == phone.id)
        let later = Date().addingTimeInterval(11)
        #expect(try await store.standing(ofSession: "keeper.s2", now: later) != nil)
        let afterSeen = try #require(store.sessionStandings.counter())
        #expect(store.sessionStandings.device(ofSession: "keeper.s2", now: later, counter: afterSeen)?.id == tablet.id)
        #expect(store.sessionStandings.device(ofSession: "keeper.s1", now: Date(), counter: afterSeen)?.id == phone.id)
        #expect(try await store.markCommanded(device: phone.id))
        let commanded = try #require(store.sessionStandings.counter())
        #expect(store.sessionStandings.device(ofSession: "keeper.s1", now: Date(), counter: commanded)?.commanded == true)
        #expect(try await other.revoke(device: phone.id))
        #expect(store.sessionStandings.counter() != counter)
        #expect(try await store.standing(ofSession: "keeper.s1") == .revokedAlone(court: "Court 1"))
    }
}
