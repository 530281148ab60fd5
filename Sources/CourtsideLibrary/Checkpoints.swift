import CourtsideModel
import CourtsideStorage
import CourtsideThreads
import Dispatch
import Logging
import Synchronization

/// When the library writes checkpoints of its games' state into the log, and whether a start
/// uses them.
///
/// A checkpoint holds the state of every game as of one sequence; a start loads the latest and
/// replays only the events after it. Once an interval's worth of events is committed, the
/// committer takes the states of the games changed since the previous checkpoint, and a thread
/// of its own writes them a part at a time (see ``partBudget``), beside the commits.
public struct CheckpointPolicy: Sendable, Equatable {
    /// Committed events between two checkpoints: what a start after a crash replays at most.
    ///
    /// Measured with `courtside-bench restart` (CPU time, release build): replaying costs about
    /// 6 µs an event (4.7 to read and decode a move, 1.4 to fold it), so 20,000 events add about
    /// 0.12 s to a start; loading 10,000 games from a checkpoint costs about 0.15 s; a start over
    /// 1,000,000 events took 0.44 s, against 6.3 s for a full replay. Writing a changed game of
    /// 100 plays costs about 12 µs, its encoding included: a venue of a thousand games pays
    /// under 1 µs an event for checkpoints; ten thousand such games, all changing, about 6.
    public var interval: Int
    /// Whether closing the library writes one, so that the next start replays nothing.
    public var atClose: Bool
    /// Whether a start may use the latest checkpoint. With false it replays the whole log (and
    /// the next checkpoint rewrites every game): a check, or a way round a suspected bad one.
    public var restore: Bool
    /// About how long a part of a checkpoint may take to encode and write. A checkpoint of
    /// thousands of long games takes far longer (0.3 s for 8,600 games of 100 plays); in parts,
    /// a close stops it between two. No commit waits for a part: parts go to the log's
    /// checkpoint storage, which commits do not use. (Written in the log's own transactions, as
    /// they once were, they made a lone keeper's p99 about 9 ms during a checkpoint of 10,000
    /// games: SQLite copied the WAL they filled back into the log's file every 75 or so parts,
    /// 6 ms each.)
    ///
    /// Parts are large because each rewrites the index pages it touches: with `courtside-bench
    /// restart`, a checkpoint of 10,000 games (3.6 MB of states) left 40 MB of WAL in parts of
    /// 1 ms, 9 MB in parts of 10 ms and 4.4 MB in parts of 50 ms; the copy of that WAL back into
    /// the checkpoint file, once the checkpoint is complete, took 160, 50 and 35 ms, and a lone
    /// keeper's slowest move beside it 80, 21 and 11 ms.
    public var partBudget: Duration
    /// From how many plays a game's plays, as a checkpoint encoded them, are kept for the next
    /// checkpoint of the game, which then encodes only the plays after them. The kept bytes are
    /// about 5 a play, beside the 40 of the play itself: only long games keep them (a game to 15
    /// points has a few dozen plays), and a finished one drops them.
    public var reusedPlaysFrom: Int

    public init(
        interval: Int = 20_000, atClose: Bool = true, restore: Bool = true, partBudget: Duration = .milliseconds(50),
        reusedPlaysFrom: Int = 256
    ) {
        self.interval = max(1, interval)
        self.atClose = atClose
        self.restore = restore
        self.partBudget = partBudget
        self.reusedPlaysFrom = max(1, reusedPlaysFrom)
    }

    /// Never writes a checkpoint, and never uses one.
    public static let none = CheckpointPolicy(interval: .max, atClose: false, restore: false)
}

/// Every game rebuilt from the log at a start, from the latest checkpoint and the events after
/// it, or from every event.
struct RestoredGames {
    var games: [GameID: Game] = [:]
    var lastSequence: Int64 = 0
    /// The time of the log's last event.
    var lastEventAt: Timestamp?
    /// The checkpoint used, if one was.
    var checkpointSequence: Int64?
    /// Games changed since that checkpoint; nil when none was used, so the next checkpoint writes every game.
    var changedSinceCheckpoint: Set<GameID>?
    /// The events replayed.
    var replayed = 0

    static func restore(from log: any EventLog, policy: CheckpointPolicy, logger: Logger) throws -> RestoredGames {
        if policy.restore {
            // Whatever goes wrong with a checkpoint, the events are all there: replay them all.
            do {
                // The events after the checkpoint are read beside its games, on a thread of their
                // own, when the log can tell its sequence first: a start waits for both.
                let tail = (try? log.checkpointSequence()).map { TailRead(log, after: $0) }
                let checkpoint = Result { try log.readCheckpoint() }
                let read = tail?.wait()
                if let checkpoint = try checkpoint.get() {
                    let events =
                        if let read, tail?.sequence == checkpoint.sequence { try read.get() } else {
                            try log.readEvents(after: checkpoint.sequence)
                        }
                    return try RestoredGames(checkpoint, tail: events)
                }
            } catch {
                logger.warning(
                    "the checkpoint cannot be used; replaying the whole event log",
                    metadata: ["checkpoint.error": "\(error)"])
            }
        }
        var restored = RestoredGames()
        for event in try log.readAll() { restored.apply(event) }
        return restored
    }

    private init() {}

    /// The games of `checkpoint` and the events after it, which must follow on from each game's
    /// version: a tail that does not fit says the checkpoint is wrong, and nothing is used.
    private init(_ checkpoint: Checkpoint, tail: [GameEvent]) throws(CheckpointError) {
        games.reserveCapacity(checkpoint.games.count)
        for game in checkpoint.games {
            guard games.updateValue(game, forKey: game.id) == nil else {
                throw CheckpointError("game \(game.id) is in the checkpoint twice")
            }
        }
        lastSequence = checkpoint.sequence
        lastEventAt = checkpoint.at
        checkpointSequence = checkpoint.sequence
        var changed = Set<GameID>()
        for event in tail {
            // The tournament's stream is no game: GameLibrary reads it whole, checkpoint or not.
            if event.gameID == .tournament {
                apply(event)
                continue
            }
            let version = games[event.gameID]?.version ?? 0
            guard event.version == version + 1, (version == 0) == (event.kind.typeName == "game_created") else {
                throw CheckpointError(
                    "event \(event.sequence) is version \(event.version) of game \(event.gameID), which the checkpoint has at \(version)"
                )
            }
            apply(event)
            changed.insert(event.gameID)
        }
        changedSinceCheckpoint = changed
    }

    private mutating func apply(_ event: GameEvent) {
        if event.gameID == .tournament {
            // Not a game's: GameLibrary reads the tournament's stream whole.
        } else if case .gameCreated(let setup) = event.kind {
            games[event.gameID] = Game(setup: setup)
        } else {
            // In place: a copy of the game per event would cost more than the fold.
            games[event.gameID]?.apply(event)
        }
        lastSequence = event.sequence
        lastEventAt = event.at
        replayed += 1
    }
}

/// The events after a checkpoint's sequence, read on a thread of their own.
private final class TailRead: Sendable {
    let sequence: Int64
    private let result = Mutex<Result<[GameEvent], any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ log: any EventLog, after sequence: Int64) {
        self.sequence = sequence
        startThread(named: "courtside.tail") { [self] in
            let events = Result { try log.readEvents(after: sequence) }
            result.withLock { $0 = events }
            done.signal()
        }
    }

    /// Waits for the events (once).
    func wait() -> Result<[GameEvent], any Error> {
        done.wait()
        return result.withLock { $0 } ?? .success([])
    }
}
