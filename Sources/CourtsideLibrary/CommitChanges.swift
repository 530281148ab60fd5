import CourtsideModel

/// A command's events as its game made them, with the game's state after each.
///
/// A move makes one event: it is held inline, so that queueing it allocates no arrays (two
/// one-element arrays a move, made on the pool and freed on the log writer, were a tenth of a
/// move's allocations). Stored properties rather than an enum's payloads: the writer moves each
/// out with `take()`, where binding an enum's payload in a pattern copies the game's state (a
/// retain of each of its fields, and their release with the entry), on the log writer for every
/// move.
struct CommitChanges {
    /// The game's first event with the state after it; nil without a game's events.
    private var first: GameUpdate?
    /// The game's later events, each with the state after it: empty for a move.
    private var later: [GameUpdate] = []
    /// Events of the tournament's stream (``GameID/tournament``), which change no game; never
    /// beside a game's.
    private var tournamentEvents: [GameEvent] = []
    /// How many events there are. Stored, as is ``isTournament``: the writer reads both through
    /// the batch's entries, where a computed property, or comparing `first` with nil (through
    /// `GameUpdate`'s `==`), copies the changes or the update whole.
    private(set) var eventCount = 0
    private(set) var isTournament = false

    /// No event: a refusal that found nothing on the way.
    static var none: CommitChanges { CommitChanges() }

    /// One event and the game's state after it.
    static func one(_ event: GameEvent, _ game: Game) -> CommitChanges {
        CommitChanges(first: GameUpdate(event: event, game: game), eventCount: 1)
    }

    /// Several events and the game's state after each, as many states as events.
    static func many(_ events: [GameEvent], _ games: [Game]) -> CommitChanges {
        precondition(events.count == games.count, "a game's state after each of its events")
        var changes = CommitChanges()
        for (event, game) in zip(events, games) { changes.append(event, game) }
        return changes
    }

    /// Events of the tournament's stream, which change no game.
    static func tournament(_ events: [GameEvent]) -> CommitChanges {
        CommitChanges(tournamentEvents: events, eventCount: events.count, isTournament: !events.isEmpty)
    }

    /// The game's state after the last event; nil without events or for the tournament's stream.
    var lastGame: Game? { later.last?.game ?? first?.game }

    /// Adds an event of a game and the game's state after it.
    mutating func append(_ event: GameEvent, _ game: Game) {
        precondition(!isTournament, "the tournament's stream holds no game's state")
        if eventCount == 0 {
            first = GameUpdate(event: event, game: game)
        } else {
            later.append(GameUpdate(event: event, game: game))
        }
        eventCount += 1
    }

    /// Removes the last `count` events of a game and the states after them.
    mutating func removeLast(_ count: Int) {
        guard count > 0 else { return }
        precondition(!isTournament && count <= eventCount, "only a game's events are taken back")
        let fromLater = min(count, later.count)
        later.removeLast(fromLater)
        if count > fromLater { first = nil }
        eventCount -= count
    }

    /// Moves the game's first event and the state after it out, leaving it nil (``eventCount`` stays:
    /// the writer reads it first).
    mutating func takeFirst() -> GameUpdate? { first.take() }

    /// Moves the game's later events and the states after them out (none for a move), leaving none.
    mutating func takeLater() -> [GameUpdate] {
        var taken: [GameUpdate] = []
        swap(&taken, &later)
        return taken
    }

    /// Moves the tournament's events out, leaving none.
    mutating func takeTournamentEvents() -> [GameEvent] {
        var taken: [GameEvent] = []
        swap(&taken, &tournamentEvents)
        return taken
    }
}
