import CourtsideModel
import CourtsideStorage
import Foundation
import Synchronization

/// Failure drills for tests and operators, chosen with `COURTSIDE_FAULT`: each makes one part
/// fail the way it fails in the field, so that what the daemon does about it can be watched.
enum FaultDrill: String {
    /// The I/O thread's first poll fails.
    case transportPoll = "transport.poll"
    /// Once serving, the log writer hangs in its next write, as on a disk stuck in fsync.
    case storageStall = "storage.stall"

    static var current: FaultDrill? { ProcessInfo.processInfo.environment["COURTSIDE_FAULT"].flatMap(Self.init) }
}

/// An event log whose writes hang for good once ``arm()`` is called: the ``FaultDrill/storageStall`` drill.
final class StallingEventLog: EventLog {
    private let base: any EventLog
    private let armed = Atomic<Bool>(false)
    private let never = DispatchSemaphore(value: 0)

    init(_ base: any EventLog) { self.base = base }

    func arm() { armed.store(true, ordering: .releasing) }

    func append(_ events: [GameEvent], refusals: [CommandRefusal]) throws {
        try append(events, refusals: refusals, checkpoint: nil)
    }

    func append(_ events: [GameEvent], refusals: [CommandRefusal], checkpoint part: CheckpointPart?) throws {
        if armed.load(ordering: .acquiring) { never.wait() }
        try base.append(events, refusals: refusals, checkpoint: part)
    }

    func writeCheckpoint(_ part: CheckpointPart) throws {
        if armed.load(ordering: .acquiring) { never.wait() }
        try base.writeCheckpoint(part)
    }

    func readEvents(after sequence: Int64) throws -> [GameEvent] { try base.readEvents(after: sequence) }
    func forEachAnswer(_ body: (LoggedAnswer) throws -> Void) throws { try base.forEachAnswer(body) }
    func readCheckpoint() throws -> Checkpoint? { try base.readCheckpoint() }

    func readAll() throws -> [GameEvent] { try base.readAll() }
    func readRefusals() throws -> [CommandRefusal] { try base.readRefusals() }
    func events(ofGame game: GameID) async throws -> [GameEvent] { try await base.events(ofGame: game) }
    func contains(_ origin: CommandOrigin) async throws -> Bool { try await base.contains(origin) }
    func close() throws { try base.close() }
}
