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
/// and one not answered within `maxWait` of asking, waiting or being made, is answered "busy"
/// then (a check already made goes on, its finding dropped): an answer in time matters more than
/// the check. Nice 19 was tried: on a machine busy with other work such a thread got under 1% of
/// a core, a check took more than 10 s, and the organiser's right passphrase was never checked.
final class PassphraseChecker: Sendable {
    /// What a check found.
    enum Outcome: Sendable, Equatable {
        case right
        case wrong
        /// Too many checks wait already, or this one was not done in time: try again shortly.
        case busy
    }

    private struct Job: Sendable {
        var id: UInt64
        var passphrase: String
    }

    private struct Jobs: Sendable {
        var next: UInt64 = 0
        var queue = Deque<Job>()
        /// Who waits for each check asked and not yet answered, queued or being made: whichever
        /// of its finding and its deadline comes first takes it out and answers.
        var waiting: [UInt64: CheckedContinuation<Outcome, Never>] = [:]
    }

    private let hash: String
    private let capacity: Int
    private let maxWait: Duration
    private let verify: @Sendable (_ passphrase: String, _ hash: String) -> Bool
    private let jobs = Mutex(Jobs())
    private let wake = DispatchSemaphore(value: 0)

    /// `capacity` checks may wait at once beside the one being made, each answered within
    /// `maxWait` of asking. `verify` makes a check (bcrypt's; a test's may take its time).
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
                jobs.queue.append(Job(id: jobs.next, passphrase: passphrase))
                jobs.waiting[jobs.next] = continuation
                return jobs.next
            }
            guard let id = queued else { return continuation.resume(returning: .busy) }
            wake.signal()
            Task { [maxWait] in
                try? await Task.sleep(for: maxWait)
                // Not answered yet: "busy"; taken out of the queue if still there, so the thread
                // never makes it.
                let late = jobs.withLock { jobs in
                    if let index = jobs.queue.firstIndex(where: { $0.id == id }) { jobs.queue.remove(at: index) }
                    return jobs.waiting.removeValue(forKey: id)
                }
                late?.resume(returning: .busy)
            }
        }
    }

    private func run() {
        while true {
            wake.wait()
            guard let job = jobs.withLock({ $0.queue.popFirst() }) else { continue }
            let outcome: Outcome = verify(job.passphrase, hash) ? .right : .wrong
            jobs.withLock { $0.waiting.removeValue(forKey: job.id) }?.resume(returning: outcome)
        }
    }
}
