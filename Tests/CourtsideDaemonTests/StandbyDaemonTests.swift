import CourtsideClient
import CourtsideModel
import CourtsidePostgres
import CourtsidePostgresTesting
import CourtsideProtocol
import CourtsideSimulator
import CourtsideStorageTesting
import Foundation
import Logging
import Synchronization
import Testing
import ZeroMQ

#if canImport(Glibc)
    import Glibc
#endif

/// Two courtsided on one PostgreSQL log: one active, holding the lease, one standby. Each
/// scenario is checked from a record of every acknowledgement (scripts/failover-trials.sh runs
/// many more of them and prints the counts).
@Suite(
    "standby daemons on one PostgreSQL log", .serialized, .timeLimit(.minutes(4)),
    .enabled(if: TestPostgresServer.isInstalled, "\(TestPostgresServer.notInstalled)"))
struct StandbyDaemonTests {
    /// The lease in these tests: short, so that each takeover is quick.
    static let leaseMilliseconds = 1500

    /// The moments of the scenarios (seconds into the stream of moves): two in `swift test`;
    /// `COURTSIDE_FAILOVER_TRIALS=N` (scripts/failover-trials.sh) runs N random ones of each.
    static let moments: [Double] = {
        guard let trials = ProcessInfo.processInfo.environment["COURTSIDE_FAILOVER_TRIALS"].flatMap(Int.init), trials > 0
        else { return [0.3, 0.8] }
        return (0..<trials).map { _ in Double.random(in: 0.1..<1.5) }
    }()

    /// One line per trial, for scripts/failover-trials.sh to count.
    static func report(_ scenario: String, _ verdict: AcknowledgementRecord.Verdict, takeover: Duration?) {
        let takeover = takeover.map { "\($0.inMilliseconds)" } ?? "-"
        print(
            "failover-trial scenario=\(scenario) acknowledged=\(verdict.acknowledged) lost=\(verdict.lost) duplicated=\(verdict.duplicated) order_violations=\(verdict.orderViolations) takeover_ms=\(takeover)"
        )
    }

    /// The config's storage section for daemons sharing `database` (every host listed).
    static func storage(_ database: PostgresLogConfiguration) -> String {
        """
        storage:
          postgresql:
            hosts: [\(database.hosts.map { "\"\($0.host):\($0.port)\"" }.joined(separator: ", "))]
            database: \(database.database)
            user: \(database.user)
            lease_ms: \(leaseMilliseconds)

        """
    }

    @Test(
        "kill -9 the active daemon under a stream of moves: the standby takes over, every acknowledged move is in the log once, terms never go down, a display ends equal to the log",
        arguments: moments)
    func killActive(after seconds: Double) throws {
        try Self.withPair { server, active, standby in
            try disruptActive(after: seconds, "kill-active", server.configuration, active, standby) { active.signal(SIGKILL) }
        }
    }

