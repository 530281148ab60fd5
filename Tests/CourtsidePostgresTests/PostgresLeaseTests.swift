import CourtsideModel
import CourtsidePostgres
import CourtsidePostgresTesting
import CourtsideStorage
import CourtsideStorageTesting
import Foundation
import Logging
import Synchronization
import Testing

/// The lease that makes one daemon active among several on one database: taken only once run
/// out, each time in a higher term, renewed by every commit, and a commit of a daemon whose term
/// has passed is not made.
@Suite(
    "The PostgreSQL log's lease", .serialized,
    .enabled(if: TestPostgresServer.isInstalled, "\(TestPostgresServer.notInstalled)"))
struct PostgresLeaseTests {
    static let logger = Logger(label: "courtside.test")

    /// Two logs on `server`'s database, as two daemons have.
    static func twoLogs(_ server: TestPostgresServer) throws -> (PostgresEventLog, PostgresEventLog) {
        (
            try PostgresEventLog(configuration: server.configuration, logger: logger),
            try PostgresEventLog(configuration: server.configuration, logger: logger)
        )
    }

    func claim(_ name: String, milliseconds: Int = 400) -> LeaseClaim {
        LeaseClaim(holder: name, endpoint: "tcp://\(name):5555", duration: .milliseconds(milliseconds))
    }

    @Test(
        "one holder at a time; a standby takes over once the lease ran out, in a higher term; the old holder's commit is refused")
    func takeover() throws {
        let server = try TestPostgresServer()
        defer { server.stop() }
        let (first, second) = try Self.twoLogs(server)
        defer {
            try? first.close()
            try? second.close()
        }
        #expect(first.leaseStatus == .none && first.holdsLease)
        #expect(try first.acquireLease(claim("a")) == .acquired(term: 1))
        #expect(first.holdsLease)
        // Held and renewed by each commit: the other waits, told who is active.
        guard case .held(1, "tcp://a:5555", let left) = try second.acquireLease(claim("b")) else {
            Issue.record("the second daemon took a lease that was held")
            return
        }
        #expect(left > .zero && left <= .milliseconds(400))
        let events = LogFixtures.events(1...6)
        try first.append(Array(events[0..<3]), refusals: [])
        Thread.sleep(forTimeInterval: 0.2)
        try first.append(Array(events[3..<4]), refusals: [])
        Thread.sleep(forTimeInterval: 0.25)
        // 450 ms since the first took it, but the commit 250 ms ago renewed it.
        #expect(try second.acquireLease(claim("b")).isHeld)
        try first.renewLease()
        #expect(try second.acquireLease(claim("b")).isHeld)

        // The first stops renewing (a pause): it counts itself out before the database does.
        Thread.sleep(forTimeInterval: 0.37)
        #expect(!first.holdsLease)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(try second.acquireLease(claim("b")) == .acquired(term: 2))
        #expect(throws: PostgresEventLogError.self) { try first.append(Array(events[4..<5]), refusals: []) }
        #expect(first.leaseStatus == .fenced(term: 1, reason: .takenOver) && !first.holdsLease)
        // Fenced for good: not even a renewal reaches the database any more.
        #expect(throws: PostgresEventLogError.self) { try first.renewLease() }
        try second.append(Array(events[4..<6]), refusals: [])
        #expect(try second.readAll().map(\.sequence) == [1, 2, 3, 4, 5, 6])
        #expect(try second.readAll() == events)
        // The same holder again (a restart in the same place) takes its own lease back at once,
        // in a new term, and the run before it is fenced.
        let restarted = try PostgresEventLog(configuration: server.configuration, logger: Self.logger)
        defer { try? restarted.close() }
        #expect(try restarted.acquireLease(claim("b")) == .acquired(term: 3))
        #expect(throws: PostgresEventLogError.self) { try second.renewLease() }
        // The term only grows: a third daemon, once the lease runs out, gets the next.
        let third = try PostgresEventLog(configuration: server.configuration, logger: Self.logger)
        defer { try? third.close() }
        Thread.sleep(forTimeInterval: 0.45)
        #expect(try third.acquireLease(claim("c")) == .acquired(term: 4))
    }

    @Test("a daemon that keeps its lease renewed between commits keeps it; closing the log hands it back at once")
    func keeping() async throws {
        let server = try TestPostgresServer()
        defer { server.stop() }
        let (first, second) = try Self.twoLogs(server)
        defer { try? second.close() }
        // Kept for twice its length; long enough that a loaded machine's slow renewal still counts
        // (at 800 ms a renewal once came too late while the full suite ran).
        #expect(try first.acquireLease(claim("a", milliseconds: 2000)) == .acquired(term: 1))
        let statuses = Mutex<[LeaseStatus]>([])
        let keeping = first.keepLease { status in statuses.withLock { $0.append(status) } }
        for _ in 0..<11 {
            try await Task.sleep(for: .milliseconds(400))
            #expect(try second.acquireLease(claim("b")).isHeld)
            #expect(first.holdsLease)
        }
        // Closed (a graceful stop), it hands the lease back: the standby need not wait it out.
        try first.close()
        #expect(await keeping.end == .released)
        #expect(try second.acquireLease(claim("b")) == .acquired(term: 2))
        #expect(statuses.withLock { $0.map(\.kind) } == ["held", "released"])
    }

    @Test(
        "the keeper steps down the moment a renewal finds the term moved on, and cuts the log's connections: nothing more is written"
    )
    func keeperStepsDown() async throws {
        let server = try TestPostgresServer()
        defer { server.stop() }
        let (first, second) = try Self.twoLogs(server)
        defer { for log in [first, second] { try? log.close() } }
        #expect(try first.acquireLease(claim("a", milliseconds: 400)) == .acquired(term: 1))
        let keeping = first.keepLease()
        // The same holder restarted elsewhere takes its own lease back at once, in a new term.
        #expect(try second.acquireLease(claim("a", milliseconds: 400)) == .acquired(term: 2))
        #expect(await keeping.end == .steppedDown(term: 1, reason: .takenOver))
        #expect(!first.holdsLease)
        #expect(throws: PostgresEventLogError.self) { try first.append(LogFixtures.events(1...1), refusals: []) }
        try second.append(LogFixtures.events(1...1), refusals: [])
        #expect(try second.readAll().count == 1)
    }

    @Test(
        "with several hosts listed, the log opens on the one that is not in recovery (a dead one and a standby skipped), and says so when none takes writes"
    )
    func findsThePrimary() throws {
        let pair = try TestPostgresPair()
        defer { pair.stop() }
        let (primary, standby) = (pair.configuration.hosts[0], pair.configuration.hosts[1])
        var configuration = pair.configuration
        configuration.hosts = [.init("127.0.0.1", port: TestPostgresServer.freePort()), standby, primary]
        let log = try PostgresEventLog(configuration: configuration, logger: Self.logger)
        try log.append(LogFixtures.events(1...2), refusals: [])
        #expect(try log.readAll().count == 2)
        try log.close()
        configuration.hosts = [standby]
        do {
            _ = try PostgresEventLog(configuration: configuration, logger: Self.logger)
            Issue.record("the log opened on a standby")
        } catch let error as PostgresEventLogError {
            #expect(error.codeString == "no_primary" && error.message.contains("standby"), "\(error)")
        }
    }
}

extension LeaseStatus {
    /// The status's case, without its values.
    var kind: String {
        switch self {
        case .none: "none"
        case .standby: "standby"
        case .held: "held"
        case .released: "released"
        case .fenced: "fenced"
        }
    }
}

extension LeaseOutcome {
    var isHeld: Bool {
        if case .held = self { return true }
        return false
    }
}
