import Foundation
import Synchronization
import Testing

@testable import CourtsideWeb

/// The desk's passphrase checks: made one at a time on their own thread; one that waits too long
/// for its turn is answered "busy" and never made, one being made gives its finding.
@Suite("the desk's passphrase checker")
struct PassphraseCheckerTests {
    @Test("a check says right or wrong (bcrypt)")
    func rightOrWrong() async {
        let checker = PassphraseChecker(
            hash: DeskGateway.hash(passphrase: "right horse battery"), capacity: 4, maxWait: .seconds(60))
        #expect(await checker.check("right horse battery") == .right)
        #expect(await checker.check("wrong horse battery") == .wrong)
    }

    @Test(
        "a check queued behind one being made is answered busy at its deadline and never made; the one being made gives its finding however late"
    )
    func queuedAndMade() async throws {
        // Each check is held until the test lets it finish, as a machine too busy to run the
        // checker's thread would hold it.
        let release = DispatchSemaphore(value: 0)
        let made = Mutex<[String]>([])
        let checker = PassphraseChecker(hash: "", capacity: 4, maxWait: .milliseconds(50)) { passphrase, _ in
            made.withLock { $0.append(passphrase) }
            release.wait()
            return passphrase == "right"
        }
        async let first = checker.check("right")
        while made.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(5)) }
        #expect(await checker.check("queued") == .busy)
        release.signal()
        #expect(await first == .right)
        // Were the queued one made after all, it would not be held.
        release.signal()
        try await Task.sleep(for: .milliseconds(300))
        #expect(made.withLock { $0 } == ["right"])
    }
}
