import CourtsideModel
import CourtsideStorage
import Foundation
import Synchronization

/// Failure drills for tests and operators, chosen with `COURTSIDE_FAULT`: each makes one part
/// fail the way it fails in the field, so that what the daemon does about it can be watched.
enum FaultDrill: String {
    /// The I/O thread's first poll fails.
    case transportPoll = "transport.poll"
    /// Once serving, the log's next write hangs (a commit's, or a checkpoint part's), as on a
    /// disk stuck in fsync.
    case storageStall = "storage.stall"

    static var current: FaultDrill? { ProcessInfo.processInfo.environment["COURTSIDE_FAULT"].flatMap(Self.init) }
}

/// An event log whose writes hang for good once ``arm()`` is called: the ``FaultDrill/storageStall`` drill.
final class StallingEventLog: ForwardingEventLog {
    let base: any EventLog
    private let armed = Atomic<Bool>(false)
    private let never = DispatchSemaphore(value: 0)

    init(_ base: any EventLog) { self.base = base }

    func arm() { armed.store(true, ordering: .releasing) }

    func append(_ events: [GameEvent], refusals: [CommandRefusal]) throws {
        if armed.load(ordering: .acquiring) { never.wait() }
        try base.append(events, refusals: refusals)
    }

    func writeCheckpoint(_ part: CheckpointPart) throws {
        if armed.load(ordering: .acquiring) { never.wait() }
        try base.writeCheckpoint(part)
    }
}
