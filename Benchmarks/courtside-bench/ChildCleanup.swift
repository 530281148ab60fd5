import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What a benchmark has started and must stop however it ends: the daemons and PostgreSQL
/// servers it runs register a stop here while they run. The `defer`s that stop them on a
/// thrown error do not run when the benchmark is interrupted (Ctrl-C, SIGTERM), and neither
/// courtsided nor a server started with pg_ctl ends with its parent: once
/// ``stopOnInterrupt()`` is called, those signals run every registered stop, then exit.
enum ChildCleanup {
    private static let stops = Mutex<[Int: @Sendable () -> Void]>([:])
    private static let nextKey = Atomic(0)
    /// Kept for as long as the process runs: a released source stops watching.
    private static let sources = Mutex<[UncheckedBox<any DispatchSourceSignal>]>([])

    /// Registers `stop`; returns the key that ``remove(_:)`` takes once the caller has stopped it.
    static func add(_ stop: @escaping @Sendable () -> Void) -> Int {
        let key = nextKey.add(1, ordering: .relaxed).newValue
        stops.withLock { $0[key] = stop }
        return key
    }

    static func remove(_ key: Int) {
        _ = stops.withLock { $0.removeValue(forKey: key) }
    }

    /// From now on SIGINT and SIGTERM stop every registered child, then exit with 128 + the signal.
    static func stopOnInterrupt() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                let pending = stops.withLock { stops in
                    defer { stops.removeAll() }
                    return Array(stops.values)
                }
                print("courtside-bench: interrupted; stopping \(pending.count) daemons and servers")
                for stop in pending { stop() }
                exit(128 + number)
            }
            source.resume()
            let kept = UncheckedBox(source)
            sources.withLock { $0.append(kept) }
        }
    }
}
