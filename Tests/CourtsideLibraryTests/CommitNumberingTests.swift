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
            CommitEntry(events: first, first: 10, games: [], refusal: nil, ticket: CommitTicket()),
            // A refusal without events takes no number.
            CommitEntry(events: [], first: 12, games: [], refusal: nil, ticket: CommitTicket()),
            CommitEntry(events: second, first: 12, games: [], refusal: nil, ticket: CommitTicket()),
        ]
        let numbered = CommitWriter.numberedEvents(of: batch)
        #expect(numbered.map(\.sequence) == [10, 11, 12])
        #expect(numbered.map(\.gameID) == ["g1", "g1", "g2"])
        #expect(numbered.map(\.version) == [3, 4, 7])
        #expect(first.map(\.sequence) == [0, 0] && second.map(\.sequence) == [0])
    }
}
