import Testing

@testable import CourtsideWeb

/// The desk's passphrase checks: made on their own thread, and answered in time whatever the
/// machine does, "busy" when the check was not done by then.
@Suite("the desk's passphrase checker")
struct PassphraseCheckerTests {
    static let hash = DeskGateway.hash(passphrase: "right horse battery")

    @Test("a check made in time says right or wrong")
    func madeInTime() async {
        let checker = PassphraseChecker(hash: Self.hash, capacity: 4, maxWait: .seconds(60))
        #expect(await checker.check("right horse battery") == .right)
        #expect(await checker.check("wrong horse battery") == .wrong)
    }

    @Test(
        "a check not done within its wait is answered busy, even one being made (bcrypt at cost 11 takes far longer than 1 ms); its late finding is dropped"
    )
    func answeredInTime() async throws {
        let checker = PassphraseChecker(hash: Self.hash, capacity: 4, maxWait: .milliseconds(1))
        // The first is taken by the thread at once and is being made at its deadline; the second
        // waits in the queue behind it.
        async let first = checker.check("right horse battery")
        async let second = checker.check("right horse battery")
        #expect(await [first, second] == [.busy, .busy])
        // The thread finishes the first check meanwhile (the second it never makes): a second
        // answer to it would trap.
        try await Task.sleep(for: .milliseconds(600))
        #expect(await checker.check("wrong horse battery") == .busy)
    }
}
