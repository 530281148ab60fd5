import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Starts `body` on a new thread named `name`, the name that top, perf and /proc show.
///
/// The thread names itself as its first step, through /proc (as glibc's `pthread_setname_np`
/// does, which Swift's Glibc module does not show). Foundation's `Thread.name` is no use from
/// inside: the `Thread` learns its pthread only when the creator's `start()` returns, and a
/// name set before that is dropped, so a thread that ran first kept its creator's name (often
/// a pool thread's, `oot.default-qos`).
///
/// - Precondition: `name` fits Linux's limit of 15 bytes.
package func startThread(named name: String, _ body: @escaping @Sendable () -> Void) {
    precondition(name.utf8.count <= 15, "a thread name is 15 bytes at most: \(name)")
    let thread = Thread {
        #if canImport(Glibc)
            let file = open("/proc/thread-self/comm", O_WRONLY)
            if file >= 0 {
                _ = name.withCString { write(file, $0, strlen($0)) }
                close(file)
            }
        #else
            Thread.current.name = name
        #endif
        body()
    }
    thread.start()
}
