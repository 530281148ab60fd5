import CourtsideLibrary
import CourtsideModel
import CourtsideProtocol
import CourtsideTransport
import Metrics
import ServiceLifecycle
import Synchronization

/// Publishes every committed event, and a heartbeat at a fixed period, on the event endpoint.
///
/// Heartbeats and game beats state only what has been published, never what is committed but
/// not yet sent, so a display never mistakes an event in flight for a gap. Heartbeats also name
/// the sequences of the last standings and bracket sent, so that a display notices a lost one.
final class EventPublisher: Service {
    private struct Published {
        var sequence: Int64
        /// Each game's version, beats owed, start and topic.
        var games: PublishedGames
        var standings: [GroupStandings] = []
        var bracket: [BracketEntry] = []
        /// The sequences of the last standings and bracket handed to the transport, which every
        /// heartbeat announces so that a display notices one it lost.
        var standingsSequence: Int64
        var bracketSequence: Int64
        /// What a failure drill still has to drop.
        var drops: PublishDrops
    }

    let transport: ZMQTransport
    let library: GameLibrary
    let updates: AsyncStream<Commit>
    let epoch: String
    let heartbeatPeriod: Duration
    let clock: any TimeSource
    /// Made once: a handle per event would look the metric up in the registry every time.
    private let publishedEvents = Counter(label: "courtside_events_published_total")
    private let published: Mutex<Published>
    /// Whether a failure drill may drop anything: without one, no event takes the lock for it.
    private let drills: Bool
    /// Among several daemons, whether this one still holds the lease: once it ran out, nothing
    /// more is published (a display follows the daemon that took over). nil alone.
    private let isActive: (@Sendable () -> Bool)?

    /// `start` is the snapshot taken right after subscribing to `updates`; `drill` drops what a
    /// failure drill says, as if lost on the way.
    init(
        transport: ZMQTransport, library: GameLibrary, updates: AsyncStream<Commit>, start: Snapshot<[Game]>,
        epoch: String, heartbeatPeriod: Duration, clock: any TimeSource, drill: FaultDrill? = nil,
        isActive: (@Sendable () -> Bool)? = nil
    ) {
        self.isActive = isActive
        self.transport = transport
        self.library = library
        self.updates = updates
        self.epoch = epoch
        self.heartbeatPeriod = heartbeatPeriod
        self.clock = clock
        let tables = library.tables()
        drills = drill != nil
        published = Mutex(
            Published(
                sequence: start.sequence, games: PublishedGames(start.value), standings: tables.value.standings,
                bracket: tables.value.bracket, standingsSequence: tables.sequence, bracketSequence: tables.sequence,
                drops: PublishDrops(drill)))
    }

