import CourtsideModel
import Testing

@testable import CourtsideLibrary

/// How the writer numbers a batch's events: each entry's from its own first sequence number, in
/// the array the log is handed, leaving the arrays the commands were queued with as they were.
@Suite("a batch's numbering")
struct CommitNumberingTests {
    private func event(_ game: GameID, _ version: Int) -> GameEvent {
        GameEvent(
            gameID: game, version: version, at: Timestamp(milliseconds: 1),
            origin: CommandOrigin(clientID: "k", commandID: "\(game)-\(version)"), kind: .clockStarted)
    }

    @Test("events are numbered from their entry's first sequence, in order; the queued arrays keep theirs")
    func numbering() {
        let first = [event("g1", 3), event("g1", 4)]
        let second = [event("g2", 7)]
        let batch = [
            CommitEntry(changes: .tournament(first), first: 10, refusal: nil, ticket: CommitTicket()),
            // A refusal without events takes no number.
            CommitEntry(changes: .none, first: 12, refusal: nil, ticket: CommitTicket()),
            CommitEntry(changes: .tournament(second), first: 12, refusal: nil, ticket: CommitTicket()),
            // A move's one event, held inline.
            CommitEntry(
                changes: .one(event("g3", 2), Game(setup: Tournament.setup("g3"))), first: 13, refusal: nil,
                ticket: CommitTicket()),
        ]
        let numbered = CommitWriter.numberedEvents(of: batch)
        #expect(numbered.map(\.sequence) == [10, 11, 12, 13])
        #expect(numbered.map(\.gameID) == ["g1", "g1", "g2", "g3"])
        #expect(numbered.map(\.version) == [3, 4, 7, 2])
        #expect(first.map(\.sequence) == [0, 0] && second.map(\.sequence) == [0])
    }
}
