import Testing

@testable import CourtsideTransport

/// The envelopes the I/O thread keeps for the peers that sent requests lately.
@Suite("the recent envelopes")
struct RecentEnvelopesTests {
    private func index(_ envelopes: inout RecentEnvelopes, _ id: [UInt8]) -> Int {
        id.withUnsafeBytes { envelopes.index(of: $0) }
    }

    @Test("a peer's envelope, delimited or not, is its own routing id; past the capacity the oldest is replaced")
    func envelopes() {
        var envelopes = RecentEnvelopes()
        let first = index(&envelopes, [0, 1])
        #expect(envelopes.envelope(at: first, delimited: false) == [[0, 1]])
        #expect(envelopes.envelope(at: first, delimited: true) == [[0, 1], []])
        #expect(index(&envelopes, [0, 1]) == first)
        for peer in 2...RecentEnvelopes.capacity { _ = index(&envelopes, [0, UInt8(peer)]) }
        // Full: the next peer takes the oldest's place, and the oldest comes back as a new one.
        let next = index(&envelopes, [9, 9])
        #expect(next == first)
        #expect(envelopes.envelope(at: next, delimited: true) == [[9, 9], []])
        let again = index(&envelopes, [0, 1])
        #expect(envelopes.envelope(at: again, delimited: false) == [[0, 1]])
        #expect(envelopes.envelope(at: index(&envelopes, [0, 3]), delimited: false) == [[0, 3]])
    }
}
