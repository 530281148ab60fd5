import CourtsideLibrary
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
    /// The standings and bracket messages of the first result that changes the standings are
    /// not sent, as if lost on the way; heartbeats announce their sequences all the same.
    case dropTables = "publish.drop_tables"
    /// The first move's event is not sent, nor its game's next beat, as if both were lost.
    case dropMove = "publish.drop_move"

    static var current: FaultDrill? { ProcessInfo.processInfo.environment["COURTSIDE_FAULT"].flatMap(Self.init) }
}

/// What the publisher's drills still have to drop; each drops once.
struct PublishDrops {
    private var tables: Bool
    private var move: Bool
    /// The game whose next beat is to be dropped, once its move was.
    var beat: GameID?

    init(_ drill: FaultDrill?) {
        tables = drill == .dropTables
        move = drill == .dropMove
    }

    /// Whether to drop the tables being published now (asked only when the standings change).
    mutating func takeTables() -> Bool {
        defer { tables = false }
        return tables
    }

    /// The index of the move event to drop among a commit's `fresh` ones, if the drill is due.
    mutating func move(in commit: [GameUpdate], _ fresh: some Collection<Int>) -> Int? {
        guard move, let index = fresh.first(where: { if case .move = commit[$0].event.kind { true } else { false } })
        else { return nil }
        move = false
        beat = commit[index].event.gameID
        return index
    }
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
