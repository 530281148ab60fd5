import CourtsideClient
import CourtsideModel
import CourtsidePostgresTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Two courtsided on one PostgreSQL, each reaching it through a proxy of its own; the active
/// one's proxy black-holes for three leases, twenty times.
@Suite(
    "an active daemon partitioned from PostgreSQL", .serialized, .timeLimit(.minutes(4)),
    .enabled(if: TestPostgresServer.isInstalled, "\(TestPostgresServer.notInstalled)"))
struct LeasePartitionTests {
    /// Short, so that twenty partitions of three leases take well under two minutes.
    static let leaseMilliseconds = 400
    static let rounds = 20

    static func storage(_ server: TestPostgresServer, through proxy: BlackHoleProxy, lease: Int = leaseMilliseconds)
        -> String
    {
        """
        storage:
          postgresql:
            hosts: ["127.0.0.1:\(proxy.port)"]
            database: \(server.configuration.database)
            user: \(server.configuration.user)
            lease_ms: \(lease)

        """
    }

    @Test(
        "SIGTERM to the active daemon while its database is black-holed and a move waits for its commit: it stops within 2.5 s (the lease far from spent), never by a fatal error"
    )
    func stopWhilePartitioned() throws {
        let server = try TestPostgresServer()
        defer { server.stop() }
        let proxy = try BlackHoleProxy(toPort: server.configuration.hosts[0].port)
        defer { proxy.stop() }
        let daemon = try DaemonProcess(extraConfig: Self.storage(server, through: proxy, lease: 10_000))
        try #require(daemon.notify.wait(containing: "active (term 1)", seconds: 10), "\(daemon.log())")
        proxy.blackHole()
        // A move whose commit cannot reach the database: its reply never comes.
        let client = CommandClient(endpoint: daemon.commandEndpoint, clientID: "court-1", timeoutMilliseconds: 300, attempts: 1)
        #expect((try? client.send(.move(game: "g1", player: "ann", move: .assist))) == nil)
        daemon.signal(SIGTERM)
        let took = daemon.waitForExit(seconds: 10)
        #expect(took.map { $0 < 2.5 } == true, "stopped after \(took.map { "\($0) s" } ?? "more than 10 s")")
        #expect(daemon.exitStatus.map { $0 < 128 } == true, "exit status \(daemon.exitStatus.map(String.init) ?? "-")")
        #expect(!daemon.log().contains("Fatal error"), "\(daemon.log().suffix(3000))")
        proxy.heal()
    }

    @Test(
        "black-holed for three leases, 20 times: the active daemon steps down and is a standby again within a second each time, in the same process, never by a crash; the other takes over"
    )
    func partitions() throws {
        let server = try TestPostgresServer()
        defer { server.stop() }
        let port = server.configuration.hosts[0].port
        let proxies = [try BlackHoleProxy(toPort: port), try BlackHoleProxy(toPort: port)]
        defer { for proxy in proxies { proxy.stop() } }
        let first = try DaemonProcess(extraConfig: Self.storage(server, through: proxies[0]))
        try #require(first.notify.wait(containing: "active (term 1)", seconds: 10), "\(first.log())")
        let second = try DaemonProcess(extraConfig: Self.storage(server, through: proxies[1]))
        try #require(second.notify.wait(containing: "STATUS=standby", seconds: 10), "\(second.log())")
        let daemons = [first, second]
        let processes = daemons.map(\.processIdentifier)
        var steppedDown: [Int] = []
        for round in 1...Self.rounds {
            // Who is active, and in which term: the highest term either has announced. Counted
            // afresh each round: on a loaded machine a 400 ms lease can also lapse without a
            // partition (a pause), and the other daemon, or the same, then takes a term more.
            for daemon in daemons { daemon.notify.receiveArrived() }
            let terms = daemons.map { Self.highestActiveTerm($0.notify) ?? 0 }
            let active = terms[1] > terms[0] ? 1 : 0
            let (holder, term) = (daemons[active], terms[active])
            let stepDowns = holder.notify.received.filter { $0.contains("(stepped down ") }.count
            let partitioned = ContinuousClock.now
            proxies[active].blackHole()
            // It steps down as its lease runs out, and says how long it took to be a standby again.
            let notices = holder.notify.wait(count: stepDowns + 1, containing: "(stepped down ", seconds: 10)
            guard notices.count == stepDowns + 1, let milliseconds = Self.steppedDownMilliseconds(notices.last!) else {
                Issue.record(
                    "round \(round): no step-down to standby:\n\(holder.log().suffix(3000))\nthe other:\n\(daemons[1 - active].log().suffix(3000))"
                )
                return
            }
            steppedDown.append(milliseconds)
            #expect(milliseconds < 1000, "round \(round): a standby again \(milliseconds) ms after stepping down")
            // The other takes over in a later term (or, once healed, the same one takes it back).
            var taker: Int?
            let deadline = ContinuousClock.now + .seconds(10)
            while taker == nil, ContinuousClock.now < deadline {
                daemons[1 - active].notify.receiveArrived()
                if (Self.highestActiveTerm(daemons[1 - active].notify) ?? 0) > term {
                    taker = 1 - active
                } else if ContinuousClock.now - partitioned > .milliseconds(3 * Self.leaseMilliseconds) {
                    holder.notify.receiveArrived()
                    if (Self.highestActiveTerm(holder.notify) ?? 0) > term { taker = active }
                }
                if taker == nil, ContinuousClock.now - partitioned >= .milliseconds(3 * Self.leaseMilliseconds) {
                    proxies[active].heal()
                }
            }
            // Healed three leases after it was cut, whatever came first.
            let healAt = partitioned + .milliseconds(3 * Self.leaseMilliseconds)
            if ContinuousClock.now < healAt { Thread.sleep(forTimeInterval: Double((healAt - .now).inMilliseconds) / 1000) }
            proxies[active].heal()
            guard taker != nil else {
                Issue.record("round \(round): nobody took a term after \(term) over:\n\(daemons[1 - active].log().suffix(3000))")
                return
            }
            let running = daemons.allSatisfy { $0.isRunning }
            #expect(running, "round \(round): a daemon ended")
        }
        #expect(daemons.map(\.processIdentifier) == processes)
        for daemon in daemons {
            #expect(!daemon.log().contains("Fatal error"), "\(daemon.log().suffix(3000))")
        }
        let sorted = steppedDown.sorted()
        print(
            "lease-partitions rounds=\(Self.rounds) lease_ms=\(Self.leaseMilliseconds) stepped_down_to_standby_ms median=\(sorted[sorted.count / 2]) max=\(sorted.last ?? -1) all=\(steppedDown)"
        )
    }

    /// The highest term a daemon has said it is active in (`STATUS=active (term N)`), of what its
    /// listener has received so far.
    static func highestActiveTerm(_ notify: NotifyListener) -> Int64? {
        notify.received.compactMap { datagram -> Int64? in
            guard let range = datagram.range(of: #"active \(term \d+\)"#, options: .regularExpression) else { return nil }
            return Int64(datagram[range].dropFirst("active (term ".count).dropLast())
        }.max()
    }

    /// The milliseconds from a step-down to a standby again, from the status a standby says then.
    static func steppedDownMilliseconds(_ notice: String) -> Int? {
        guard let range = notice.range(of: #"stepped down (\d+) ms ago"#, options: .regularExpression) else { return nil }
        return Int(notice[range].split(separator: " ")[2])
    }
}
