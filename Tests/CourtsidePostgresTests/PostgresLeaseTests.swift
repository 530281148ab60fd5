import CourtsideModel
import CourtsidePostgres
import CourtsidePostgresTesting
import CourtsideStorage
import CourtsideStorageTesting
import Foundation
import Logging
import Testing

/// The lease that makes one daemon active among several on one database: taken only once run
/// out, each time in a higher term, renewed by every commit, and a commit of a daemon whose term
/// has passed is not made.
@Suite(
    "The PostgreSQL log's lease", .serialized,
    .enabled(if: TestPostgresServer.isInstalled, "\(TestPostgresServer.notInstalled)"))
struct PostgresLeaseTests {
    static let logger = Logger(label: "courtside.test")

    func claim(_ name: String, milliseconds: Int = 400) -> LeaseClaim {
        LeaseClaim(holder: name, endpoint: "tcp://\(name):5555", duration: .milliseconds(milliseconds))
    }

    @Test(
        "one holder at a time; a standby takes over once the lease ran out, in a higher term; the old holder's commit is refused")
    func takeover() throws {
        let server = try TestPostgresServer()
        defer { server.stop() }
        let first = try PostgresEventLog(configuration: server.configuration, logger: Self.logger)
        let second = try PostgresEventLog(configuration: server.configuration, logger: Self.logger)
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
        #expect(first.leaseStatus == .fenced(term: 1) && !first.holdsLease)
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
    func keeping() throws {
        let server = try TestPostgresServer()
        defer { server.stop() }
        let first = try PostgresEventLog(configuration: server.configuration, logger: Self.logger)
        let second = try PostgresEventLog(configuration: server.configuration, logger: Self.logger)
        defer { try? second.close() }
        #expect(try first.acquireLease(claim("a", milliseconds: 300)) == .acquired(term: 1))
        first.keepLease()
        for _ in 0..<6 {
            Thread.sleep(forTimeInterval: 0.15)
            #expect(try second.acquireLease(claim("b")).isHeld)
            #expect(first.holdsLease)
        }
        // Closed (a graceful stop), it hands the lease back: the standby need not wait it out.
        try first.close()
        #expect(try second.acquireLease(claim("b")) == .acquired(term: 2))
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

extension LeaseOutcome {
    var isHeld: Bool {
        if case .held = self { return true }
        return false
    }
}
