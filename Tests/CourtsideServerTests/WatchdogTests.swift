import CourtsideLibrary
import CourtsideModel
import CourtsideServer
import CourtsideStorage
import CourtsideTransport
import Foundation
import Logging
import Synchronization
import Testing
import ZeroMQ

/// The real SQLite log behind a gate: while the gate is shut, `append` blocks the writer thread
/// as a disk stuck in fsync would.
final class StallingLog: ForwardingEventLog {
    let base: any EventLog
    private let shut = Mutex(false)
    private let opened = DispatchSemaphore(value: 0)

    init(_ base: any EventLog) { self.base = base }

    func stall() { shut.withLock { $0 = true } }
    func resume() {
        shut.withLock { $0 = false }
        opened.signal()
    }

    func append(_ events: [GameEvent], refusals: [CommandRefusal]) throws {
        if shut.withLock({ $0 }) { opened.wait() }
        try base.append(events, refusals: refusals)
    }
}

@Suite("the systemd watchdog", .timeLimit(.minutes(1)))
struct WatchdogTests {
    static func team(_ id: String, _ player: String) -> Team {
        Team(id: TeamID(id), name: id.capitalized, players: [Player(id: PlayerID(player), name: player.capitalized)])
    }

    @Test("a stalled log writer withholds the ping; it comes back once the writer commits")
    func stalledWriter() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courtside-watchdog-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = StallingLog(try SQLiteEventLog(directory: directory))
        let library = try GameLibrary(log: log, logger: Logger(label: "courtside.test"))
        let setup = GameSetup(id: "g1", home: Self.team("lions", "ann"), away: Self.team("tigers", "di"))
        _ = try await library.createGame(setup, origin: CommandOrigin(clientID: "t", commandID: "create"))

        var check = WatchdogCheck(commitBound: .milliseconds(200))
        var cycles: UInt64 = 0
        func ping() -> String? {
            cycles += 1  // a healthy I/O thread, so only the writer decides
            return check.problem(ioCycles: cycles, oldestPendingCommit: library.oldestPendingCommit)
        }
        #expect(ping() == nil)
        #expect(library.oldestPendingCommit == nil)

        log.stall()
        let pending = await library.submit(
            .move(player: "ann", move: .twoPoints), to: "g1", origin: CommandOrigin(clientID: "t", commandID: "1"))
        // Wait for the stall to pass the bound, however slow this machine is today.
        while (library.oldestPendingCommit ?? .zero) <= check.commitBound {
            try await Task.sleep(for: .milliseconds(20))
        }
        let problem = ping()
        #expect(problem?.contains("writer is stuck") == true)

        log.resume()
        #expect(try await pending.value().version == 2)
        #expect(ping() == nil)
        await library.close()
    }

    @Test("an I/O thread that stops turning withholds the ping, naming a command stuck with it")
    func hungIOThread() {
        var check = WatchdogCheck()
        #expect(check.problem(ioCycles: 10, oldestPendingCommit: nil) == nil)
        #expect(check.problem(ioCycles: 11, oldestPendingCommit: .milliseconds(3)) == nil)
        #expect(check.problem(ioCycles: 11, oldestPendingCommit: nil)?.contains("I/O thread") == true)
        #expect(check.problem(ioCycles: 12, oldestPendingCommit: nil) == nil)
        // A quiet daemon commits on the I/O thread: a disk stuck in fsync stops both.
        let both = check.problem(ioCycles: 12, oldestPendingCommit: .milliseconds(600))
        #expect(both?.contains("I/O thread") == true && both?.contains("a command has waited") == true)
    }

    @Test("an idle transport still completes a poll cycle every poll interval")
    func idleTransportTurns() async throws {
        var configuration = TransportConfiguration(commandEndpoint: "tcp://127.0.0.1:*", eventEndpoint: "tcp://127.0.0.1:*")
        configuration.pollIntervalMilliseconds = 20
        let transport = try await ZMQTransport.start(configuration, logger: Logger(label: "courtside.test"))
        // Nothing arrives, yet the count grows: every poll times out and the loop goes round.
        let before = transport.completedCycles
        let deadline = ContinuousClock.now + .seconds(10)
        while transport.completedCycles < before + 3, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(transport.completedCycles >= before + 3)
        await transport.stop()
    }
}

@Suite("the transport's start and stop")
struct TransportLifecycleTests {
    /// Threads of this process with that name (Linux keeps 15 characters of it).
    static func threads(named name: String) -> Int { threadIDs(named: name).count }

