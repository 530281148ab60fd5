import CourtsideStorageTesting
import Testing

/// The failover scenarios' invariant checks (used by the PostgreSQL and the daemon scenarios).
@Suite("Acknowledgement and term checks")
struct AcknowledgementCheckTests {
    @Test("every acknowledged id found once holds; found but never acknowledged is allowed and counted")
    func holds() {
        let check = AcknowledgementCheck(acknowledged: [1, 2, 3], found: [1, 2, 3, 4])
        #expect(check.holds)
        #expect(check.missing.isEmpty && check.duplicated.isEmpty)
        #expect((check.acknowledged, check.found, check.unacknowledgedFound) == (3, 4, 1))
    }

    @Test(
        "missing ones in the order acknowledged; doubles listed once, acknowledged or not; a repeated acknowledgement counts once"
    )
    func failures() {
        let check = AcknowledgementCheck(acknowledged: ["c", "a", "b", "a", "e"], found: ["b", "b", "d", "b", "d", "e"])
        #expect(check.missing == ["c", "a"])
        #expect(check.duplicated == ["b", "d"])
        #expect(!check.holds)
        #expect((check.acknowledged, check.found, check.unacknowledgedFound) == (4, 3, 1))
        #expect(check.summary.contains("missing 2, duplicated 2"))
        #expect(check.summary.contains("first missing: c, a"))
    }

    @Test("nothing acknowledged and nothing found holds")
    func empty() {
        #expect(AcknowledgementCheck<Int>(acknowledged: [], found: []).holds)
        #expect(AcknowledgementCheck(acknowledged: [], found: [7]).holds)
        #expect(AcknowledgementCheck(acknowledged: [7], found: []).missing == [7])
    }

    @Test("the term never goes down as the sequence goes up: entries in any order, each decrease found")
    func termDecreases() {
        #expect(TermCheck.termDecreases([(3, 2), (1, 1), (2, 1), (4, 2)]).isEmpty)
        let found = TermCheck.termDecreases([(5, 3), (1, 1), (3, 2), (4, 1), (6, 3)])
        #expect(found.count == 1)
        #expect(
            found.first.map { ($0.before.sequence, $0.before.term, $0.after.sequence, $0.after.term) } ?? (0, 0, 0, 0) == (
                3, 2, 4, 1
            ))
    }

    @Test("no acknowledgement from a term after a newer one was seen")
    func staleAcknowledgements() {
        #expect(TermCheck.staleAcknowledgements([1, 1, 2, 2, 3]).isEmpty)
        #expect(TermCheck.staleAcknowledgements([]).isEmpty)
        let stale = TermCheck.staleAcknowledgements([1, 2, 1, 3, 2, 3])
        #expect(stale.map(\.index) == [2, 4])
        #expect(stale.map(\.term) == [1, 2])
        #expect(stale.map(\.newest) == [2, 3])
    }
}
