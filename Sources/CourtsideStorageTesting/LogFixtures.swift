public import CourtsideModel

/// Events, refusals and games for the event log's tests, shared by the suites of both engines
/// (CourtsideStorageTests and CourtsidePostgresTests). Not for production code.
public enum LogFixtures {
    /// A game of two one-player teams.
    public static let setup = GameSetup(
        id: "g1",
        home: Team(id: "h", name: "Home", players: [Player(id: "h1", name: "H")]),
        away: Team(id: "a", name: "Away", players: [Player(id: "a1", name: "A")]))

    /// Events `range` of game g1, each numbered by its own number: the first its creation, then assists.
    ///
    /// Another `game` (its setup is ``setup`` under that id) numbers its versions the same way
    /// and its sequences from `sequenceOffset`, so that writers of several games never collide;
    /// each event's command id is its sequence.
    public static func events(_ range: ClosedRange<Int>, game: GameID = "g1", sequenceOffset: Int64 = 0) -> [GameEvent] {
        var gameSetup = setup
        gameSetup.id = game
        return range.map { number in
            let sequence = sequenceOffset + Int64(number)
            return GameEvent(
                gameID: game, version: number, sequence: sequence, at: Timestamp(milliseconds: sequence),
                origin: CommandOrigin(clientID: "k", commandID: "\(sequence)"),
                kind: number == 1 ? .gameCreated(gameSetup) : .move(player: "h1", move: .assist))
        }
    }

    /// A command that game g1 refused.
    public static let refusal = CommandRefusal(
        gameID: "g1", origin: CommandOrigin(clientID: "k", commandID: "late"), at: Timestamp(milliseconds: 13),
        error: CourtsideError(.gameFinished, "game g1 has ended"))

    /// The games that `events` make, in the order of their ids.
    public static func games(_ events: some Sequence<GameEvent>) -> [Game] {
        var games: [GameID: Game] = [:]
        for event in events {
            if case .gameCreated(let setup) = event.kind {
                games[event.gameID] = Game(setup: setup)
            } else {
                games[event.gameID]?.apply(event)
            }
        }
        return games.values.sorted { $0.id < $1.id }
    }
}
