public import CourtsideClient
public import CourtsideLocalization
public import CourtsideModel
public import CourtsideProtocol
import CourtsideThreads
public import CourtsideViewModels
import Foundation
public import Logging
import Metrics
import NIOCore
import Synchronization

/// What the gateway knows of the daemon: a display of every game, through the reference
/// client's sync contract, on a thread of its own (the client blocks on ZeroMQ).
///
/// Browsers read ``current`` and follow ``updates()``; neither ever waits for the daemon.
public final class LiveTournament: Sendable {
    /// One consistent view: every game, the tables, and whether it can be vouched for.
    public struct View: Sendable {
        public var epoch = ""
        public var sequence: Int64 = 0
        public var games: [GameID: Game] = [:]
        public var standings: [GroupStandings] = []
        public var bracket: [BracketEntry] = []
        /// The sequences the standings and the bracket reflect (a table changes less often than
        /// the games, so it may be older than ``sequence``).
        public var standingsSequence: Int64 = 0
        public var bracketSequence: Int64 = 0
        /// False while the gateway cannot vouch for this view: not connected yet, no heartbeat
        /// lately, or a resync or a lost table owed (the heartbeats name the latest tables).
        public var inSync = false
        /// The daemon's clock minus this machine's, in milliseconds, from the last heartbeat.
        public var clockOffset: Int64 = 0
        /// Every team and division of the tournament as it stands, as its `tournament` read last
        /// answered (at each resync and after each of the organiser's changes): the team pages
        /// list teams that have no game yet and name divisions by these.
        public var teams: [Team] = []
        public var divisions: [Division] = []
        /// How the day is paced, as the same read last answered: the estimates follow it.
        public var timing: DayTiming?
        /// The players the organiser marked inactive: the keeper page offers them no move.
        public var inactivePlayers: Set<PlayerID> = []
        /// The venue's language as the tournament's config names it (`language: ja`), nil when
        /// it names none: pages speak it when neither the address, the device nor the browser
        /// asks for one the catalogs have.
        public var language: Language?
    }

    /// A change for browsers, in the order the gateway saw it.
    public enum Update: Sendable {
        /// Everything: sent first, and after every resync.
        case state(View)
        /// One event, as the daemon published it, with the game right after it, whose view (at
        /// `now`, `inactive` players marked) each stream gets in its own language.
        case event(EventMessage, game: Game, now: Timestamp, inactive: Set<PlayerID>)
        case tables(View)
        /// Every court's current and next game and its delay, when they changed.
        case courts([CourtNow])
        /// The gateway lost or regained the daemon.
        case sync(Bool)
    }

    private let view = Mutex(View())
    /// Every stream that follows the changes (``EventStreamSubscribers``).
    private let subscribers = Mutex(EventStreamSubscribers())
    private let stopping = Atomic(false)
    // Made once: a handle per call would look the metric up in the registry every time.
    private let browsers = Gauge(label: "courtside_web_browsers")
    private let relayedEvents = Counter(label: "courtside_web_events_relayed_total")
    private let resyncCount = Counter(label: "courtside_web_resyncs_total")
    private let endpoints: Endpoints
    private let logger: Logger
    /// How often every stream gets a comment, and when the last went (the sync thread's alone).
    private let pingInterval: Duration
    private let lastPing = Mutex(ContinuousClock.now)

    /// `pingInterval`: every browser's stream gets a comment this often, whatever happens, so
    /// that one whose browser vanished fails its write and is released.
    public init(endpoints: Endpoints, logger: Logger, pingInterval: Duration = .seconds(15)) {
        self.endpoints = endpoints
        self.logger = logger
        self.pingInterval = pingInterval
    }

    /// The view now.
    public var current: View { view.withLock { $0 } }

    /// The venue's language from the tournament's config, as the daemon last said (``View/language``).
    public var configuredLanguage: Language? { view.withLock { $0.language } }

