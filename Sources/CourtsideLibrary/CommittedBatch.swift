import CourtsideModel

/// A batch of queued commands taken apart for its commit: its events numbered in the one array
/// the log is handed, each game's event with the game's state after it as the update the view
/// and the subscribers take, and each command's share, which its answer is read from.
///
/// Each entry's changes are moved out of it in place (``CommitChanges/takeFirst()``,
/// ``CommitChanges/takeLater()``): a call on a copy of an entry, a switch over the array's
/// element, or a pattern binding an enum's payload each copies a move's game state (a retain of
/// each of its fields) on the log writer.
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
        // Through a buffer pointer: the array's subscript copies each entry's changes whole
        // (its game's state) for a call on them.
        batch.withUnsafeMutableBufferPointer { batch in
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
                // The refusal and the ticket moved, not copied: the entries are dropped after this.
                shares.append(
                    Share(
                        eventCount: batch[index].changes.eventCount, isTournament: batch[index].changes.isTournament,
                        refusal: batch[index].refusal.take(), ticket: batch[index].ticket.take()!))
                take(&batch[index].changes, first: batch[index].first)
            }
        }
    }

    /// Moves `changes`' events and updates into the batch, numbered from `first`.
    private mutating func take(_ changes: inout CommitChanges, first: Int64) {
        guard var update = changes.takeFirst() else {
            var own = changes.takeTournamentEvents()
            for index in own.indices { own[index].sequence = first + Int64(index) }
            events.append(contentsOf: consume own)
            return
        }
        update.event.sequence = first
        events.append(update.event)
        updates.append(consume update)
        var later = changes.takeLater()
        guard !later.isEmpty else { return }
        for index in later.indices {
            later[index].event.sequence = first + 1 + Int64(index)
            events.append(later[index].event)
        }
        updates.append(contentsOf: consume later)
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
