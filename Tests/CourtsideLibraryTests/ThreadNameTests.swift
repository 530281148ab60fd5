import CourtsideThreads
import Foundation
import Testing

/// Our threads carry their names from their first step: top, perf and the watchdog's tests
/// tell them apart by it.
@Suite struct ThreadNameTests {
    /// The name the calling thread has in /proc.
    private static func ownName() -> String {
        (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines) ?? ""
    }

    /// Started from Swift's pool, as the daemon's threads are: Foundation's `Thread.name`, set from
    /// inside, was sometimes dropped, and the thread kept the pool thread's name (2 threads in
    /// 3,000 with both cores busy).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/thread-self/comm")))
    func namedFromTheFirstStep() async {
        for index in 0..<200 {
            let name = "courtside.t\(index)"
            let seen = await withCheckedContinuation { (seen: CheckedContinuation<String, Never>) in
                startThread(named: name) { seen.resume(returning: Self.ownName()) }
            }
            #expect(seen == name)
        }
    }
}
