import CourtsideLibrary
import CourtsideModel
import CourtsideProtocol
import CourtsideTransport
import Logging
import Metrics
import ServiceLifecycle
import Synchronization

/// Publishes every committed event, and a heartbeat at a fixed period, on the event endpoint.
///
/// Heartbeats and game beats state only what has been published, never what is committed but
/// not yet sent, so a display never mistakes an event in flight for a gap.
///
/// A quiet daemon encodes and hands over events on the transport's I/O thread, a busy one on the
/// pool: see ``publishAll()``. The group tables, whose cost grows with the schedule, are built
/// on the pool.
final class EventPublisher: Service {
    private struct Published {
        var sequence: Int64
        var versions: [GameID: Int]
        /// Games changed since their last beat: they get one at the next heartbeat.
        var changed: Set<GameID> = []
        /// Every game in the order the round of beats visits them, and where the round is.
        var order: [GameID]
        var cursor = 0
        var standings: [GroupStandings] = []
        var bracket: [BracketEntry] = []

        /// The games to beat now: the changed ones, and the round's next share of the rest.
        mutating func takeBeats() -> [(GameID, Int)] {
            var due = changed
            changed = []
            let share = (order.count + ProtocolVersion.beatCycleHeartbeats - 1) / ProtocolVersion.beatCycleHeartbeats
            for _ in 0..<share {
                due.insert(order[cursor % order.count])
                cursor = (cursor + 1) % order.count
            }
            return due.sorted().compactMap { id in versions[id].map { (id, $0) } }
        }
    }