    @Test(
        "the active daemon loses the database under a stream of moves (its sessions ended): it acknowledges nothing more and stops; the standby takes over, nothing acknowledged lost",
        arguments: someMoments)
    func activeLosesDatabase(after seconds: Double) throws {
        try Self.withPair { server, active, standby in
            try disruptActive(after: seconds, "active-loses-db", server.configuration, active, standby) {
                #expect(
                    server.psql(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'courtsided[\(active.processIdentifier)]'"
                    ))
            }
            #expect(active.waitForExit(seconds: 10) != nil && active.exitStatus != 0)
        }
    }

    /// Disrupts the active daemon at a random moment of a stream of moves from a keeper that
    /// lists both daemons, with a display of both watching; then checks the acknowledgements
    /// against the log, and the display against the daemon that took over.
    func disruptActive(
        after seconds: Double, _ scenario: String, _ database: PostgresLogConfiguration, _ active: DaemonProcess,
        _ standby: DaemonProcess, mayLose: Bool = false, _ disrupt: () throws -> Void
    ) throws {
        // The standby answers, deciding nothing, and names the active daemon.
        let direct = CommandClient(endpoint: standby.commandEndpoint, clientID: "probe", timeoutMilliseconds: 1000, attempts: 1)
        let refused = try direct.send(.move(game: "g1", player: "ann", move: .assist))
        #expect(refused.error?.code == .notActive && refused.error?.message.contains(active.commandEndpoint) == true)
        #expect(standby.notify.wait(containing: "STATUS=standby: active courtsided at \(active.commandEndpoint)", seconds: 5))

        let both = "\(active.commandEndpoint),\(standby.commandEndpoint)"
        let display = try DisplaySync(
            endpoints: Endpoints(command: both, events: "\(active.eventEndpoint),\(standby.eventEndpoint)"),
            client: CommandClient(endpoint: both, clientID: "board", timeoutMilliseconds: 500))
        let pythonLog = standby.directory.appendingPathComponent("display.py.log").path
        let python = try PythonDisplay.start(
            command: both, events: "\(active.eventEndpoint),\(standby.eventEndpoint)", errorLog: pythonLog)
        // The disruption comes to a display already following: a slow start of python3 on a busy
        // machine would otherwise take its first snapshot in the middle of the takeover.
        #expect(PythonDisplay.waitUntilFollowing(errorLog: pythonLog), "\(PythonDisplay.log(pythonLog))")
        // One that lists only the standby hears not_active until the takeover, and waits for it.
        let waitingLog = standby.directory.appendingPathComponent("display-standby.py.log").path
        let waiting = try PythonDisplay.start(
            command: standby.commandEndpoint, events: standby.eventEndpoint, errorLog: waitingLog)
        let record = AcknowledgementRecord()
        let keeper = BlockingThread<Void, Never> {
            Self.keepScoring(both, into: record, until: { record.count(term: 2) >= 20 }, seconds: 30)
        }
        let disruptAfter = seconds + Double.random(in: 0..<0.3)
        let started = ContinuousClock.now
        while ContinuousClock.now - started < .milliseconds(Int(disruptAfter * 1000)) {
            _ = try display.pump(timeoutMilliseconds: 20)
        }
        try disrupt()
        let disrupted = ContinuousClock.now
        while record.count(term: 2) < 20, ContinuousClock.now - disrupted < .seconds(30) {
            _ = try display.pump(timeoutMilliseconds: 20)
        }
        _ = keeper.wait()
        let takeover = record.first(term: 2).map { $0.receivedAt - disrupted }
        #expect(standby.notify.wait(containing: "active (term 2)", seconds: 1))

        let logged = try Self.loggedEvents(database)
        let verdict = record.check(against: logged)
        Self.report(scenario, verdict, takeover: takeover)
        // The control may lose what its standby never had: the check counts it, and it is reported.
        if !mayLose { #expect(verdict.failures.isEmpty, "\(verdict.failures)") }
        #expect(record.count(term: 1) > 0 && record.count(term: 2) >= 20)
        // The display, which heard both endpoints, ends equal to the log.
        let last = try #require(logged.last).sequence
        #expect(try display.pump(seconds: 10) { display.sequence == last && !display.isStale })
        let games = try CommandClient(endpoint: standby.commandEndpoint, clientID: "check").snapshot().games
        #expect(games.map(\.version) == games.map { display.games[$0.id]?.game.version ?? -1 })
        #expect(games == games.map { display.games[$0.id]?.game ?? Game(setup: $0.setup) })
        // So does examples/display.py, given both daemons' lists.
        let seen = try PythonDisplay.finishedState(python, at: last, errorLog: pythonLog)
        #expect(seen.sequence == last)
        #expect(games.allSatisfy { seen.games[$0.id.rawValue]?.version == $0.version })
        let standbySeen = try PythonDisplay.finishedState(waiting, at: last, errorLog: waitingLog)
        #expect(standbySeen.sequence == last)
    }

    @Test(
        "SIGSTOP the active daemon for longer than the lease: the standby takes over; after SIGCONT the old one answers nothing more, publishes nothing more, steps down and is a standby again",
        arguments: someMoments)
    func pauseActive(after seconds: Double) throws {
        try Self.withPair { server, active, standby in try pauseActive(after: seconds, server, active, standby) }
    }

    func pauseActive(after seconds: Double, _ server: TestPostgresServer, _ active: DaemonProcess, _ standby: DaemonProcess)
        throws
    {
        let both = "\(active.commandEndpoint),\(standby.commandEndpoint)"
        let record = AcknowledgementRecord()
        let started = ContinuousClock.now
        Self.keepScoring(
            both, into: record, until: { ContinuousClock.now - started > .milliseconds(Int(seconds * 1000)) }, seconds: 10)
        // What the paused daemon publishes, heard on its endpoint alone.
        let subscriber = try sharedClientContext.socket(.sub)
        defer { subscriber.close() }
        try subscriber.set(.linger(milliseconds: 0))
        try subscriber.connect(active.eventEndpoint)
        try subscriber.set(.subscribe([]))
        #expect(try Self.messages(on: subscriber, seconds: 0.5).contains { $0.contains("\"heartbeat\"") })

        active.signal(SIGSTOP)
        let stopped = Timestamp(Date())
        _ = try Self.messages(on: subscriber, seconds: 0.1)  // anything sent before the pause
        #expect(standby.notify.wait(containing: "active (term 2)", seconds: 10))
        Self.keepScoring(standby.commandEndpoint, into: record, until: { record.count(term: 2) >= 10 }, seconds: 10)

        // Resumed: a command sent to it straight is not acknowledged, and it publishes nothing new.
        let sentToOld = CommandClient(endpoint: active.commandEndpoint, clientID: "late", timeoutMilliseconds: 1500, attempts: 1)
        let origin = sentToOld.nextOrigin()
        active.signal(SIGCONT)
        let reply = try? sentToOld.send(.move(game: "g1", player: "ann", move: .assist), origin: origin)
        #expect(reply == nil || reply?.error?.code == .notActive, "\(String(describing: reply))")
        let after = try Self.messages(on: subscriber, seconds: 1.5)
        let fresh = after.filter { message in
            // A heartbeat stamped before the pause may still have been on its way.
            guard let heartbeat = try? WireCoding.decode(HeartbeatMessage.self, from: Array(message.utf8)) else { return true }
            return heartbeat.at >= stopped
        }
        #expect(fresh.isEmpty, "published after SIGCONT: \(fresh)")
        // It stepped down, and is a standby again in the same process.
        #expect(active.notify.wait(containing: "(stepped down ", seconds: 10), "\(active.log().suffix(2000))")
        #expect(active.isRunning && active.log().contains("stepped down"), "\(active.log().suffix(2000))")

        let logged = try Self.loggedEvents(server.configuration)
        #expect(!logged.contains { $0.origin == origin })
        let verdict = record.check(against: logged)
        Self.report("pause-active", verdict, takeover: nil)
        #expect(verdict.failures.isEmpty, "\(verdict.failures)")
    }

    /// One moment in `swift test`, every one of them for the trials script.
    static let someMoments = Array(
        moments.prefix(ProcessInfo.processInfo.environment["COURTSIDE_FAILOVER_TRIALS"] == nil ? 1 : moments.count))

    @Test(
        "kill -9 the primary database under a stream of moves, promote its synchronous standby and rebuild the old one as its standby: the standby daemon takes over there, nothing acknowledged lost",
        arguments: someMoments)
    func killPrimaryDatabase(after seconds: Double) throws {
        try Self.withDatabasePair(asynchronous: false) { databases, active, standby in
            try disruptActive(after: seconds, "kill-primary", databases.configuration, active, standby) {
                try databases.killPrimary()
                try databases.promoteStandby()
                // A promoted node waits for a standby of its own before any commit returns.
                try databases.rebuildPrimaryAsStandby()
            }
        }
    }

    @Test(
        "the control: the same with asynchronous replication (the check counts what the promoted node never had; a loss may or may not happen in one run)",
        arguments: someMoments)
    func asynchronousControl(after seconds: Double) throws {
        try Self.withDatabasePair(asynchronous: true) { databases, active, standby in
            try disruptActive(after: seconds, "async-kill-primary", databases.configuration, active, standby, mayLose: true) {
                try databases.killPrimary()
                try databases.promoteStandby()
            }
        }
    }

    @Test(
        "the standby database down under a stream of moves: nothing is acknowledged while no commit can reach it; once it is back, moves are, and nothing acknowledged is lost",
        arguments: someMoments)
    func standbyDatabaseDown(after seconds: Double) throws {
        try Self.withDatabasePair(asynchronous: false) { databases, active, standby in
            let both = "\(active.commandEndpoint),\(standby.commandEndpoint)"
            let record = AcknowledgementRecord()
            let up = Mutex<ContinuousClock.Instant?>(nil)
            let keeper = BlockingThread<Void, Never> {
                Self.keepScoring(
                    both, into: record, until: { up.withLock { $0 }.map { record.count(after: $0) >= 10 } ?? false },
                    seconds: 40)
            }
            Thread.sleep(forTimeInterval: seconds + 0.3)
            try databases.stopStandby()
            let down = ContinuousClock.now
            // Longer than the lease: the active daemon, its commit waiting, steps down too.
            Thread.sleep(forTimeInterval: Double(Self.leaseMilliseconds) / 1000 + 1)
            let restarted = ContinuousClock.now
            try databases.startStandby()
            up.withLock { $0 = restarted }
            _ = keeper.wait()
            // A reply already on its way as the standby went down may arrive a moment later.
            let during = record.count(after: down + .milliseconds(200)) - record.count(after: restarted)
            let verdict = record.check(against: try Self.loggedEvents(databases.configuration))
            Self.report("standby-db-down", verdict, takeover: nil)
            #expect(record.count(after: down) < record.count(term: 1) + record.count(term: 2))
            #expect(during == 0, "\(during) moves acknowledged while the standby database was down")
            #expect(
                record.count(after: restarted) >= 10,
                "first daemon:\n\(active.log().suffix(4000))\nsecond daemon:\n\(standby.log().suffix(4000))")
            #expect(verdict.failures.isEmpty, "\(verdict.failures)")
        }
    }

    @Test(
        "SIGTERM: the active daemon hands the lease over as it stops (exit 0), the standby takes it; a standby stops with 0 too")
    func gracefulHandover() throws {
        try Self.withPair { server, active, standby in
            let client = CommandClient(
                endpoint: "\(active.commandEndpoint),\(standby.commandEndpoint)", clientID: "court-1", timeoutMilliseconds: 500)
            let before = try client.command(.move(game: "g1", player: "ann", move: .twoPoints))
            active.signal(SIGTERM)
            #expect(active.waitForExit(seconds: 5) != nil && active.exitStatus == 0, "\(active.log().suffix(1500))")
            let stopped = ContinuousClock.now
            #expect(standby.notify.wait(containing: "active (term 2)", seconds: 10))
            // Handed back, not waited out: well within the lease.
            let handover = ContinuousClock.now - stopped
            #expect(handover < .milliseconds(Self.leaseMilliseconds), "\(handover)")
            #expect(active.log().contains("handed the lease back"))
            let after = try client.command(.move(game: "g1", player: "ann", move: .twoPoints))
            #expect(Epoch.number(after.epoch) == 2 && (after.sequence ?? 0) > (before.sequence ?? .max))

            // A standby, asked to stop, stops at once and cleanly.
            let third = try DaemonProcess(extraConfig: Self.storage(server.configuration))
            #expect(third.notify.wait(containing: "STATUS=standby", seconds: 10))
            third.signal(SIGTERM)
            #expect(third.waitForExit(seconds: 5) != nil && third.exitStatus == 0, "\(third.log().suffix(1500))")
        }
    }

    /// Runs `body` with a new server and two daemons on it, the first active; stops them all after.
    static func withPair(_ body: (TestPostgresServer, DaemonProcess, DaemonProcess) throws -> Void) throws {
        let server = try TestPostgresServer()
        defer { server.stop() }
        let (active, standby) = try pair(server.configuration)
        defer {
            active.stop()
            standby.stop()
        }
        try body(server, active, standby)
    }

    /// Runs `body` with a new primary and streaming standby database (synchronous unless
    /// `asynchronous`), and two daemons listing both; stops them all after.
    static func withDatabasePair(asynchronous: Bool, _ body: (TestPostgresPair, DaemonProcess, DaemonProcess) throws -> Void)
        throws
    {
        let databases = try TestPostgresPair(asynchronous: asynchronous)
        defer { databases.stop() }
        let (active, standby) = try pair(databases.configuration)
        defer {
            active.stop()
            standby.stop()
        }
        try body(databases, active, standby)
    }

    /// Starts two daemons on `server`'s database and waits until the first is active.
    static func pair(_ database: PostgresLogConfiguration) throws -> (active: DaemonProcess, standby: DaemonProcess) {
        let active = try DaemonProcess(extraConfig: storage(database))
        guard active.notify.wait(containing: "active (term 1)", seconds: 10) else {
            throw DaemonError("the first daemon did not become active: \(active.log())")
        }
        let standby = try DaemonProcess(extraConfig: storage(database))
        guard standby.notify.wait(containing: "STATUS=standby", seconds: 10) else {
            throw DaemonError("the second daemon did not report standby: \(standby.log())")
        }
        return (active, standby)
    }

    /// A keeper that scores in g1 (assists: the game never ends) and records each acknowledgement.
    static func keepScoring(_ endpoints: String, into record: AcknowledgementRecord, until done: () -> Bool, seconds: Double) {
        let client = CommandClient(endpoint: endpoints, clientID: "court-1", timeoutMilliseconds: 500, attempts: 4)
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while !done(), ContinuousClock.now < deadline {
            let origin = client.nextOrigin()
            guard let reply = try? client.send(.move(game: "g1", player: "ann", move: .assist), origin: origin), reply.ok,
                let sequence = reply.sequence
            else { continue }
            record.add(origin: origin, sequence: sequence, epoch: reply.epoch)
        }
    }

    static func loggedEvents(_ database: PostgresLogConfiguration) throws -> [GameEvent] {
        let log = try PostgresEventLog(configuration: database, logger: Logger(label: "courtside.test"))
        defer { try? log.close() }
        return try log.readAll()
    }

    /// The bodies of the messages that arrive within `seconds`.
    static func messages(on subscriber: ZMQSocket, seconds: Double) throws -> [String] {
        var bodies: [String] = []
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var poller = ZMQPoller()
        poller.add(subscriber)
        while ContinuousClock.now < deadline {
            guard try poller.poll(timeoutMilliseconds: 20).first == true else { continue }
            if let body = try subscriber.receive().last { bodies.append(String(decoding: body, as: UTF8.self)) }
        }
        return bodies
    }
}

