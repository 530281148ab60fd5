/// A command that a game refused, kept in the log beside the events so that a retry of it is
/// answered with the same refusal, also after a restart, even once the game would accept it.
///
/// A refusal changes nothing in the game: it has no version and no sequence number.
public struct CommandRefusal: Hashable, Sendable {
    public var gameID: GameID
    public var origin: CommandOrigin
    /// When the game refused it.
    public var at: Timestamp
    public var error: CourtsideError

    public init(gameID: GameID, origin: CommandOrigin, at: Timestamp, error: CourtsideError) {
        self.gameID = gameID
        self.origin = origin
        self.at = at
        self.error = error
    }
}
