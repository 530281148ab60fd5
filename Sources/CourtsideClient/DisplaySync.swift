public import CourtsideModel
public import CourtsideProtocol
public import Foundation
public import ZeroMQ

/// What a display knows of one game: the game folded from the daemon's events by the model's
/// own ``Game/apply(_:)``, so a display and the daemon can never disagree on what an event does.
public struct GameState: Hashable, Sendable {
    public private(set) var game: Game

    /// The state of a game from a snapshot.
    public init(_ game: Game) { self.game = game }

    public var id: GameID { game.id }
    public var setup: GameSetup { game.setup }
    /// The live state, as the daemon's event messages carry it.
    public var live: LiveState { LiveState(game) }
    public var plays: PlayHistory { game.plays }

    /// Applies an event that directly follows this state (version + 1).
    mutating func apply(_ message: EventMessage) {
        game.apply(
            GameEvent(
                gameID: message.game, version: message.version, sequence: message.sequence, at: message.at,
                origin: message.origin, kind: message.event))
    }
}

extension Timestamp {
    /// The timestamp of a date, to the millisecond (rounded down).
    public init(_ date: Date) { self.init(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded(.down))) }
}

/// Why a display took a new snapshot.
public enum ResyncReason: String, Sendable {
    case gap
    case heartbeatAhead = "heartbeat_ahead"
    /// A game's beat named a version newer than the one shown.
    case beatAhead = "beat_ahead"
    case epochChanged = "epoch_changed"
    case unknownGame = "unknown_game"
    /// A heartbeat named standings or a bracket newer than those shown, and fetching them failed.
    case tablesAhead = "tables_ahead"
}

/// The display's side of the protocol: the sync contract of docs/PROTOCOL.md.
///
/// Subscribes first, then takes a snapshot, then applies only newer events; a gap, a heartbeat
/// ahead of what it has, or a new epoch makes it take a new snapshot. It marks itself stale
/// when nothing (not even a heartbeat) arrives for `staleAfter`. Blocking and single-threaded.
public final class DisplaySync {
    public let endpoints: Endpoints
    /// The one game followed, or nil for every game.
    public let game: GameID?
    public let staleAfter: Duration
    /// Games by id.
    public private(set) var games: [GameID: GameState] = [:]
    /// Group standings and the bracket (a display of every game only; empty without a schedule).
    public private(set) var standings: [GroupStandings] = []
    public private(set) var bracket: [BracketEntry] = []
    /// The last global sequence applied.
    public private(set) var sequence: Int64 = 0
    /// The sequences the standings and the bracket reflect; older messages are ignored, and a
    /// heartbeat that names a newer one makes the display fetch it.
    public private(set) var standingsSequence: Int64 = 0
    public private(set) var bracketSequence: Int64 = 0
    /// How many times a heartbeat showed a lost standings or bracket message, which was fetched.
    public private(set) var tablesRefreshes = 0

    /// The bracket joined with the games as they are now (``sequence``): each game's state,
    /// score and winner follow its events, which the bracket messages do not do basket by basket.
    public var schedule: [BracketEntry] { bracket.map { $0.following(games[$0.game]?.game) } }
    /// Set while a resync is owed but the daemon could not be reached: the display is stale
    /// and tries again at every ``pump(timeoutMilliseconds:)``.
    public private(set) var owedResync: (reason: ResyncReason, error: CourtsideError)?
    /// When set, every event applied is kept, in order, with its game right after it, until
    /// ``takeAppliedEvents()``: for a relay (a web gateway) that passes each one on.
    public var recordsAppliedEvents = false
    private var applied: [(message: EventMessage, game: Game)] = []

    /// The events applied since the last call, in sequence order, each with its game as the
    /// event left it (with ``recordsAppliedEvents``).
    public func takeAppliedEvents() -> [(message: EventMessage, game: Game)] {
        defer { applied = [] }
        return applied
    }
    public private(set) var epoch = ""
    public private(set) var resyncs = 0
    public private(set) var lastResync: (reason: ResyncReason, at: ContinuousClock.Instant)?
    /// Events applied since the start.
    public private(set) var eventsApplied = 0
    /// The organiser's tournament changes heard since the start (each one advances the sequence).
    public private(set) var tournamentChanges = 0
    /// Heartbeats received since the start.
    public private(set) var heartbeatsSeen = 0
    /// The daemon's clock minus ours, in milliseconds, as of the last heartbeat (heartbeats are
    /// sent as they are stamped; events may have waited for their commit).
    public private(set) var clockOffset: Int64 = 0
    private var lastMessage = ContinuousClock.now
    /// When the epoch followed was last heard from (or taken).
    private var lastFromEpoch = ContinuousClock.now
    private let subscriber: ZMQSocket
    private let client: CommandClient

