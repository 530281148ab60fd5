public import CourtsideModel

/// A durable, append-only log of committed game events, and of the commands games refused.
///
/// Calls are synchronous and may block on disk; the game library makes them from a dedicated
/// writer thread, never from Swift's cooperative pool.
public protocol EventLog: Sendable {
    /// Every event in the log, in sequence order.
    func readAll() throws -> [GameEvent]
    /// Every refusal in the log, oldest first.
    func readRefusals() throws -> [CommandRefusal]
    /// Appends a batch of events and refusals in one transaction. When this returns, the batch
    /// survives a crash or a power loss; when it throws, none of it was written.
    func append(_ events: [GameEvent], refusals: [CommandRefusal]) throws
    /// One game's events in order: its full audit trail. Reads never wait for the writer.
    func events(ofGame game: GameID) async throws -> [GameEvent]
    /// Whether the log holds an event or a refusal of this command (a look-up by index).
    func contains(_ origin: CommandOrigin) async throws -> Bool
    /// Flushes and releases the log. Further calls fail.
    func close() throws
}
