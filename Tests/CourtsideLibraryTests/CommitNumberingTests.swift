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
        let committed = CommittedBatch(batch)
        let numbered = committed.events
        #expect(numbered.map(\.sequence) == [10, 11, 12, 13])
        #expect(numbered.map(\.gameID) == ["g1", "g1", "g2", "g3"])
        #expect(numbered.map(\.version) == [3, 4, 7, 2])
        #expect(first.map(\.sequence) == [0, 0] && second.map(\.sequence) == [0])
        // Only the game's event has an update, numbered as the log has it, with the game's state.
        #expect(committed.updates.map(\.event.sequence) == [13])
        #expect(committed.updates.map(\.game.id) == ["g3"])
        #expect(committed.shares.map(\.eventCount) == [2, 0, 1, 1])
        #expect(committed.tournamentChanges.map(\.sequence) == [10, 11, 12])
    }

    @Test("each command's answer: its last event's receipt, its refusal, or none")
    func answers() throws {
        let refusal = CommandRefusal(
            gameID: "g2", origin: CommandOrigin(clientID: "k", commandID: "late"), at: Timestamp(milliseconds: 1),
            error: CourtsideError(.gameFinished, "over"))
        let batch = [
            CommitEntry(
                changes: .many(
                    [event("g1", 3), event("g1", 4)], [Game(setup: Tournament.setup("g1")), Game(setup: Tournament.setup("g1"))]),
                first: 5, refusal: nil, ticket: CommitTicket()),
            CommitEntry(changes: .none, first: 7, refusal: nil, ticket: CommitTicket()),
            CommitEntry(
                changes: .one(event("g2", 9), Game(setup: Tournament.setup("g2"))), first: 7, refusal: refusal,
                ticket: CommitTicket()),
        ]
        let committed = CommittedBatch(batch)
        #expect(committed.updates.map(\.event.sequence) == [5, 6, 7])
        #expect(try committed.answer(ofShareAt: 0, offset: 0)?.get() == Receipt(gameID: "g1", version: 4, sequence: 6))
        #expect(committed.answer(ofShareAt: 1, offset: 2) == nil)
        #expect(throws: CourtsideError.self) { try committed.answer(ofShareAt: 2, offset: 2)?.get() }
    }

    @Test("a command's changes count, take back and hand over their events with the state after each")
    func changes() {
        var game = Game(setup: Tournament.setup("g4"))
        var states: [Game] = []
        var changes = CommitChanges.none
        for version in 2...4 {
            game.version = version
            states.append(game)
            changes.append(event("g4", version), game)
        }
        #expect(changes.eventCount == 3 && !changes.isTournament)
        #expect(changes.lastGame?.version == 4)
        // A refused command's events are taken back; a time expiry found before it stays.
        changes.removeLast(2)
        #expect(changes.eventCount == 1)
        #expect(changes.lastGame == states[0])
        changes.append(event("g4", 3), states[1])
        let batch = [CommitEntry(changes: changes, first: 20, refusal: nil, ticket: CommitTicket())]
        let committed = CommittedBatch(batch)
        #expect(committed.events.map(\.version) == [2, 3])
        #expect(committed.events.map(\.sequence) == [20, 21])
        #expect(committed.updates.map(\.game) == [states[0], states[1]])
        #expect(committed.updates.map(\.event.sequence) == [20, 21])
        changes.removeLast(2)
        #expect(changes.eventCount == 0 && changes.lastGame == nil)
    }
}