/// Every acknowledgement a keeper received, in order, and the invariants the log must meet.
final class AcknowledgementRecord: Sendable {
    struct Acknowledgement {
        var origin: CommandOrigin
        var sequence: Int64
        var term: Int64
        var receivedAt: ContinuousClock.Instant
    }

    private let acknowledgements = Mutex<[Acknowledgement]>([])

    func add(origin: CommandOrigin, sequence: Int64, epoch: String) {
        let term = Epoch.number(epoch) ?? -1
        acknowledgements.withLock { $0.append(Acknowledgement(origin: origin, sequence: sequence, term: term, receivedAt: .now)) }
    }

    func count(term: Int64) -> Int { acknowledgements.withLock { $0.count { $0.term == term } } }
    func first(term: Int64) -> Acknowledgement? { acknowledgements.withLock { $0.first { $0.term == term } } }
    /// How many were received after `instant`.
    func count(after instant: ContinuousClock.Instant) -> Int {
        acknowledgements.withLock { $0.count { $0.receivedAt > instant } }
    }

    /// What the log says of the acknowledgements.
    struct Verdict {
        var acknowledged = 0
        /// Acknowledged commands missing from the log.
        var lost = 0
        /// Commands in the log more than once.
        var duplicated = 0
        /// Terms out of order (by sequence, or by the order received).
        var orderViolations = 0
        var failures: [String] = []
    }

