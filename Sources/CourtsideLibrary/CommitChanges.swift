import CourtsideModel

/// A command's events as its game made them, with the game's state after each.
///
/// A move makes one event: it is held inline, so that queueing it allocates no arrays (two
/// one-element arrays a move, made on the pool and freed on the log writer, were a tenth of a
/// move's allocations).
enum CommitChanges {
    /// No event: a refusal that found nothing on the way.
    case none
    /// One event and the game's state after it.
    case one(GameEvent, Game)
    /// Several events and the game's state after each, as many states as events.
    case many([GameEvent], [Game])
    /// Events of the tournament's stream (``GameID/tournament``), which change no game.
    case tournament([GameEvent])

    /// How many events there are.
    var eventCount: Int {
        switch self {
        case .none: 0
        case .one: 1
        case .many(let events, _), .tournament(let events): events.count
        }
    }

    var isTournament: Bool {
        if case .tournament = self { true } else { false }
    }

    /// The game's state after the last event; nil without events or for the tournament's stream.
    var lastGame: Game? {
        switch self {
        case .none, .tournament: nil
        case .one(_, let game): game
        case .many(_, let games): games.last
        }
    }

    /// Adds an event of a game and the game's state after it.
    mutating func append(_ event: GameEvent, _ game: Game) {
        switch self {
        case .none:
            self = .one(event, game)
        case .one(let first, let firstGame):
            self = .many([first, event], [firstGame, game])
        case .many(var events, var games):
            // Moved out while they grow, so that growing copies neither.
            self = .none
            events.append(event)
            games.append(game)
            self = .many(events, games)
        case .tournament:
            preconditionFailure("the tournament's stream holds no game's state")
        }
    }

    /// Removes the last `count` events of a game and the states after them.
    mutating func removeLast(_ count: Int) {
        guard count > 0 else { return }
        switch self {
        case .none, .tournament:
            preconditionFailure("only a game's events are taken back")
        case .one:
            precondition(count == 1)
            self = .none
        case .many(var events, var games):
            self = .none
            events.removeLast(count)
            games.removeLast(count)
            switch events.count {
            case 0: self = .none
            case 1: self = .one(events[0], games[0])
            default: self = .many(events, games)
            }
        }
    }
}
