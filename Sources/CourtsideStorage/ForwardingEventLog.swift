public import CourtsideModel

/// An ``EventLog`` that hands every call to another one, ``base``: what wrappers that change one
/// behaviour of a real log build on (a fault drill whose writes hang, tests that hold, fail or
/// count commits, a benchmark that counts transactions), so that each implements only what it
/// changes and the rest, checkpoints included, behaves as the wrapped log does.
///
/// Implement ``EventLog/append(_:refusals:)`` (and ``EventLog/writeCheckpoint(_:)``, where it
/// matters) to change the writes.
///
/// A protocol rather than a base class, so that the compiler still checks that each wrapper is
/// `Sendable`: a class open to subclasses could only be `@unchecked Sendable`, and so would be
/// every wrapper.
public protocol ForwardingEventLog: EventLog {
    /// The log every call goes to.
    var base: any EventLog { get }
}

extension ForwardingEventLog {
    public func readAll() throws -> [GameEvent] { try base.readAll() }
    public func readRefusals() throws -> [CommandRefusal] { try base.readRefusals() }
    public func append(_ events: [GameEvent], refusals: [CommandRefusal]) throws { try base.append(events, refusals: refusals) }
    public func events(ofGame game: GameID) async throws -> [GameEvent] { try await base.events(ofGame: game) }
    public func contains(_ origin: CommandOrigin) async throws -> Bool { try await base.contains(origin) }
    public func close() throws { try base.close() }
    public func readEvents(after sequence: Int64) throws -> [GameEvent] { try base.readEvents(after: sequence) }
    public func readEvents(ofGame game: GameID) throws -> [GameEvent] { try base.readEvents(ofGame: game) }
    public func forEachAnswer(_ body: (LoggedAnswer) throws -> Void) throws { try base.forEachAnswer(body) }
    public func readCheckpoint() throws -> Checkpoint? { try base.readCheckpoint() }
    public func checkpointSequence() throws -> Int64? { try base.checkpointSequence() }
    public func writeCheckpoint(_ part: CheckpointPart) throws { try base.writeCheckpoint(part) }
}
