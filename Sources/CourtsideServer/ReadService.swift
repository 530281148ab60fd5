import CourtsideLibrary
import CourtsideModel
import CourtsideProtocol
import CourtsideThreads
import CourtsideTransport
import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Answers reads (snapshots, lists, schedule, standings, log) off the command path.
///
/// A read never waits behind a command nor holds one up: the command loop only hands it over.
/// Reads of the committed state are served on a thread of their own at a lower scheduling
/// priority, so that on a busy machine a display's snapshot of 10,000 games takes what the
/// keepers leave rather than the other way round; `log` reads the disk, on a queue of its own.
/// Both queues are bounded: a flood of reads gets `overloaded`, not the keepers. Games go out
/// as JSON cached until they change. Reads of the whole tournament by a display that asks for
/// them again and again are paced (`ReadPacer`): the work of sending them is done at the
/// keepers' priority.
final class ReadService: Sendable {
    /// A read handed over by the command loop, decoded and allowed.
    struct Read: Sendable {
        let incoming: IncomingRequest
        /// The client's id, as the log would show it (after its key's name on a secured daemon).
        let clientID: String
        let commandID: String
        let operation: Request.Operation
        let op: String
    }

    private struct Queue {
        var reads: [Read] = []
        var closed = false
        var onDrained: CheckedContinuation<Void, Never>?
    }

    /// The reader thread's niceness: 10 gives it about a tenth of a core's share against the
    /// command path's threads when both want the CPU, and all of it when they do not.
    static let readerNiceness: Int32 = 10

    /// Replies this large in all since the reader thread last went quiet make it give freed
    /// memory back once it has: a resync storm's replies would otherwise stay in the RSS.
    static let trimAfterBytes = 4 << 20

    private let library: GameLibrary
    /// The tournament's config as it stands now, for the `tournament` read.
    private let setup: @Sendable () -> TournamentConfiguration
    private let responder: Responder
    private let limit: Int
    /// The pace of whole-tournament replies, in bytes per second (0: unpaced).
    private let pace: Double
    /// Whole-tournament reads the reader thread holds back for the pace; they count against `limit`.
    private let waitingCount = Atomic<Int>(0)
    private let encoded = EncodedGames()
    private let queue = Mutex(Queue())
    private let wake = DispatchSemaphore(value: 0)
    private let logReads: AsyncStream<Read>
    private let logQueue: AsyncStream<Read>.Continuation

    /// `limit` reads may wait in each queue; replies go out at most `pace` bytes a second, and
    /// whole-tournament reads of a display that asked for one within 5 s wait for it (0: none).
    init(
        library: GameLibrary, responder: Responder, limit: Int, pace: Double,
        setup: @escaping @Sendable () -> TournamentConfiguration
    ) {
        self.setup = setup
        self.library = library
        self.responder = responder
        self.limit = limit
        self.pace = pace
        (logReads, logQueue) = AsyncStream.makeStream(bufferingPolicy: .bufferingOldest(limit))
    }

    /// Queues a batch's reads in order, or answers those its queue has no room for at once.
    ///
    /// One hand-over for the batch: a resync storm's thousand reads, handed over one by one,
    /// woke the reader thread for nearly every one (it takes each as it comes), and the moves
    /// in the same batch waited for those wakes on the I/O thread.
    func submit(_ reads: [Read]) {
        var inMemory: [Read] = []
        inMemory.reserveCapacity(reads.count)
        for read in reads {
            guard case .log = read.operation else {
                inMemory.append(read)
                continue
            }
            switch logQueue.yield(read) {
            case .enqueued: break
            case .dropped: refuse(read, closed: false)
            case .terminated: refuse(read, closed: true)
            @unknown default: refuse(read, closed: true)
            }
        }
        guard !inMemory.isEmpty else { return }
        let (queued, wake, closed) = queue.withLock { queue -> (Int, Bool, Bool) in
            if queue.closed { return (0, false, true) }
            let room = max(0, limit - queue.reads.count - waitingCount.load(ordering: .relaxed))
            let queued = min(room, inMemory.count)
            let wake = queue.reads.isEmpty && queued > 0
            queue.reads.append(contentsOf: inMemory.prefix(queued))
            return (queued, wake, false)
        }
        if wake { self.wake.signal() }
        for read in inMemory.dropFirst(queued) { refuse(read, closed: closed) }
    }

    private func refuse(_ read: Read, closed: Bool) {
        let error =
            closed
            ? CourtsideError(.shuttingDown, "courtsided is shutting down")
            : CourtsideError(.overloaded, "courtsided has too many reads waiting; retry shortly")
        responder.fail(read.incoming, error, commandID: read.commandID, op: read.op)
    }