    let transport: ZMQTransport
    let library: GameLibrary
    let updates: AsyncStream<[GameUpdate]>
    let epoch: String
    let heartbeatPeriod: Duration
    let clock: any TimeSource
    /// Made once: a handle per event would look the metric up in the registry every time.
    private let publishedEvents = Counter(label: "courtside_events_published_total")
    let logger: Logger
    private let published: Mutex<Published>
    /// A commit moved the tournament: its tables are due. At most one waits, since the tables
    /// are built from the latest committed state anyway.
    private let tablesDue: (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation) =
        AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))

    /// `start` is the snapshot taken right after subscribing to `updates`.
    init(
        transport: ZMQTransport, library: GameLibrary, updates: AsyncStream<[GameUpdate]>, start: Snapshot<[Game]>,
        epoch: String, heartbeatPeriod: Duration, clock: any TimeSource, logger: Logger
    ) {
        self.transport = transport
        self.library = library
        self.updates = updates
        self.epoch = epoch
        self.heartbeatPeriod = heartbeatPeriod
        self.clock = clock
        self.logger = logger
        var versions: [GameID: Int] = [:]
        for game in start.value { versions[game.id] = game.version }
        published = Mutex(
            Published(
                sequence: start.sequence, versions: versions, order: start.value.map(\.id),
                standings: library.standings().value, bracket: library.bracket().value))
    }

    func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.heartbeats() }
            await withDiscardingTaskGroup { tables in
                tables.addTask {
                    for await _ in self.tablesDue.stream { self.publishTournament() }
                }
                // Ends when the library closes, after its last event, so nothing committed goes unpublished.
                await withTaskExecutorPreference(transport) { await publishAll() }
                // The tables still due go out first.
                tablesDue.continuation.finish()
            }
            group.cancelAll()
        }
        heartbeat()
        // The stream ends when the command service closes the library, which happens during
        // shutdown but before this service's turn; returning early would look like a failure.
        try? await gracefulShutdown()
    }

    /// Publishes every commit as it comes: on the I/O thread while the daemon is quiet, on the
    /// pool while it is busy.
    ///
    /// A lone keeper's commit is made on the I/O thread, and published there in the same cycle
    /// it needs no trip through the pool and back: two thread wake-ups fewer per move, and no
    /// pool thread taking the other core from the next request (context switches per lone move
    /// 9.7 -> 6.5 in `courtside-bench daemon --keepers 1`). Under load the I/O thread is the one
    /// every request and reply passes through, and encoding there cost `--keepers 16 --window 32`
    /// about a tenth of its moves/s; so while commits are under way, or a commit is large, events
    /// are published on the pool, until a small commit comes.
    ///
    /// The way back asks only the commit's size: the pool resumes the publisher a wake-up after
    /// the commit, by when a lone keeper's next move is often being committed, so asking whether
    /// commits are under way there kept a lone keeper's events on the pool.
    private func publishAll() async {
        var commits = updates.makeAsyncIterator()
        var pending = await commits.next()
        while let commit = pending {
            if isSmall(commit), !library.isCommitting {
                publish(commit)
                pending = await commits.next()
                continue
            }
            pending = await withTaskExecutorPreference(globalConcurrentExecutor) { () async -> [GameUpdate]? in
                var commit = commit
                while true {
                    publish(commit)
                    guard let next = await commits.next() else { return nil }
                    if isSmall(next) { return next }
                    commit = next
                }
            }
        }
    }

    private func isSmall(_ commit: [GameUpdate]) -> Bool { commit.count <= Self.publishedOnIOThread }

    /// The most events of one commit published on the I/O thread, when no commit is under way.
    static let publishedOnIOThread = 4

    /// Publishes one commit's events, handed to the transport together, and has the tables
    /// published after them if any of them moved the tournament.
    private func publish(_ commit: [GameUpdate]) {
        let after = published.withLock { $0.sequence }
        // A commit's events are in sequence order: those already published lead, if any.
        let fresh = commit.drop { $0.event.sequence <= after }
        guard let last = fresh.last else { return }
        var messages: [(topic: [UInt8], body: [UInt8])] = []
        messages.reserveCapacity(fresh.count)
        for update in fresh {
            let topic = Topic.events(of: update.event.gameID)
            if let body = encode(EventMessage(epoch: epoch, event: update.event, game: update.game), on: topic) {
                messages.append((topic, body))
            }
        }
        transport.publish(messages)
        publishedEvents.increment(by: Int64(fresh.count))
        published.withLock { published in
            published.sequence = last.event.sequence
            for update in fresh {
                let event = update.event
                if published.versions.updateValue(event.version, forKey: event.gameID) == nil {
                    published.order.append(event.gameID)
                }
                published.changed.insert(event.gameID)
            }
        }
        if fresh.contains(where: movesTournament) { tablesDue.continuation.yield() }
    }

    /// Only these change a group table or the bracket: a game appearing or getting its teams,
    /// starting, ending, or having a result retracted.
    private func movesTournament(_ update: GameUpdate) -> Bool {
        switch update.event.kind {
        case .gameCreated, .teamsAssigned, .retraction, .clockStarted: return true
        default: return update.game.isFinished
        }
    }

    private func publishTournament() {
        guard library.currentSchedule != nil else { return }
        // One snapshot for both, stamped with the sequence it reflects (it may be ahead of the
        // events published, never behind: they were handed over before the tables were due).
        let tables = library.tables()
        let (standings, bracket, sequence) = (tables.value.standings, tables.value.bracket, tables.sequence)
        let (standingsChanged, bracketChanged) = published.withLock { published in
            defer { (published.standings, published.bracket) = (standings, bracket) }
            return (published.standings != standings, published.bracket != bracket)
        }
        if standingsChanged {
            let message = StandingsMessage(epoch: epoch, sequence: sequence, groups: standings)
            send(message, on: Topic.standings)
        }
        if bracketChanged {
            let message = BracketMessage(epoch: epoch, sequence: sequence, games: bracket)
            send(message, on: Topic.bracket)
        }
    }

    private func heartbeats() async {
        while !Task.isCancelled {
            heartbeat()
            try? await Task.sleep(for: heartbeatPeriod)
        }
    }

    /// One heartbeat, of a constant size whatever the number of games, then the game beats due.
    private func heartbeat() {
        let (sequence, beats) = published.withLock { ($0.sequence, $0.takeBeats()) }
        send(HeartbeatMessage(epoch: epoch, sequence: sequence, at: clock.now()), on: Topic.heartbeat)
        for (game, version) in beats {
            send(GameBeatMessage(epoch: epoch, game: game, version: version), on: Topic.beat(of: game))
        }
    }

    /// Publishes a message, or logs and skips one that cannot be encoded: a display then sees a
    /// gap and resyncs, which is better than a message that claims to be something it is not.
    private func send(_ message: some Encodable, on topic: [UInt8]) {
        if let body = encode(message, on: topic) { transport.publish(topic: topic, body: body) }
    }

    private func encode(_ message: some Encodable, on topic: [UInt8]) -> [UInt8]? {
        do {
            return try WireCoding.encode(message)
        } catch {
            logger.error(
                "a message could not be encoded; not published",
                metadata: ["topic": "\(String(decoding: topic, as: UTF8.self))", "error": "\(error)"])
            return nil
        }
    }
}