    /// Waits until the view reflects the event `sequence` (what a command's reply names), for
    /// at most `limit`: a page drawn from the view right after a command then shows what it did.
    func catchUp(to sequence: Int64, within limit: Duration = .seconds(1)) async {
        let deadline = ContinuousClock.now + limit
        // The view follows the daemon's events a moment after the reply; no need to be woken sooner.
        while current.sequence < sequence, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// How many browsers follow the updates now.
    public var followers: Int { subscribers.withLock { $0.count } }

    /// The current view, then every change, for a program in this process (browsers get theirs
    /// through ``stream(to:words:syncEvery:)``). A stream too slow to take 1,000 changes ends.
    ///
    /// Each change is encoded once per language, however many streams follow it; `words` is
    /// the language of the views this stream carries.
    func updates(words: Words = .english) -> AsyncStream<EventStreamMessage> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: EventStreamMessage.self, bufferingPolicy: .bufferingOldest(1000))
        let id = subscribers.withLock { subscribers in
            // Registered and seeded under one lock, so no change falls between the two.
            let id = subscribers.add(.init(language: words.language, continuation: continuation))
            if let state = EventStreamMessage(.state(current), words: words) { continuation.yield(state) }
            browsers.record(subscribers.count)
            return id
        }
        // Stopping: the stream ends at once, so no response waits on it.
        if stopping.load(ordering: .relaxed) { continuation.finish() }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { subscribers in
                subscribers.remove(id)
                self?.browsers.record(subscribers.count)
            }
        }
        return stream
    }

    /// Writes a browser's `/api/events` stream from its channel's event loop (``EventStreamHub``):
    /// the current view, then every change in `words`' language, and a `sync` event every
    /// `syncEvery`; returns when the stream ends (the browser left, or the gateway stops). A
    /// stream that falls behind is sent a fresh state in place of what it missed. The response's
    /// head must have been written to `channel` before.
    func stream(to channel: any Channel, words: Words, syncEvery: Duration? = nil) async {
        let loop = channel.eventLoop
        let hub = subscribers.withLock { subscribers in
            subscribers.hub(for: loop) {
                EventStreamHub(
                    eventLoop: loop,
                    seed: { [weak self] language in
                        self?.seed(Words.of(language), joining: false).map { ($0.generation, $0.state) }
                    },
                    left: { [weak self] language in
                        self?.subscribers.withLock { subscribers in
                            subscribers.left(language)
                            self?.browsers.record(subscribers.count)
                        }
                    })
            }
        }
        // A response cancelled (the server stopping) closes its connection, which ends the stream.
        await withTaskCancellationHandler {
            await join(hub, channel: channel, words: words, syncEvery: syncEvery)
        } onCancel: {
            channel.close(promise: nil)
        }
    }

    private func join(_ hub: EventStreamHub, channel: any Channel, words: Words, syncEvery: Duration?) async {
        await withCheckedContinuation { (ended: CheckedContinuation<Void, Never>) in
            // On the loop, behind the hops that carried the response's head and first line.
            channel.eventLoop.execute { [self] in
                guard let (id, generation, state) = seed(words, joining: true), let id else {
                    ended.resume()
                    return
                }
                hub.join(
                    id, channel: channel, language: words.language, generation: generation, state: state,
                    syncEvery: syncEvery, inSync: { [weak self] in self?.current.inSync ?? false }, ended: { ended.resume() })
            }
        }
    }

    /// The generation now and the `state` of the view at it in `words`' language, for a stream
    /// that joins (counted, and given an id) or one that fell behind; nil once stopping. Taken
    /// under one lock, so no change falls between the two; encoded outside it, once for the
    /// many streams that ask together (EventStreamStates).
    private func seed(_ words: Words, joining: Bool) -> (id: Int?, generation: UInt64, state: EventStreamMessage?)? {
        let now = ContinuousClock.now
        let taken = subscribers.withLock { subscribers -> (Int?, UInt64, EventStreamMessage??, View)? in
            guard !stopping.load(ordering: .relaxed) else { return nil }
            var id: Int?
            if joining {
                subscribers.joined(words.language)
                browsers.record(subscribers.count)
                id = subscribers.newID()
            }
            let generation = subscribers.generation
            let made = subscribers.states.state(words.language, generation: generation, now: now)
            return (id, generation, made, made == nil ? current : View())
        }
        guard case let (id, generation, made, view)? = taken else { return nil }
        if let made { return (id, generation, made) }
        let state = EventStreamMessage(.state(view), words: words)
        subscribers.withLock { $0.states.keep(state, words.language, generation: generation, now: now) }
        return (id, generation, state)
    }

    /// Starts following the daemon on a thread of its own; returns at once.
    public func start() {
        startThread(named: "courtside.sync") { [self] in
            run()
        }
    }

    public func stop() {
        stopping.store(true, ordering: .relaxed)
        // Finished outside the lock: finishing runs onTermination, which takes the lock.
        let (streams, hubs) = subscribers.withLock { ($0.removeAll(), Array($0.hubs.values)) }
        for continuation in streams { continuation.finish() }
        for hub in hubs { hub.endAll() }
    }

    private func run() {
        while !stopping.load(ordering: .relaxed) {
            let sync: DisplaySync
            let client: CommandClient
            do {
                client = try CommandClient(endpoints: endpoints, clientID: "courtside-web-\(ProcessInfo.processInfo.hostName)")
                sync = try DisplaySync(endpoints: endpoints, client: client)
            } catch {
                logger.warning("cannot reach courtsided; retrying", metadata: ["error": "\(error.message)"])
                mark(inSync: false)
                Thread.sleep(forTimeInterval: 1)
                pingIfDue()
                continue
            }
            sync.recordsAppliedEvents = true
            logger.info("following courtsided", metadata: ["epoch": "\(sync.epoch)", "sequence": "\(sync.sequence)"])
            // Its own client, asked once and briefly: a daemon that stops answering must not
            // hold the sync thread (and with it /healthz) for a read of team names.
            let roster = Roster(
                client: CommandClient(
                    endpoints: endpoints, clientID: "courtside-web-\(ProcessInfo.processInfo.hostName)-roster",
                    timeoutMilliseconds: 1000, attempts: 1),
                logger: logger)
            publish(everything: sync, roster: roster)
            follow(sync, roster: roster)
        }
    }

    /// Pumps until stopped or the subscriber breaks, relaying what changed.
    private func follow(_ sync: DisplaySync, roster: Roster) {
        var resyncs = sync.resyncs
        var changes = sync.tournamentChanges
        var lines = CourtLinesWatch(sent: current.courtsNow(), now: Date())
        while !stopping.load(ordering: .relaxed) {
            pingIfDue()
            let before = view.withLock { $0 }
            do {
                try sync.pump(timeoutMilliseconds: 100)
            } catch {
                logger.warning("lost the event stream; reconnecting", metadata: ["error": "\(error.message)"])
                mark(inSync: false)
                return
            }
            if sync.resyncs != resyncs || sync.epoch != before.epoch {
                resyncs = sync.resyncs
                resyncCount.increment()
                publish(everything: sync, roster: roster)
                lines = CourtLinesWatch(sent: current.courtsNow(), now: Date())
                continue
            }
            let now = Timestamp(Date()).adding(milliseconds: sync.clockOffset)
            // Each event with the view of its game right after it, as the display folded it.
            let inactive = view.withLock { $0.inactivePlayers }
            var updates: [Update] = sync.takeAppliedEvents().map {
                .event($0.message, game: $0.game, now: now, inactive: inactive)
            }
            let tablesMoved = sync.standingsSequence != before.standingsSequence || sync.bracketSequence != before.bracketSequence
            let inSync = !sync.isStale
            let changed = !updates.isEmpty || tablesMoved || inSync != before.inSync || sync.sequence != before.sequence
            guard changed else {
                // A change a moment ago, or the time alone, may have moved a court's lines.
                if let courts = lines.check(viewChanged: false, now: Date(), lines: { current.courtsNow() }) {
                    broadcast([.courts(courts)])
                }
                continue
            }
            // The organiser changed the tournament: read its teams again (rare, and small).
            let teams = sync.tournamentChanges != changes ? roster.read() : nil
            changes = sync.tournamentChanges
            let after = view.withLock { view in
                if let teams {
                    (view.teams, view.divisions, view.timing, view.inactivePlayers, view.language) = (
                        teams.teams, teams.divisions, teams.timing, teams.inactive, teams.language
                    )
                }
                for (id, state) in sync.games { view.games[id] = state.game }
                (view.sequence, view.standings, view.bracket, view.inSync, view.clockOffset) = (
                    sync.sequence, sync.standings, sync.bracket, inSync, sync.clockOffset
                )
                (view.standingsSequence, view.bracketSequence) = (sync.standingsSequence, sync.bracketSequence)
                return view
            }
            if tablesMoved { updates.append(.tables(after)) }
            if inSync != before.inSync { updates.append(.sync(inSync)) }
            if let courts = lines.check(viewChanged: true, now: Date(), lines: { after.courtsNow() }) {
                updates.append(.courts(courts))
            }
            broadcast(updates)
        }
    }

    private func publish(everything sync: DisplaySync, roster: Roster) {
        let teams =
            roster.read()
            ?? view.withLock {
                Roster.Answer(
                    teams: $0.teams, divisions: $0.divisions, timing: $0.timing, inactive: $0.inactivePlayers,
                    language: $0.language)
            }
        let fresh = View(
            epoch: sync.epoch, sequence: sync.sequence, games: sync.games.mapValues(\.game), standings: sync.standings,
            bracket: sync.bracket, standingsSequence: sync.standingsSequence, bracketSequence: sync.bracketSequence,
            inSync: !sync.isStale, clockOffset: sync.clockOffset, teams: teams.teams, divisions: teams.divisions,
            timing: teams.timing, inactivePlayers: teams.inactive, language: teams.language)
        view.withLock { $0 = fresh }
        broadcast([.state(fresh)])
    }

    private func mark(inSync: Bool) {
        let changed = view.withLock { view in
            defer { view.inSync = inSync }
            return view.inSync != inSync
        }
        if changed { broadcast([.sync(inSync)]) }
    }

    /// Sends every stream a comment when `pingInterval` has passed since the last.
    private func pingIfDue() {
        let now = ContinuousClock.now
        let due = lastPing.withLock { last in
            guard now - last >= pingInterval else { return false }
            last = now
            return true
        }
        if due { send { _ in [EventStreamMessage.ping] } }
    }

    private func broadcast(_ updates: [Update]) {
        let relayed = updates.reduce(0) { count, update in if case .event = update { count + 1 } else { count } }
        if relayed > 0 { relayedEvents.increment(by: relayed) }
        send { language in
            let words = Words.of(language)
            return updates.compactMap { EventStreamMessage($0, words: words) }
        }
    }

    /// Sends every stream the messages of its language, made once per language that has a stream:
    /// one post to each event loop's hub, and one buffer for the whole batch to each in-process
    /// stream, so that each wakes and writes once per pump, not once per event.
    private func send(_ messages: (Language) -> [EventStreamMessage]) {
        // Encoded outside the lock, which every new stream takes; a language that gained its first
        // stream meanwhile is encoded under it.
        let languages = subscribers.withLock { Array($0.languages.keys) }
        var made = Dictionary(uniqueKeysWithValues: languages.map { ($0, messages($0)) })
        var joined: [Language: EventStreamMessage] = [:]
        let behind = subscribers.withLock { subscribers in
            for language in subscribers.languages.keys where made[language] == nil { made[language] = messages(language) }
            let batch = EventStreamBatch(generation: subscribers.advance(), messages: made)
            for hub in subscribers.hubs.values { hub.post(batch) }
            var behind: [AsyncStream<EventStreamMessage>.Continuation] = []
            for (id, stream) in subscribers.streams {
                guard let messages = made[stream.language], !messages.isEmpty else { continue }
                if joined[stream.language] == nil {
                    joined[stream.language] = messages.count == 1 ? messages[0] : EventStreamMessage(joining: messages)
                }
                if let message = joined[stream.language], case .dropped = stream.continuation.yield(message) {
                    behind.append(stream.continuation)
                    subscribers.remove(id)
                }
            }
            return behind
        }
        // Finished outside the lock: finishing runs onTermination, which takes the lock.
        for continuation in behind { continuation.finish() }
    }
}

/// Reads the tournament's teams and divisions from the daemon, on the sync thread.
private struct Roster {
    let client: CommandClient
    let logger: Logger

    /// What the view keeps of the tournament's read.
    struct Answer {
        var teams: [Team]
        var divisions: [Division]
        var timing: DayTiming?
        var inactive: Set<PlayerID>
        var language: Language?
    }

    /// The teams and divisions as the tournament stands, or nil when the daemon did not answer
    /// (the view keeps the last ones; the next change or resync reads them again).
    func read() -> Answer? {
        do {
            guard let setup = try client.command(.tournament).tournament else { return nil }
            return Answer(
                teams: setup.teams, divisions: setup.divisions ?? [], timing: setup.timing,
                inactive: Set(setup.inactivePlayers ?? []), language: setup.language.flatMap { Language(tag: $0) })
        } catch {
            logger.warning("cannot read the tournament's teams", metadata: ["error": "\(error.message)"])
            return nil
        }
    }
}
