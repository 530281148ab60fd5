import CourtsideModel
import CourtsideStorage
import Logging

/// When the library writes checkpoints of its games' state into the log, and whether a start
/// uses them.
///
/// A checkpoint holds the state of every game as of one sequence; a start loads the latest and
/// replays only the events after it. Checkpoints are written by the committer's writer thread
/// between two commits, so the commands of the batch just committed never wait for one; only
/// the games changed since the previous checkpoint are written.
public struct CheckpointPolicy: Sendable, Equatable {
    /// Committed events between two checkpoints: what a start after a crash replays at most.
    ///
    /// Replaying costs about 6 µs an event (decoding its JSON, then the fold) and a checkpoint
    /// costs about 3 µs per changed game (see `courtside-bench restart`): every 20,000 events
    /// bounds a replay near 0.1 s while checkpoints stay a small share of the writer's time, even
    /// when every event touches another game.
    public var interval: Int
    /// Whether closing the library writes one, so that the next start replays nothing.
    public var atClose: Bool
    /// Whether a start may use the latest checkpoint. With false it replays the whole log (and
    /// the next checkpoint rewrites every game): a check, or a way round a suspected bad one.
    public var restore: Bool
    /// How long writing one part of a checkpoint may hold up the next commit. A checkpoint of
    /// thousands of long games takes far longer than a commit: it is written a part at a time,
    /// between commits (at least one game a part).
    public var partBudget: Duration

    public init(interval: Int = 20_000, atClose: Bool = true, restore: Bool = true, partBudget: Duration = .milliseconds(1)) {
        self.interval = max(1, interval)
        self.atClose = atClose
        self.restore = restore
        self.partBudget = partBudget
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
                if let checkpoint = try log.readCheckpoint() {
                    return try RestoredGames(checkpoint, tail: try log.readEvents(after: checkpoint.sequence))
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
        if case .gameCreated(let setup) = event.kind {
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
