import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Starts `body` on a new thread named `name`, the name that top, perf and /proc show.
///
/// The thread names itself as its first step, through /proc/thread-self/comm (Swift's Glibc
/// module shows neither `pthread_setname_np` nor a usable `prctl`). Foundation's `Thread.name`
/// is no use from inside: the `Thread` learns its pthread only when the creator's `start()`
/// returns, and a name set before that is dropped, so a thread that ran first kept its
/// creator's name (often a pool thread's, `oot.default-qos`). Without /proc, that is still the
/// fallback.
///
/// - Precondition: `name` fits Linux's limit of 15 bytes.
package func startThread(named name: String, _ body: @escaping @Sendable () -> Void) {
    precondition(name.utf8.count <= 15, "a thread name is 15 bytes at most: \(name)")
    let thread = Thread {
        #if canImport(Glibc)
            let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
            let written = file < 0 ? -1 : name.withCString { write(file, $0, strlen($0)) }
            if file >= 0 { close(file) }
            if written != name.utf8.count { Thread.current.name = name }
        #else
            Thread.current.name = name
        #endif
        body()
    }
    thread.start()
}