    /// The ids of this process's threads with that name.
    static func threadIDs(named name: String) -> [Int] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            return comm.trimmingCharacters(in: .whitespacesAndNewlines) == String(name.prefix(15)) ? Int(task) : nil
        }
    }

    /// The highest id among this process's threads: Linux numbers new threads upwards.
    static func highestThreadID() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).compactMap { Int($0) }.max() ?? 0
    }

    @Test("requests come in arrival order, a poll cycle's worth at a time; past the queue's limit each is answered at once")
    func requestBatchesAndLimit() async throws {
        var configuration = TransportConfiguration(commandEndpoint: "tcp://127.0.0.1:*", eventEndpoint: "tcp://127.0.0.1:*")
        configuration.requestQueueLimit = 5
        configuration.overloadedReply = { frames in Array("busy ".utf8) + (frames.last ?? []) }
        let transport = try await ZMQTransport.start(configuration, logger: Logger(label: "courtside.test"))
        let (context, dealer) = try Self.dealer(to: transport)
        // Nobody takes requests yet: the first five wait, the other fifteen are answered by the I/O thread.
        for index in 0..<20 { try dealer.send([[], Array("r\(index)".utf8)]) }
        var answered: [String] = []
        for _ in 0..<15 { answered.append(String(decoding: try dealer.receive().last ?? [], as: UTF8.self)) }
        #expect(answered == (5..<20).map { "busy r\($0)" })
        var taken: [String] = []
        var iterator = transport.requests.makeAsyncIterator()
        while taken.count < 5, let batch = await iterator.next() {
            taken += batch.map { String(decoding: $0.frames.last ?? [], as: UTF8.self) }
        }
        #expect(taken == (0..<5).map { "r\($0)" })
        // Taken, so there is room again.
        try dealer.send([[], Array("later".utf8)])
        let later = await iterator.next()
        #expect(later?.map { String(decoding: $0.frames.last ?? [], as: UTF8.self) } == ["later"])
        dealer.close()
        context.terminate()
        await transport.stop()
    }

    // Limited: a job stranded on the ended thread would otherwise hang the suite, not fail it.
    @Test(
        "a task that prefers the transport runs on its I/O thread, whose replies go out at once, and on the pool once it has stopped",
        .timeLimit(.minutes(1)))
    func transportExecutor() async throws {
        var configuration = TransportConfiguration(commandEndpoint: "tcp://127.0.0.1:*", eventEndpoint: "tcp://127.0.0.1:*")
        configuration.pollIntervalMilliseconds = 50
        let transport = try await ZMQTransport.start(configuration, logger: Logger(label: "courtside.test"))
        let (context, dealer) = try Self.dealer(to: transport)
        // The way the command loop uses it: each request is taken, and answered, on the I/O thread.
        try dealer.send([[], Array("ping".utf8)])
        let dealerBox = UncheckedSendable(dealer)
        let answered = await withTaskExecutorPreference(transport) { () async -> (String?, Bool, [UInt8]?)? in
            var iterator = transport.requests.makeAsyncIterator()
            guard let request = await iterator.next()?.first else { return nil }
            transport.reply(to: request, body: Array("pong".utf8))
            // Sent at once, not when the job ends: the reply is here while this job still runs.
            let reply = try? dealerBox.value.receive().last
            return (Self.threadName(), transport.isIOThread, reply)
        }
        #expect(answered?.0 == ZMQTransport.ioThreadName)
        #expect(answered?.1 == true)
        #expect(answered?.2 == Array("pong".utf8))
        #expect(!transport.isIOThread)
        dealer.close()
        context.terminate()
        await transport.stop()
        // A task that still prefers it is not stranded: it runs on, elsewhere.
        let after = await withTaskExecutorPreference(transport) { (Self.threadName(), transport.isIOThread) }
        #expect(after.0 != ZMQTransport.ioThreadName)
        #expect(!after.1)
    }

    /// A client's DEALER on the transport's command endpoint, in a context of its own.
    private static func dealer(to transport: ZMQTransport) throws -> (ZMQContext, ZMQSocket) {
        let context = try ZMQContext()
        let dealer = try context.socket(.dealer)
        try dealer.set(.linger(milliseconds: 0))
        try dealer.set(.receiveTimeout(milliseconds: 10_000))
        try dealer.connect(transport.boundCommandEndpoint)
        return (context, dealer)
    }

    /// The calling thread's name, as the kernel has it.
    private static func threadName() -> String? {
        (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines)
    }

    @Test("a start that cannot bind throws and leaves no I/O thread behind")
    func failedStartFreesItsThread() async throws {
        var first = TransportConfiguration(commandEndpoint: "tcp://127.0.0.1:*", eventEndpoint: "tcp://127.0.0.1:*")
        first.pollIntervalMilliseconds = 20
        let running = try await ZMQTransport.start(first, logger: Logger(label: "courtside.test"))
        // The running transport's thread is seen by its name, so the check below means something.
        // (Read again for a while: it once read 0, when Foundation could drop the thread's name.)
        var before = Self.threads(named: ZMQTransport.ioThreadName)
        let seen = ContinuousClock.now + .seconds(10)
        while before < 1, ContinuousClock.now < seen {
            try await Task.sleep(for: .milliseconds(20))
            before = Self.threads(named: ZMQTransport.ioThreadName)
        }
        #expect(before >= 1)
        // The command endpoint is free, the event endpoint taken: the failure comes after a bind.
        let clash = TransportConfiguration(commandEndpoint: "tcp://127.0.0.1:*", eventEndpoint: running.boundEventEndpoint)
        let firstNew = Self.highestThreadID() + 1
        await #expect(throws: (any Error).self) {
            _ = try await ZMQTransport.start(clash, logger: Logger(label: "courtside.test"))
        }
        // The failed start's I/O thread is one of those made meanwhile. Tests running beside
        // this one start and stop transports of their own, so the count of all I/O threads
        // says nothing (it once read 3 against 2 before), and one of theirs made in the same
        // moment may still run for a while: wait them out (a leaked thread stays for good).
        let made = firstNew...max(firstNew, Self.highestThreadID())
        let deadline = ContinuousClock.now + .seconds(45)
        while Self.threadIDs(named: ZMQTransport.ioThreadName).contains(where: made.contains), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(!Self.threadIDs(named: ZMQTransport.ioThreadName).contains(where: made.contains))
        await running.stop()
    }
}

/// Hands a value that is not Sendable to the one thread that uses it next (a socket, across a
/// task's hop, which is a full memory barrier).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