    /// Serves both queues until ``finish()``, answering what was queued before it.
    func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await read in self.logReads { self.respond(to: read, with: await self.log(read)) }
            }
            group.addTask {
                await withCheckedContinuation { drained in
                    self.queue.withLock { $0.onDrained = drained }
                    startThread(named: "courtside.reads") {
                        self.serveInMemoryReads()
                    }
                }
            }
        }
    }

    /// Takes no more reads; ``run()`` returns once the queued ones are answered.
    func finish() {
        queue.withLock { $0.closed = true }
        wake.signal()
        logQueue.finish()
    }

    // MARK: - The reader thread

    private func serveInMemoryReads() {
        #if canImport(Glibc)
            // On Linux a thread's nice value is its own; 0 names the calling thread.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.readerNiceness)
        #endif
        // A second without reads ends a burst; libzmq has sent (and freed) its replies by then.
        var trimmer = IdleTrimmer(after: Self.trimAfterBytes)
        var pacer = ReadPacer(bytesPerSecond: pace, now: .now)
        // Whole-tournament reads waiting for the pacer, oldest first; other reads that come
        // meanwhile are answered at once.
        var waiting: [Read] = []
        func serve(_ read: Read) {
            let bytes = respond(to: read, with: answer(read))
            trimmer.did(bytes)
            pacer.spent(bytes, now: .now)
        }
        while true {
            if waiting.isEmpty {
                guard trimmer.wait(wake, atBurstEnd: encoded.forget) else { continue }
            } else {
                let delay = pacer.delay(now: .now)
                if delay > .zero { _ = wake.wait(timeout: .now() + delay.inSeconds) }
            }
            let (batch, closed) = queue.withLock { queue in
                defer { queue.reads = [] }
                return (queue.reads, queue.closed)
            }
            for read in batch {
                if pacer.paces(read.operation, client: read.clientID, now: .now) {
                    waiting.append(read)
                } else {
                    serve(read)
                }
            }
            // Shutting down, the waiting reads are answered at once: the daemon has 2 s to stop.
            while !waiting.isEmpty, closed || pacer.delay(now: .now) == .zero {
                serve(waiting.removeFirst())
            }
            waitingCount.store(waiting.count, ordering: .relaxed)
            guard closed else { continue }
            let drained: CheckedContinuation<Void, Never>? = queue.withLock { queue in
                guard queue.reads.isEmpty else { return nil }
                defer { queue.onDrained = nil }
                return queue.onDrained
            }
            if let drained {
                drained.resume()
                return
            }
            wake.signal()  // more raced in before the close: go round again
        }
    }

    private typealias Answer = (reply: Reply, members: [(key: String, elements: [[UInt8]])])

    private func answer(_ read: Read) -> Result<Answer, CourtsideError> {
        Result { () throws(CourtsideError) -> Answer in
            var reply = Reply(commandID: read.commandID, epoch: responder.epoch)
            switch read.operation {
            case .listGames:
                let snapshot = library.committedGames()
                reply.sequence = snapshot.sequence
                return (reply, [("games", encoded.summaries(snapshot.value))])
            case .snapshot(let game?):
                let snapshot = try library.snapshot(of: game)
                reply.sequence = snapshot.sequence
                return (reply, [("snapshot", [encoded.game(snapshot.value)])])
            case .snapshot(nil):
                let snapshot = library.tournamentSnapshot()
                (reply.sequence, reply.standings, reply.bracket) = (
                    snapshot.sequence, snapshot.value.standings, snapshot.value.bracket
                )
                return (reply, [("snapshot", encoded.games(snapshot.value.games))])
            case .schedule:
                let bracket = library.bracket()
                (reply.sequence, reply.bracket) = (bracket.sequence, bracket.value)
            case .standings:
                let standings = library.standings()
                (reply.sequence, reply.standings) = (standings.sequence, standings.value)
            case .tournament:
                // The config as it stands (reloads merged) with the organiser's changes laid over
                // it, and the games created at run time.
                let configuration = setup()
                let games = library.committedGames()
                let schedule = library.currentSchedule ?? configuration.schedule
                let scheduled = Set(schedule.games.map(\.id))
                let others = games.value.ids.filter { !scheduled.contains($0) }.compactMap { games.value[$0]?.setup }
                reply.sequence = games.sequence
                reply.tournament = TournamentSetup(name: configuration.name, schedule: schedule, otherGames: others)
                reply.tournament?.language = configuration.language
            case .log, .move, .retract, .clock, .timeout, .createGame, .forfeit, .endGame, .changeTournament, .scheduleGame:
                preconditionFailure("\(read.op) is not a read of the committed state")
            }
            return (reply, [])
        }
    }

    private func log(_ read: Read) async -> Result<Answer, CourtsideError> {
        guard case .log(let game) = read.operation else { preconditionFailure("\(read.op) is not a log read") }
        var reply = Reply(commandID: read.commandID, epoch: responder.epoch)
        do throws(CourtsideError) {
            reply.events = try await library.log(of: game)
        } catch {
            return .failure(error)
        }
        return .success((reply, []))
    }

    /// Sends the answer; returns the bytes of its cached members, about the reply's size.
    @discardableResult
    private func respond(to read: Read, with answer: Result<Answer, CourtsideError>) -> Int {
        switch answer {
        case .success(let answer):
            responder.send(read.incoming, answer.reply, op: read.op, appending: answer.members)
            return answer.members.reduce(0) { sum, member in member.elements.reduce(sum) { $0 + $1.count } }
        case .failure(let error):
            responder.fail(read.incoming, error, commandID: read.commandID, op: read.op)
        }
        return 0
    }
}
