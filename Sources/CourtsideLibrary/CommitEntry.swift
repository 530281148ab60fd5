import CourtsideModel

/// One command's share of a commit: its events and the sequence they are numbered from, the games' states after them, and the
/// ticket that its caller awaits.
struct CommitEntry {
    /// The command's events as its game made them, with the game's state after each (for the
    /// committed view and subscribers): the writer numbers the events from `first` in the batch
    /// it commits (``CommittedBatch``).
    var changes: CommitChanges
    /// The sequence number of the first event.
    var first: Int64
    /// Set when the command was refused: the ticket then settles with this refusal once it
    /// is durable (with any events found on the way, such as time running out).
    var refusal: CommandRefusal?
    /// Taken by the batch that commits the entry (``CommittedBatch``), so that no copy of the
    /// reference is made and released on the log writer, a command apiece.
    var ticket: CommitTicket?
}
