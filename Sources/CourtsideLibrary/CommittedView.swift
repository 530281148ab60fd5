import CourtsideModel
import HashTreeCollections
import Synchronization

/// What has been committed: the state every snapshot reads and every subscriber starts from,
/// and the subscribers that hear of each commit.
///
/// Only the holder of the writer's role (``CommitWriter``) applies commits to it, in sequence
/// order, after they are durable; anyone reads it, at any time, without waiting for the disk.
final class CommittedView: Sendable {
    private struct Committed {
        /// A persistent map: a snapshot shares it, and the next commit copies a path of nodes,
        /// not the whole map (a `Dictionary` held by a reader was copied whole by the next
        /// commit: 10,000 games, a few milliseconds, on the writer thread).
        var games: TreeDictionary<GameID, Game>
        /// The games' ids in order, kept as games are created: every full snapshot lists the
        /// games by id, and sorting 10,000 ids took it a few milliseconds.
        var sortedIDs: [GameID]
        var sequence: Int64
        /// When regulation time runs out in each committed game whose clock runs toward a limit:
        /// the clock timer's look-up, a few courts' worth rather than every game.
        var expiries: [GameID: Timestamp] = [:]
        /// How many committed games are in each status, kept as games change: the systemd status
        /// line and the metrics read it often, and counting 10,000 games copied every one.
        var statusCounts: [GameStatus: Int] = [:]
        /// Registered under the same lock as the games are read, so "subscribe, then snapshot"
        /// misses nothing.
        var subscribers = CommitSubscribers.open([:], next: 0)

        /// Takes `game` as the committed state of game `id`.
        mutating func update(_ game: borrowing Game, id: GameID) {
            let status = game.status
            let old = games.updateValue(copy game, forKey: id)?.status
            if old == nil { sortedIDs.insertInOrder(id) }
            // Most events leave the status as it was: only a change touches the counts.
            if old != status {
                if let was = old {
                    // A status no game has any more leaves the counts.
                    statusCounts[was] = statusCounts[was].flatMap { $0 > 1 ? $0 - 1 : nil }
                }
                statusCounts[status, default: 0] += 1
            }
            // Most games have no clock running toward a limit, and most tournaments none: then
            // there is nothing to look up.
            if let expiry = game.expiryTime() {
                expiries[id] = expiry
            } else if !expiries.isEmpty {
                expiries[id] = nil
            }
        }
    }

    private let committed: Mutex<Committed>

    /// The games rebuilt from the log, up to `sequence`.
    init(games: [GameID: Game], sequence: Int64) {
        var expiries: [GameID: Timestamp] = [:]
        var statusCounts: [GameStatus: Int] = [:]
        for (id, game) in games {
            // Most games have no clock running toward a limit: nothing to remove, no look-up.
            if let expiry = game.expiryTime() { expiries[id] = expiry }
            statusCounts[game.status, default: 0] += 1
        }
        committed = Mutex(
            Committed(
                games: TreeDictionary(games), sortedIDs: games.keys.sorted(), sequence: sequence, expiries: expiries,
                statusCounts: statusCounts))
    }

    /// Applies a durable batch's games' updates, in order, and the batch's last sequence
    /// (`through`, a tournament change's too: the view reflects it); returns the subscribers to
    /// hand the updates to once the waiting commands are answered.
    ///
    /// Updates go out after the lock: a subscriber that registers meanwhile finds them in its
    /// snapshot instead, so "subscribe, then snapshot" still misses nothing.
    func apply(_ updates: [GameUpdate], through sequence: Int64?) -> [any CommitSubscriber] {
        committed.withLock { committed in
            // Through a buffer pointer: an array's subscript handing an element to a call copies
            // it (a game's state, every string of an event), and this runs for every event under load.
            updates.withUnsafeBufferPointer { updates in
                for index in updates.indices { committed.update(updates[index].game, id: updates[index].event.gameID) }
            }
            if let sequence { committed.sequence = sequence }
            return committed.subscribers.all
        }
    }

    /// The committed games whose regulation time has run out by `now`.
    func expired(at now: Timestamp) -> [GameID] {
        committed.withLock { committed in committed.expiries.filter { $0.value <= now }.map(\.key) }
    }

    /// Every committed game and the sequence it reflects, read in one step.
    func snapshot() -> Snapshot<CommittedGames> {
        committed.withLock { Snapshot(value: CommittedGames(byID: $0.games, ids: $0.sortedIDs), sequence: $0.sequence) }
    }

    /// How many committed games are in each status, and the sequence that reflects.
    func statusCounts() -> Snapshot<[GameStatus: Int]> {
        committed.withLock { Snapshot(value: $0.statusCounts, sequence: $0.sequence) }
    }

    /// One committed game, if it exists, and the sequence it reflects.
    func snapshot(of id: GameID) -> Snapshot<Game?> {
        committed.withLock { Snapshot(value: $0.games[id], sequence: $0.sequence) }
    }

    /// Reads the committed games and their sequence under the view's lock: `body` must be quick.
    func withGames<Result>(_ body: (TreeDictionary<GameID, Game>, Int64) -> Result) -> Result {
        committed.withLock { body($0.games, $0.sequence) }
    }

    /// Adds a subscriber and returns its id; nil after the close.
    func register(_ subscriber: any CommitSubscriber) -> Int? {
        committed.withLock { $0.subscribers.register(subscriber) }
    }

    func unregister(_ id: Int) {
        committed.withLock { $0.subscribers.unregister(id) }
    }

    /// Ends every subscription: no commit follows.
    func close() {
        for subscriber in committed.withLock({ $0.subscribers.close() }) { subscriber.finish() }
    }
}

extension Array where Element == GameID {
    /// Inserts `id` where it belongs in this sorted array (a binary search).
    fileprivate mutating func insertInOrder(_ id: GameID) {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < id { low = middle + 1 } else { high = middle }
        }
        insert(id, at: low)
    }
}
