import Dispatch
import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// Copies the write-ahead log back into the database file on a thread and connection of its
/// own, so that no commit ever waits for it.
///
/// Left to itself, SQLite checkpoints inside the commit that takes the WAL past 1,000 pages:
/// that commit then copies every page and fsyncs the whole database file before it returns,
/// which is a keeper's slowest round trip by far (12–16 ms against a 0.2 ms fdatasync). Here the
/// writer's commit hook only counts pages and wakes this thread, which runs a PASSIVE checkpoint:
/// it copies what no reader still needs and never blocks the writer or the readers.
final class WALCheckpointer: Sendable {
    /// The WAL size, in pages, that wakes the checkpointer (SQLite's own default threshold).
    static let defaultThreshold: Int32 = 1000

    private struct State {
        /// A checkpoint is asked for and not yet begun: the hook need not signal again.
        var requested = false
        var stopping = false
        var onStop: DispatchSemaphore?
        var completed = 0
    }

    private let connection: DatabaseQueue
    private let threshold: Int32
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    /// Opens a connection of its own to the database at `path` and starts its thread.
    init(path: String, threshold: Int32 = defaultThreshold) throws {
        var configuration = Configuration()
        configuration.label = "courtside.wal-checkpoint"
        // A PASSIVE checkpoint never waits for a lock; opening may, briefly, behind a commit.
        configuration.busyMode = .timeout(5)
        connection = try DatabaseQueue(path: path, configuration: configuration)
        self.threshold = threshold
        let thread = Thread { [self] in self.run() }
        thread.name = "courtside.wal-checkpoint"
        thread.start()
    }

    /// How many checkpoints have run so far.
    var completedCheckpoints: Int { state.withLock { $0.completed } }

    /// Takes over the writer connection's WAL hook, which also turns off its automatic
    /// checkpoints: SQLite's are one such hook. Call on the writer connection, once.
    func install(on db: Database) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_wal_hook(
            db.sqliteConnection,
            { context, _, _, pages in
                // On the writer's thread, inside its commit: count, maybe wake, nothing more.
                guard let context else { return SQLITE_OK }
                Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue().committed(walPages: pages)
                return SQLITE_OK
            }, context)
    }

    private func committed(walPages: Int32) {
        guard walPages >= threshold else { return }
        let signal = state.withLock { state in
            defer { state.requested = true }
            return !state.requested && !state.stopping
        }
        if signal { wake.signal() }
    }

    /// Runs a checkpoint now and waits for it: for tests and for the close.
    func checkpointNow() {
        try? connection.writeWithoutTransaction { db in _ = try db.checkpoint(.passive) }
    }

    /// Stops the thread after the checkpoint it is running, if any, and closes its connection.
    /// The database's last connection to close checkpoints whatever is left.
    func stop() {
        let done = DispatchSemaphore(value: 0)
        let first = state.withLock { state in
            defer { state.stopping = true }
            if !state.stopping { state.onStop = done }
            return !state.stopping
        }
        guard first else { return }
        wake.signal()
        done.wait()
        try? connection.close()
    }

    private func run() {
        while true {
            wake.wait()
            let stopping = state.withLock { state in
                state.requested = false
                return state.stopping
            }
            if stopping {
                state.withLock { $0.onStop }?.signal()
                return
            }
            // A failure (a full disk, say) loses nothing: the WAL keeps every page, and the
            // next commit past the threshold asks again.
            try? connection.writeWithoutTransaction { db in _ = try db.checkpoint(.passive) }
            state.withLock { $0.completed += 1 }
        }
    }
}
