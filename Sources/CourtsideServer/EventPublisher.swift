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
/// not yet sent, so a display never mistakes an event in flight for a gap.
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
    private let published: Mutex<Published>

    /// `start` is the snapshot taken right after subscribing to `updates`.
    init(
        transport: ZMQTransport, library: GameLibrary, updates: AsyncStream<[GameUpdate]>, start: Snapshot<[Game]>,
        epoch: String, heartbeatPeriod: Duration, clock: any TimeSource
    ) {
        self.transport = transport
        self.library = library
        self.updates = updates
        self.epoch = epoch
        self.heartbeatPeriod = heartbeatPeriod
        self.clock = clock
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

    /// Publishes one commit's events, handed to the transport together, then the tables if
    /// any of them moved the tournament.
    private func publish(_ commit: [GameUpdate]) {
        let after = published.withLock { $0.sequence }
        // A commit's events are in sequence order: those already published lead, if any. By
        // index throughout: a loop over the updates would copy each (a game's whole state).
        let fresh = commit.indices.drop { commit[$0].event.sequence <= after }
        guard let last = fresh.last else { return }
        var messages: [(topic: [UInt8], body: [UInt8])] = []
        messages.reserveCapacity(fresh.count)
        for index in fresh {
            // Written straight from the event and the game, without building an EventMessage.
            let body = EventMessage.json(epoch: epoch, event: commit[index].event, game: commit[index].game)
            messages.append((Topic.events(of: commit[index].event.gameID), body))
        }
        transport.publish(messages)
        publishedEvents.increment(by: Int64(fresh.count))
        published.withLock { published in
            published.sequence = commit[last].event.sequence
            for index in fresh {
                let (game, version) = (commit[index].event.gameID, commit[index].event.version)
                if published.versions.updateValue(version, forKey: game) == nil { published.order.append(game) }
                published.changed.insert(game)
            }
        }
        if fresh.contains(where: { movesTournament(commit[$0]) }) { publishTournament() }
    }

    /// Only these change a group table or the bracket: a game appearing or getting its teams,
    /// starting, ending, or having a result retracted.
    private func movesTournament(_ update: borrowing GameUpdate) -> Bool {
        switch update.event.kind {
        case .gameCreated, .teamsAssigned, .retraction, .clockStarted: return true
        default: return update.game.isFinished
        }
    }

    private func publishTournament() {
        guard library.currentSchedule != nil else { return }
        // One snapshot for both, stamped with the sequence it reflects (it may be ahead of the
        // event being published, never behind).
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

    /// Publishes a message; every one the publisher sends writes its own JSON, which cannot fail.
    private func send(_ message: some Encodable & JSONWritable, on topic: [UInt8]) {
        transport.publish(topic: topic, body: WireCoding.encode(message))
    }
}
