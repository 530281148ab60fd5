import CourtsideModel

/// One command's share of a commit: its numbered events, the games' states after them, and the
/// ticket that its caller awaits.
struct CommitEntry {
    var events: [GameEvent]
    /// The game's state after each event, for the committed view and subscribers; empty for
    /// the tournament's stream (``GameID/tournament``), whose events change no game.
    var games: [Game]
    /// Set when the command was refused: the ticket then settles with this refusal once it
    /// is durable (with any events found on the way, such as time running out).
    var refusal: CommandRefusal?
    var ticket: CommitTicket
}