    func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.heartbeats() }
            // Ends when the library closes, after its last event, so nothing committed goes unpublished.
            for await commit in updates {
                publish(commit)
            }
            group.cancelAll()
        }
        heartbeat()
        // The stream ends when the command service closes the library, which happens during
        // shutdown but before this service's turn; returning early would look like a failure.
        try? await gracefulShutdown()
    }

    /// Publishes one commit: its games' events and its tournament changes (rare), in sequence order.
    private func publish(_ commit: Commit) {
        if let isActive, !isActive() { return }
        guard !commit.tournament.isEmpty else { return publish(commit.updates) }
        var rest = commit.updates[...]
        for change in commit.tournament {
            let before = rest.prefix { $0.event.sequence < change.sequence }
            rest = rest.dropFirst(before.count)
            if !before.isEmpty { publish(Array(before)) }
            publish(change)
        }
        if !rest.isEmpty { publish(Array(rest)) }
    }

    /// Publishes an organiser's change to the tournament, then the tables it changed.
    private func publish(_ change: GameEvent) {
        guard published.withLock({ $0.sequence }) < change.sequence,
            let message = TournamentEventMessage(epoch: epoch, event: change)
        else { return }
        send(message, on: Topic.tournament)
        publishedEvents.increment()
        published.withLock { $0.sequence = change.sequence }
        publishTournament()
    }

    /// Publishes one commit's game events, handed to the transport together, then the tables if
    /// any of them moved the tournament.
    private func publish(_ commit: [GameUpdate]) {
        // The messages' topics first, their bodies after the lock.
        var topics: [[UInt8]] = []
        let (fresh, dropped) = published.withLock { published in
            // A commit's events are in sequence order: those already published lead, if any. By
            // index throughout: a loop over the updates would copy each (a game's whole state).
            let after = published.sequence
            let fresh = commit.indices.drop { commit[$0].event.sequence <= after }
            let dropped = drills ? published.drops.move(in: commit, fresh) : nil
            topics.reserveCapacity(fresh.count)
            commit.withUnsafeBufferPointer { updates in
                for index in fresh where index != dropped {
                    topics.append(published.games.topic(of: updates[index].event.gameID))
                }
            }
            return (fresh, dropped)
        }
        guard let last = fresh.last else { return }
        // Each update read where it lies, through the buffer: the array's own subscript copied
        // each one lent to a call, its game's state whole (a retain and a release of each of
        // its references; 3% of the pool's samples under `courtside-bench daemon`).
        let (bodies, ends) = commit.withUnsafeBufferPointer { updates in
            // The commit's events one after another in one buffer, handed over whole.
            var writer = JSONWriter(capacity: 1024 * topics.count)
            var ends: [Int] = []
            ends.reserveCapacity(topics.count)
            for index in fresh where index != dropped {
                // Written straight from the event and the game, without building an EventMessage.
                EventMessage.append(epoch: epoch, event: updates[index].event, game: updates[index].game, to: &writer)
                ends.append(writer.byteCount)
            }
            return (writer.bytes, ends)
        }
        transport.publish(EventBatch(topics: topics, bodies: bodies, ends: ends))
        publishedEvents.increment(by: Int64(topics.count))
        let tablesMayMove = published.withLock { published in
            published.sequence = commit[last].event.sequence
            return commit.withUnsafeBufferPointer { updates in
                var moves = false
                for index in fresh {
                    let (game, version) = (updates[index].event.gameID, updates[index].event.version)
                    let row = published.games.changed(game, version: version)
                    let finished = updates[index].game.status == .finished
                    moves =
                        self.movesTournament(updates[index].event, finished: finished, row: row, of: &published.games) || moves
                }
                return moves
            }
        }
        if tablesMayMove { publishTournament() }
    }

    /// Only these change a group table or the bracket: a game appearing or getting its teams,
    /// starting (its clock, or its first move or time-out), ending, or having a result retracted.
    /// Given the event and whether it left its game finished: lent the whole update, this copied
    /// its game's state (2% of the pool's samples under `courtside-bench daemon`).
    private func movesTournament(
        _ event: borrowing GameEvent, finished: Bool, row: PublishedGames.Row, of games: inout PublishedGames
    ) -> Bool {
        switch event.kind {
        case .gameCreated, .teamsAssigned, .setupChanged, .retraction: return true
        case .move, .timeout, .clockStarted:
            // Each of these leaves the game started: only the first moves it to `live`.
            return games.start(row) || finished
        default: return finished
        }
    }

    private func publishTournament() {
        guard library.currentSchedule != nil else { return }
        // One snapshot for both, stamped with the sequence it reflects (it may be ahead of the
        // event being published, never behind).
        let tables = library.tables()
        let (standings, bracket, sequence) = (tables.value.standings, tables.value.bracket, tables.sequence)
        let (standingsChanged, bracketChanged, dropped) = published.withLock { published in
            defer { (published.standings, published.bracket) = (standings, bracket) }
            let (standingsChanged, bracketChanged) = (published.standings != standings, published.bracket != bracket)
            return (standingsChanged, bracketChanged, standingsChanged && published.drops.takeTables())
        }
        if standingsChanged && !dropped {
            let message = StandingsMessage(epoch: epoch, sequence: sequence, groups: standings)
            send(message, on: Topic.standings)
        }
        if bracketChanged && !dropped {
            let message = BracketMessage(epoch: epoch, sequence: sequence, games: bracket)
            send(message, on: Topic.bracket)
        }
        // Announced only once handed to the transport: a heartbeat never runs ahead of them.
        published.withLock { published in
            if standingsChanged { published.standingsSequence = sequence }
            if bracketChanged { published.bracketSequence = sequence }
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
        if let isActive, !isActive() { return }
        let (heartbeat, beats) = published.withLock { published in
            (
                HeartbeatMessage(
                    epoch: epoch, sequence: published.sequence, at: clock.now(),
                    standingsSequence: published.standingsSequence, bracketSequence: published.bracketSequence),
                published.games.takeBeats(dropping: &published.drops.beat)
            )
        }
        send(heartbeat, on: Topic.heartbeat)
        for (game, version) in beats {
            send(GameBeatMessage(epoch: epoch, game: game, version: version), on: Topic.beat(of: game))
        }
    }

    /// Publishes a message; every one the publisher sends writes its own JSON, which cannot fail.
    private func send(_ message: some Encodable & JSONWritable, on topic: [UInt8]) {
        transport.publish(topic: topic, body: WireCoding.encode(message))
    }
}
