public import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Keeps memory that a burst freed from staying in the RSS.
///
/// glibc keeps what a burst freed (a start's replay, a resync storm's 10 MB replies) in its
/// arenas for reuse, where it counts in the RSS for good, and by default gives each thread that
/// allocates at once an arena of its own, up to eight per core.
public enum FreedMemory {
    /// Lets malloc make at most `count` arenas. With one per busy thread, memory freed in one
    /// arena is of no use to the others: `courtside-bench reads` at 10,000 games kept 136 MiB
    /// after its snapshots with glibc's default, 105–116 MiB with one or two arenas, at the same
    /// throughput. Call early: arenas made before stay.
    public static func limitArenas(to count: Int32) {
        #if canImport(Glibc)
            // M_ARENA_MAX in malloc.h, which Swift's Glibc module does not declare, nor mallopt.
            let arenaMax: Int32 = -8
            typealias Option = @convention(c) (Int32, Int32) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
            _ = unsafeBitCast(symbol, to: Option.self)(arenaMax, count)
        #endif
    }

    /// Returns the free pages of every malloc arena to the system: `malloc_trim`, which costs a
    /// walk of the arenas, so it is for the end of a burst, not for every free.
    public static func giveBack() {
        #if canImport(Glibc)
            // Swift's Glibc module does not declare `malloc_trim`: found by name.
            typealias Trim = @convention(c) (Int) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }
}

/// A worker thread's wait for work that, after a burst, gives freed memory back once the thread
/// has been idle a second: the end of a burst, when nothing it allocated is still in use.
public struct IdleTrimmer {
    /// The work (commands, bytes) since the last trim that makes the next idle second trim.
    let threshold: Int
    private var sinceTrim = 0

    public init(after threshold: Int) { self.threshold = threshold }

    /// Counts work done.
    public mutating func did(_ work: Int) { sinceTrim += work }

    /// Waits for `wake`. Returns false, having trimmed instead, when a burst ended in a second
    /// without a signal; the caller then waits again. `atBurstEnd` runs right before that trim,
    /// to free what is kept only for a burst.
    public mutating func wait(_ wake: DispatchSemaphore, atBurstEnd: () -> Void = {}) -> Bool {
        guard sinceTrim >= threshold else {
            wake.wait()
            return true
        }
        guard wake.wait(timeout: .now() + 1) == .timedOut else { return true }
        atBurstEnd()
        FreedMemory.giveBack()
        sinceTrim = 0
        return false
    }
}
