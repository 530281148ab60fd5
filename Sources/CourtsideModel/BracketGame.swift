/// A game as the tournament's tables read it (standings, lineups, the bracket, conditions): its
/// setup, score, status, winner, why it ended and whether it has started, and nothing else.
///
/// What the bracket gate keeps of every game: 24 bytes beside its id, against 136 for a whole
/// ``Game``; its table of 10,000 games, with room for a third more, holds 0.7 MB
/// (docs/FIGURES.md, "Memory and restart").
public struct BracketGame: Sendable {
    public let setup: GameSetup
    let score: SideValues
    let status: GameStatus
    let winner: Side?
    let endReason: EndReason?
    let started: Bool

    /// What the tables read of `game`.
    public init(_ game: Game) {
        setup = game.setup
        score = game.score
        status = game.status
        winner = game.winner
        endReason = game.endReason
        started = game.hasStarted
    }

    /// A game that reads, to the tables, as the one this was made from: the same setup, score,
    /// status, winner, end and start. Its counts, clock and plays are not the game's.
    public var game: Game {
        var game = Game(setup: setup, counts: [:])
        game.score = score
        game.status = status
        game.winner = winner
        game.endReason = endReason
        // The tables read only whether it has plays (``Game/hasStarted``): one stands in.
        if started { game.plays = Self.played }
        return game
    }

    /// The stand-in for a started game's plays, shared by every game rebuilt.
    private static let played: PlayHistory = [
        Play(version: 1, at: Timestamp(milliseconds: 0), player: PlayerID(""), side: .home, move: .assist)
    ]
}

/// Games kept as ``BracketGame``s, read by the tables as games.
public struct BracketGames: GamesByID, Sendable {
    private var kept: [GameID: BracketGame]

    /// What the tables read of each of `games`.
    public init(_ games: [GameID: Game]) { kept = games.mapValues(BracketGame.init) }

    public subscript(_ id: GameID) -> Game? { kept[id]?.game }

    /// Keeps `game` in place of what was kept for its id.
    public mutating func record(_ game: BracketGame) { kept[game.setup.id] = game }
}