    /// Connects and subscribes, then takes the first snapshot. `receiveHighWaterMark` bounds the
    /// events queued here while the display is busy; beyond it they are dropped, and it resyncs.
    public init(
        endpoints: Endpoints, game: GameID? = nil, client: CommandClient, staleAfter: Duration = .seconds(3),
        receiveHighWaterMark: Int32 = 10_000
    ) throws(CourtsideError) {
        self.endpoints = endpoints
        self.game = game
        self.client = client
        self.staleAfter = staleAfter
        do {
            subscriber = try sharedClientContext.socket(.sub)
            try subscriber.set(.linger(milliseconds: 0))
            try subscriber.set(.receiveHighWaterMark(receiveHighWaterMark))
            if let curve = endpoints.curve { try subscriber.useCurve(curve) }
            // Several daemons may be listed (comma-separated): one socket hears them all, and
            // only the active one publishes.
            for events in CommandClient.list(endpoints.events) { try subscriber.connect(events) }
            if let game {
                try subscriber.set(.subscribe(Topic.prefix(of: game)))
                try subscriber.set(.subscribe(Topic.heartbeat))
            } else {
                try subscriber.set(.subscribe([]))
            }
        } catch {
            throw CourtsideError(.unreachable, "cannot subscribe to \(endpoints.events): \(error)")
        }
        try resync(nil)
    }

    /// The socket to include in an outside poll loop (a terminal UI that also reads keys).
    public var socket: ZMQSocket { subscriber }

    /// Whether what it shows cannot be vouched for: nothing has arrived for longer than
    /// `staleAfter`, or a resync it needs has not succeeded yet.
    public var isStale: Bool { owedResync != nil || ContinuousClock.now - lastMessage > staleAfter }

    /// The daemon's time now, estimated from its last message (for clocks between events).
    public func daemonNow(localNow: Date = Date()) -> Timestamp {
        Timestamp(localNow).adding(milliseconds: clockOffset)
    }

    /// Takes a new snapshot.
    public func resync(_ reason: ResyncReason?) throws(CourtsideError) {
        var (reply, snapshot) = try client.snapshot(game: game)
        if let game, snapshot.isEmpty {
            // A scheduled game that the bracket has not created yet: follow it from the whole
            // tournament's snapshot, and its game_created event will bring it in.
            (reply, snapshot) = try client.snapshot()
            guard reply.bracket?.contains(where: { $0.game == game }) == true else {
                throw CourtsideError(.unknownGame, "no game has id \(game), and none is scheduled under it")
            }
            snapshot = snapshot.filter { $0.id == game }
        }
        (epoch, lastFromEpoch) = (reply.epoch, .now)
        sequence = reply.sequence ?? 0
        games = Dictionary(uniqueKeysWithValues: snapshot.map { ($0.id, GameState($0)) })
        standings = reply.standings ?? []
        bracket = reply.bracket ?? []
        (standingsSequence, bracketSequence) = (sequence, sequence)
        applied = []  // a relay sends the new state whole
        lastMessage = .now
        owedResync = nil
        if let reason {
            resyncs += 1
            lastResync = (reason, .now)
        }
    }

    /// Reads every message that arrives within `timeoutMilliseconds` (and any already queued),
    /// applies it, and returns whether anything changed.
    ///
    /// Only a broken subscriber socket throws: a resync that cannot reach the daemon leaves the
    /// display stale (``owedResync``) and is tried again at the next call.
    @discardableResult
    public func pump(timeoutMilliseconds: Int) throws(CourtsideError) -> Bool {
        var changed = false
        if let owed = owedResync {
            changed = resyncOrOwe(owed.reason)
            // While the daemon is unreachable, what arrives cannot be applied on top of nothing.
            if owedResync != nil { return changed }
        }
        var wait = timeoutMilliseconds
        while true {
            let frames: [[UInt8]]
            do {
                var poller = ZMQPoller()
                poller.add(subscriber)
                guard try poller.poll(timeoutMilliseconds: wait).first == true else { return changed }
                frames = try subscriber.receive(flags: .dontWait)
            } catch {
                if error.wouldBlock { return changed }
                throw CourtsideError(.unreachable, "reading \(endpoints.events) failed: \(error)")
            }
            wait = 0
            lastMessage = .now
            changed = handle(frames) || changed
            if owedResync != nil { return changed }
        }
    }

    /// nil for a message of the epoch followed; otherwise what handling it returns: a resync for
    /// a newer epoch (a restart, a takeover), nothing for an older one while the epoch followed
    /// is still heard (a daemon that stepped down, heard through another listed endpoint).
    private func otherEpoch(_ other: String) -> Bool? {
        if other == epoch {
            lastFromEpoch = .now
            return nil
        }
        if Epoch.isOlder(other, than: epoch), ContinuousClock.now - lastFromEpoch < staleAfter { return false }
        return resyncOrOwe(.epochChanged)
    }

