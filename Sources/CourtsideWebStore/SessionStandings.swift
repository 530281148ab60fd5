import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The keeper sessions' standings as last read from the store, used again while the store's file
/// is unchanged. Every command a keeper sends is checked against its session, and a read of the
/// store is a hop to its queue and back: 190 to 220 µs p50 of the gateway's 1 ms for a keeper's
/// command on a quiet machine, 480 µs beside the keeper's browser (release builds, timed in the
/// gateway), against a few µs for the check below.
///
/// Whether the file changed is SQLite's own test for its page cache: the file change counter, the
/// header's four bytes at offset 24, which a committed write of any connection moves in the
/// store's rollback-journal mode, this process's and `courtside-web codes`'s alike. A session
/// ended, a device revoked, a court's new code: each is a write, after which every entry misses
/// and is read again. Nothing is kept when the file is in WAL mode, where commits leave the
/// counter alone.
final class SessionStandings: Sendable {
    /// A joined session's standing, its session's expiry, and the counter read before it was read.
    struct Entry: Sendable {
        var device: KeeperDevice
        var expiresAt: Double?
        var counter: UInt32
    }

    /// The store's file, open for reading its header; nil when nothing is kept.
    private let descriptor: Int32?
    private let entries = Mutex<[String: Entry]>([:])
    /// Entries kept at most; past it they are all dropped (sessions are a tournament's devices,
    /// a few hundred, and a guest who makes up cookies earns no entry: only joined ones are kept).
    static let capacity = 4096

    /// Keeps entries for the file at `path` when `rollbackJournal` (its journal mode is not WAL).
    init(path: String, rollbackJournal: Bool) {
        let file = rollbackJournal ? open(path, O_RDONLY | O_CLOEXEC) : -1
        descriptor = file >= 0 ? file : nil
    }

    deinit {
        if let descriptor { close(descriptor) }
    }

    /// The file's change counter now; nil when nothing is kept or the header cannot be read.
    func counter() -> UInt32? {
        guard let descriptor else { return nil }
        var bytes: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        let read = withUnsafeMutableBytes(of: &bytes) { pread(descriptor, $0.baseAddress, 4, 24) }
        guard read == 4 else { return nil }
        return UInt32(bytes.0) << 24 | UInt32(bytes.1) << 16 | UInt32(bytes.2) << 8 | UInt32(bytes.3)
    }

    /// The joined device of the session `key`, when it was read at `counter` and its session is
    /// current at `now`; nil when it must be read from the store.
    func device(ofSession key: String, now: Date, counter: UInt32) -> KeeperDevice? {
        guard let entry = entries.withLock({ $0[key] }), entry.counter == counter else { return nil }
        let time = now.timeIntervalSince1970
        guard entry.expiresAt.map({ $0 > time }) ?? true else { return nil }
        return entry.device
    }

    /// After this process's own write of what no standing depends on (that a device was seen,
    /// or sent a command), which changed a row, made while the counter went from `before` to
    /// `after`: when no other write came between (`after` is one past `before`), the entries
    /// read at `before` still hold at `after`, each of that device's with `change` made.
    /// Otherwise every keeper's note that it was seen (one a device every 10 s) would send every
    /// other keeper's next command to the store: with a few courts, nearly all of them.
    func advance(from before: UInt32, to after: UInt32, device id: String, _ change: (inout KeeperDevice) -> Void) {
        guard after == before &+ 1 else { return }
        entries.withLock { entries in
            for (key, entry) in entries where entry.counter == before {
                var advanced = entry
                advanced.counter = after
                if entry.device.id == id { change(&advanced.device) }
                entries[key] = advanced
            }
        }
    }

    /// Keeps the joined device of the session `key` as read at `counter`.
    func remember(_ device: KeeperDevice, ofSession key: String, expiresAt: Double?, counter: UInt32) {
        entries.withLock { entries in
            if entries.count >= Self.capacity, entries[key] == nil { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(device: device, expiresAt: expiresAt, counter: counter)
        }
    }
}
