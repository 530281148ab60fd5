import CourtsideThreads
import DequeModule
import Foundation
import HummingbirdBcrypt
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Checks the desk's passphrase against its bcrypt hash, one check at a time on a thread of its
/// own at a low scheduling priority (nice 10), with a short queue: bcrypt takes a tenth of a
/// second of CPU on purpose, and a guesser's checks run unbounded beside the keepers' requests
/// made keepers' commands take seconds. A check that finds the queue full is not made ("busy"),
/// nor one that waited `maxWait` in it. A check being made gives its finding however long it
/// takes: a deadline on it would lock the organiser out of a machine too busy to make one in
/// time. Nice 19 was tried: on a machine busy with other work (a CI run) such a thread got under
/// 1% of a core, and one check took more than 10 s.
final class PassphraseChecker: Sendable {
    /// What a check found.
    enum Outcome: Sendable, Equatable {
        case right
        case wrong
        /// Too many checks wait already, or this one waited too long for its turn: none was
        /// made; try again shortly.
        case busy
    }

    private struct Job: Sendable {
        var id: UInt64
        var passphrase: String
        var continuation: CheckedContinuation<Outcome, Never>
    }

    private let hash: String
    private let capacity: Int
    private let maxWait: Duration
    private let verify: @Sendable (_ passphrase: String, _ hash: String) -> Bool
    private let jobs = Mutex((next: UInt64(0), queue: Deque<Job>()))
    private let wake = DispatchSemaphore(value: 0)

    /// `capacity` checks may wait at once beside the one being made, each for `maxWait` at most.
    /// `verify` makes a check (bcrypt's; a test's may take its time).
    init(
        hash: String, capacity: Int, maxWait: Duration = .seconds(3),
        verify: @escaping @Sendable (_ passphrase: String, _ hash: String) -> Bool = { Bcrypt.verify($0, hash: $1) }
    ) {
        self.hash = hash
        self.capacity = max(1, capacity)
        self.maxWait = maxWait
        self.verify = verify
        startThread(named: "courtside.crypt") { [self] in
            #if canImport(Glibc)
                // Nice 10 for this thread alone: on Linux the nice value is a thread's, and `who` 0
                // names the calling thread. A keeper's request that wakes takes the core from it.
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            #endif
            run()
        }
    }

    /// Checks `passphrase`, waiting for the thread (not a cooperative one) meanwhile.
    func check(_ passphrase: String) async -> Outcome {
        await withCheckedContinuation { continuation in
            let queued: UInt64? = jobs.withLock { jobs in
                guard jobs.queue.count < capacity else { return nil }
                jobs.next += 1
                jobs.queue.append(Job(id: jobs.next, passphrase: passphrase, continuation: continuation))
                return jobs.next
            }
            guard let id = queued else { return continuation.resume(returning: .busy) }
            wake.signal()
            Task { [maxWait] in
                try? await Task.sleep(for: maxWait)
                // Still waiting: answered busy, and taken out so the thread never checks it.
                let expired = jobs.withLock { jobs in
                    jobs.queue.firstIndex { $0.id == id }.map { jobs.queue.remove(at: $0) }
                }
                expired?.continuation.resume(returning: .busy)
            }
        }
    }

    private func run() {
        while true {
            wake.wait()
            guard let job = jobs.withLock({ $0.queue.popFirst() }) else { continue }
            job.continuation.resume(returning: verify(job.passphrase, hash) ? .right : .wrong)
        }
    }
}