    /// Checks the invariants (``AcknowledgementCheck``, ``TermCheck``): every acknowledged
    /// command is in the log exactly once, at the sequence it was acknowledged with; the term
    /// never goes down as the sequence goes up; no acknowledgement of a term comes after one of a
    /// higher term.
    func check(against logged: [GameEvent]) -> Verdict {
        let acknowledged = acknowledgements.withLock { $0 }
        let presence = AcknowledgementCheck(acknowledged: acknowledged.map(\.origin), found: logged.map(\.origin))
        var verdict = Verdict(
            acknowledged: acknowledged.count, lost: presence.missing.count, duplicated: presence.duplicated.count)
        if !presence.holds { verdict.failures.append(presence.summary) }
        let loggedAt = Dictionary(logged.map { ($0.origin, $0.sequence) }) { first, _ in first }
        for ack in acknowledged where loggedAt[ack.origin].map({ $0 != ack.sequence }) ?? false {
            verdict.failures.append("\(ack.origin.commandID) acknowledged at \(ack.sequence), logged at \(loggedAt[ack.origin]!)")
        }
        let decreases = TermCheck.termDecreases(acknowledged.map { ($0.sequence, $0.term) })
        let stale = TermCheck.staleAcknowledgements(acknowledged.map(\.term))
        verdict.orderViolations = decreases.count + stale.count
        verdict.failures += decreases.map { "term \($0.after.term) at sequence \($0.after.sequence), after \($0.before.term)" }
        verdict.failures += stale.map { "acknowledgement \($0.index) of term \($0.term) after one of term \($0.newest)" }
        return verdict
    }
}
