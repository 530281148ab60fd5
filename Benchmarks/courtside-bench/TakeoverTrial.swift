import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import CourtsideSimulator
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 32's takeover: two courtsided on one PostgreSQL log, a keeper listing both endpoints,
/// kill -9 of the active one at a random moment of its moves. Measured: the time from the kill
/// to the first move acknowledged under a higher term (through the standby, once it holds the
/// lease): the lease running out, the standby's next look at it, and the keeper's own timeout.
struct TakeoverTrial {
    var games: Int
    var courtsided: String?
    /// The daemons' `lease_ms`.
    var leaseMilliseconds: Int
    /// How long the keeper waits for a reply before it tries the next endpoint.
    var keeperTimeoutMilliseconds: Int32

    /// Runs one trial on a new log of `storage`, every daemon stopped at the end.
    func run(on storage: BenchStorage) throws -> Duration {
        let storageConfig = try storage.newLogConfig(leaseMilliseconds: leaseMilliseconds)
        let active = try RunningDaemon(games: games, courtsided: courtsided, extraConfig: storageConfig)
        defer { active.stop() }
        try Self.waitUntilAnswering(active.command) { $0.ok }
        let standby = try RunningDaemon(games: games, courtsided: courtsided, extraConfig: storageConfig)
        defer { standby.stop() }
        try Self.waitUntilAnswering(standby.command) { $0.error?.code == .notActive }

        let acknowledged = TermRecord()
        let stop = StopFlag()
        let endpoints = "\(active.command),\(standby.command)"
        let timeout = keeperTimeoutMilliseconds
        let keeper = BlockingThread<Void, Never> {
            // Rebounds in g0 by its home player: they score nothing, so the game never ends.
            let client = CommandClient(endpoint: endpoints, clientID: "takeover", timeoutMilliseconds: timeout)
            while !stop.isSet {
                guard let reply = try? client.send(.move(game: GameID("g0"), player: PlayerID("p0"), move: .rebound)),
                    reply.ok, let term = Epoch.number(reply.epoch)
                else { continue }
                acknowledged.add(term: term)
            }
        }
        defer {
            stop.set()
            _ = keeper.wait()
        }
        guard let first = acknowledged.wait(for: .seconds(10), until: { $0.first?.term }) else {
            throw BenchError("the keeper had no move acknowledged by the active daemon within 10 s")
        }
        usleep(UInt32.random(in: 200_000..<1_000_000))
        kill(active.processIdentifier, SIGKILL)
        let killed = ContinuousClock.now
        guard
            let taken = acknowledged.wait(for: .seconds(30), until: { $0.first { $0.term > first }?.at })
        else {
            throw BenchError("no move was acknowledged under a term above \(first) within 30 s of the kill")
        }
        return taken - killed
    }

    /// Asks `endpoint` for a snapshot of g0 until `accept` takes its reply (at most 60 s).
    private static func waitUntilAnswering(_ endpoint: String, accept: (Reply) -> Bool) throws {
        let client = CommandClient(endpoint: endpoint, clientID: "probe", timeoutMilliseconds: 1_000, attempts: 1)
        let deadline = ContinuousClock.now + .seconds(60)
        var last = "nothing"
        while ContinuousClock.now < deadline {
            do {
                let reply = try client.send(.snapshot(game: GameID("g0")))
                if accept(reply) { return }
                last = reply.error.map { "\($0.code.rawValue): \($0.message)" } ?? "ok"
            } catch {
                last = "\(error)"
            }
            usleep(50_000)
        }
        throw BenchError("courtsided at \(endpoint) did not answer as expected within 60 s; it last answered \(last)")
    }
}

/// The terms of the moves a keeper had acknowledged, in order, and when each reply came.
final class TermRecord: Sendable {
    struct Acknowledgement: Sendable {
        var term: Int64
        var at: ContinuousClock.Instant
    }

    private let acknowledgements = Mutex<[Acknowledgement]>([])

    func add(term: Int64) {
        let now = ContinuousClock.now
        acknowledgements.withLock { $0.append(Acknowledgement(term: term, at: now)) }
    }

    /// Polls until `found` finds something in the acknowledgements, for at most `timeout`.
    func wait<T: Sendable>(for timeout: Duration, until found: ([Acknowledgement]) -> T?) -> T? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let value = acknowledgements.withLock({ found($0) }) { return value }
            usleep(5_000)
        }
        return nil
    }
}
