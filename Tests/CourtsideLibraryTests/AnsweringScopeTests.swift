import CourtsideModel
import CourtsideStorage
import Foundation
import Synchronization
import Testing

@testable import CourtsideLibrary

@Suite("a commit's answers inside the answering scope", .timeLimit(.minutes(LibraryTestLimits.minutes)))
struct AnsweringScopeTests {
    /// What the scope saw: how many times it ran, and whether one runs now.
    private struct Scopes {
        var runs = 0
        var inside = false
    }

    @Test("every command of a commit is answered inside one run of the scope, after the commit")
    func oneScopePerCommit() async throws {
        let directory = try TemporaryDirectory()
        let log = ThreadRecordingLog(try SQLiteEventLog(directory: directory.url))
        let library = try GameLibrary(log: log, clock: ManualClock(), logger: Tournament.logger)
        try await library.createGame(Tournament.setup("g1"), origin: origin())
        library.waitUntilNotWriting()
        let scopes = Mutex(Scopes())
        library.answerCommits { answer in
            scopes.withLock {
                $0.runs += 1
                $0.inside = true
            }
            answer()
            scopes.withLock { $0.inside = false }
        }
        // Each answer: the scope's run it came in (nil outside any), and the log's commits by then.
        let answers = Mutex<[(run: Int?, commits: Int)]>([])
        func move(_ side: Side) async -> PendingReceipt {
            let pending = await library.submit(
                .move(player: Tournament.player("g1", side), move: .twoPoints), to: "g1", origin: origin())
            pending.whenSettled { _ in
                let run = scopes.withLock { $0.inside ? $0.runs : nil }
                answers.withLock { $0.append((run, log.threads.count)) }
            }
            return pending
        }
        // The writer holds the first move's commit while three more queue: they commit together.
        log.hold()
        let first = await move(.home)
        while log.threads.count < 2 { try await Task.sleep(for: .milliseconds(5)) }
        let more = [await move(.away), await move(.home), await move(.away)]
        log.release()
        #expect(try await first.value().version == 2)
        #expect(try await more.asyncMap { try await $0.value().version } == [3, 4, 5])
        let seen = answers.withLock { $0 }
        #expect(seen.map(\.run) == [1, 2, 2, 2])
        #expect(seen.map(\.commits) == [2, 3, 3, 3])
        #expect(scopes.withLock { $0.runs } == 2)
        await library.close()
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
