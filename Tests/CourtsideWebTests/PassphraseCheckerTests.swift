import Foundation
import Testing

@testable import CourtsideWeb

/// The desk's passphrase checks: made on their own thread, and answered in time whatever the
/// machine does, "busy" when the check was not done by then.
@Suite("the desk's passphrase checker")
struct PassphraseCheckerTests {
    static let hash = DeskGateway.hash(passphrase: "right horse battery")

    @Test("a check made in time says right or wrong (bcrypt)")
    func madeInTime() async {
        let checker = PassphraseChecker(hash: Self.hash, capacity: 4, maxWait: .seconds(60))
        #expect(await checker.check("right horse battery") == .right)
        #expect(await checker.check("wrong horse battery") == .wrong)
    }

    @Test(
        "a check not done within its wait is answered busy, the one being made and the one queued behind it; the late finding is dropped"
    )
    func answeredInTime() async throws {
        // Each check is held until the test lets it finish, as a machine too busy to run the
        // checker's thread would hold it.
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let checker = PassphraseChecker(hash: Self.hash, capacity: 4, maxWait: .milliseconds(50)) { _, _ in
            release.wait()
            defer { finished.signal() }
            return true
        }
        async let first = checker.check("right horse battery")
        async let second = checker.check("right horse battery")
        #expect(await [first, second] == [.busy, .busy])
        // The first was being made: it finishes now, and a second answer to it would trap. The
        // second was taken out of the queue at its deadline and is never made.
        release.signal()
        #expect(await Task.detached { finished.wait(timeout: .now() + 10) == .success }.value)
        release.signal()
        #expect(await Task.detached { finished.wait(timeout: .now() + 0.3) == .timedOut }.value)
    }
}
