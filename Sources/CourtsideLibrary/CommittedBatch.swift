import CourtsideModel

/// A batch of queued commands taken apart for its commit: its events numbered in the one array
/// the log is handed, each game's event with the game's state after it as the update the view
/// and the subscribers take, and each command's share, which its answer is read from.
///
/// Each entry's changes are read once, swapped out of it: a call on an entry's changes, or a
/// switch over the array's element, copied the entry whole first (a move's state retained and
/// released, its event too), and the view then took each update apart again under its lock.
/// The switch that takes the changes apart still copies the state it binds (Swift copies a
/// payload bound by a pattern even from a consumed value): about 1% of the log writer's samples.
struct CommittedBatch {
    /// One command's part of the batch.
    struct Share {
        /// How many of the batch's events are the command's: `events[offset..<offset + eventCount]`,
        /// the shares before it taking the events before.
        var eventCount: Int
        /// Whether its events are the tournament's stream's, which change no game.
        var isTournament: Bool
        /// Set when the command was refused: its ticket settles with this refusal.
        var refusal: CommandRefusal?
        var ticket: CommitTicket
    }

    /// Every event of the batch in order, each numbered from its command's first sequence number.
    private(set) var events: [GameEvent] = []
    /// Each game's event of the batch (not the tournament's) with its game's state after it, in order.
    private(set) var updates: [GameUpdate] = []
    /// Each command's share, in the batch's order.
    private(set) var shares: [Share] = []

    /// Takes `batch` apart, numbering each entry's events from its ``CommitEntry/first``.
    init(_ batch: consuming [CommitEntry]) {
        var eventCount = 0
        var gameEventCount = 0
        for index in batch.indices {
            let count = batch[index].changes.eventCount
            eventCount += count
            if !batch[index].changes.isTournament { gameEventCount += count }
        }
        events.reserveCapacity(eventCount)
        updates.reserveCapacity(gameEventCount)
        shares.reserveCapacity(batch.count)
        for index in batch.indices {
            // Swapped out: the entry is not copied whole, and the batch keeps no second reference.
            var changes = CommitChanges.none
            swap(&changes, &batch[index].changes)
            let count = changes.eventCount
            shares.append(
                Share(
                    eventCount: count, isTournament: changes.isTournament, refusal: batch[index].refusal,
                    ticket: batch[index].ticket))
            take(consume changes, first: batch[index].first)
        }
    }

    private mutating func take(_ changes: consuming CommitChanges, first: Int64) {
        switch consume changes {
        case .none:
            break
        case .one(var event, let game):
            event.sequence = first
            events.append(event)
            updates.append(GameUpdate(event: event, game: game))
        case .many(var own, let games):
            for index in own.indices { own[index].sequence = first + Int64(index) }
            events.append(contentsOf: own)
            for (event, game) in zip(own, games) { updates.append(GameUpdate(event: event, game: game)) }
        case .tournament(var own):
            for index in own.indices { own[index].sequence = first + Int64(index) }
            events.append(contentsOf: own)
        }
    }

    /// The answer to the command of the share at `index`: its refusal, or the receipt of its
    /// last event; nil for a command without either (it waits for no answer here).
    func answer(ofShareAt index: Int, offset: Int) -> Result<Receipt, CourtsideError>? {
        if let refusal = shares[index].refusal { return .failure(refusal.error) }
        let count = shares[index].eventCount
        guard count > 0 else { return nil }
        // Read in place rather than through a copy of the event.
        return events.withUnsafeBufferPointer { events in
            let last = offset + count - 1
            return .success(Receipt(gameID: events[last].gameID, version: events[last].version, sequence: events[last].sequence))
        }
    }

    /// The events of the tournament's stream among the batch's; usually none.
    var tournamentChanges: [GameEvent] {
        guard shares.contains(where: \.isTournament) else { return [] }
        var changes: [GameEvent] = []
        var offset = 0
        for share in shares {
            if share.isTournament { changes += events[offset..<offset + share.eventCount] }
            offset += share.eventCount
        }
        return changes
    }
}