    /// Resyncs, or remembers that it owes one; returns whether the state changed.
    private func resyncOrOwe(_ reason: ResyncReason) -> Bool {
        do {
            try resync(reason)
            return true
        } catch {
            owedResync = (reason, error)
            return false
        }
    }

    /// Fetches the tables a heartbeat showed to be newer than those shown (a message was lost);
    /// returns whether anything changed. Failing, it owes a resync: the display is stale until then.
    private func refreshTables(standings fetchStandings: Bool, bracket fetchBracket: Bool) -> Bool {
        guard fetchStandings || fetchBracket else { return false }
        do {
            if fetchStandings {
                let reply = try client.command(.standings)
                if let sequence = reply.sequence, sequence >= standingsSequence {
                    (standings, standingsSequence) = (reply.standings ?? [], sequence)
                }
            }
            if fetchBracket {
                let reply = try client.command(.schedule)
                if let sequence = reply.sequence, sequence >= bracketSequence {
                    (bracket, bracketSequence) = (reply.bracket ?? [], sequence)
                }
            }
        } catch {
            owedResync = (.tablesAhead, error)
            return false
        }
        tablesRefreshes += 1
        return true
    }

    private func handle(_ frames: [[UInt8]]) -> Bool {
        guard frames.count == 2 else { return false }
        if frames[0] == Topic.heartbeat {
            guard let heartbeat = try? WireCoding.decode(HeartbeatMessage.self, from: frames[1]) else { return false }
            heartbeatsSeen += 1
            noteTime(heartbeat.at)
            if let outcome = otherEpoch(heartbeat.epoch) { return outcome }
            // One game's display learns its game's version from the game's beats instead, and
            // follows no tables.
            guard game == nil else { return false }
            if heartbeat.sequence > sequence { return resyncOrOwe(.heartbeatAhead) }
            return refreshTables(
                standings: (heartbeat.standingsSequence ?? 0) > standingsSequence,
                bracket: (heartbeat.bracketSequence ?? 0) > bracketSequence)
        }
        if frames[0].suffix(Self.beatSuffix.count).elementsEqual(Self.beatSuffix),
            let beat = try? WireCoding.decode(GameBeatMessage.self, from: frames[1])
        {
            if let outcome = otherEpoch(beat.epoch) { return outcome }
            guard game == nil || beat.game == game else { return false }
            // An unknown game counts as version 0: a beat for it means its creation was missed.
            let known = games[beat.game]?.game.version ?? 0
            return beat.version > known ? resyncOrOwe(.beatAhead) : false
        }
        if frames[0] == Topic.standings, let message = try? WireCoding.decode(StandingsMessage.self, from: frames[1]) {
            if let outcome = otherEpoch(message.epoch) { return outcome }
            // Queued behind a fresher snapshot: older than what is shown, so it would go backwards.
            guard message.sequence >= standingsSequence else { return false }
            (standings, standingsSequence) = (message.groups, message.sequence)
            return true
        }
        if frames[0] == Topic.bracket, let message = try? WireCoding.decode(BracketMessage.self, from: frames[1]) {
            if let outcome = otherEpoch(message.epoch) { return outcome }
            guard message.sequence >= bracketSequence else { return false }
            (bracket, bracketSequence) = (message.games, message.sequence)
            return true
        }
        if frames[0] == Topic.tournament {
            // Counted for the sequence only: the tables it changes come as their own messages,
            // and the games it touches as their own events.
            guard let message = try? WireCoding.decode(TournamentEventMessage.self, from: frames[1]) else { return false }
            if let outcome = otherEpoch(message.epoch) { return outcome }
            guard game == nil, message.sequence > sequence else { return false }
            if message.sequence != sequence + 1 { return resyncOrOwe(.gap) }
            sequence = message.sequence
            tournamentChanges += 1
            return true
        }
        guard let event = try? WireCoding.decode(EventMessage.self, from: frames[1]) else { return false }
        if let outcome = otherEpoch(event.epoch) { return outcome }
        if event.sequence <= sequence { return false }
        var state: GameState
        let expectedVersion: Int
        if let known = games[event.game] {
            (state, expectedVersion) = (known, known.game.version + 1)
        } else if case .gameCreated(let setup) = event.event {
            (state, expectedVersion) = (GameState(Game(setup: setup)), 1)
        } else {
            return resyncOrOwe(.unknownGame)
        }
        let gap = event.version != expectedVersion || (game == nil && event.sequence != sequence + 1)
        if gap { return resyncOrOwe(.gap) }
        state.apply(event)
        games[event.game] = state
        sequence = event.sequence
        eventsApplied += 1
        if recordsAppliedEvents { applied.append((event, state.game)) }
        return true
    }

    private static let beatSuffix = Array("/beat".utf8)

    private func noteTime(_ daemonTime: Timestamp) {
        clockOffset = daemonTime.rawValue - Timestamp(Date()).rawValue
    }
}
