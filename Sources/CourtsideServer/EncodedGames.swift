import CourtsideLibrary
import CourtsideModel
import CourtsideProtocol
import Synchronization

/// Each game's JSON as last encoded, kept through a burst of reads until the game's version
/// changes: a snapshot of 10,000 games then encodes only the games that changed since the one
/// before, and a resync storm after a restart encodes each game once. The reader forgets it all
/// when a burst ends, as it gives freed memory back: kept at rest, it was the largest part of
/// the daemon's heap at 10,000 games (10.7 MB of 31.6), and the next burst's first snapshot of
/// every game encodes them again.
final class EncodedGames: Sendable {
    private struct Entry {
        var version: Int
        /// The game as a snapshot has it.
        var game: [UInt8]?
        /// The game as `list_games` has it.
        var summary: [UInt8]?
    }

    private let entries = Mutex<[GameID: Entry]>([:])

    /// Drops every game's JSON.
    func forget() {
        entries.withLock { $0 = [:] }
    }

    /// The JSON of one game.
    func game(_ game: Game) -> [UInt8] {
        encoded(Games.one(game), \.game) { WireCoding.encode($0) }[0]
    }

    /// The JSON of every game, in order of their ids.
    func games(_ games: CommittedGames) -> [[UInt8]] {
        encoded(Games.committed(games), \.game) { WireCoding.encode($0) }
    }

    /// The JSON of every game's summary, in order of their ids.
    func summaries(_ games: CommittedGames) -> [[UInt8]] {
        encoded(Games.committed(games), \.summary) { WireCoding.encode(GameSummary($0)) }
    }

    /// What to encode: the committed games are looked at by version first, and a game is only
    /// copied out of them when its JSON must be made (copying 10,000 games took a snapshot
    /// about as long as assembling its 10 MB).
    private enum Games {
        case one(Game)
        case committed(CommittedGames)

        var ids: [GameID] {
            switch self {
            case .one(let game): [game.id]
            case .committed(let games): games.ids
            }
        }

        func version(of id: GameID) -> Int? {
            switch self {
            case .one(let game): game.version
            case .committed(let games): games.version(of: id)
            }
        }

        subscript(id: GameID) -> Game? {
            switch self {
            case .one(let game): game
            case .committed(let games): games[id]
            }
        }
    }

    private func encoded(
        _ games: Games, _ field: WritableKeyPath<Entry, [UInt8]?>, encode: (Game) -> [UInt8]
    ) -> [[UInt8]] {
        let ids = games.ids
        var found = entries.withLock { entries in
            ids.map { id in entries[id].flatMap { $0.version == games.version(of: id) ? $0[keyPath: field] : nil } }
        }
        var fresh: [(game: Game, bytes: [UInt8])] = []
        for index in found.indices where found[index] == nil {
            guard let game = games[ids[index]] else {
                assertionFailure("\(ids[index]) is listed without its game")
                continue
            }
            let bytes = encode(game)
            found[index] = bytes
            fresh.append((game, bytes))
        }
        if !fresh.isEmpty {
            entries.withLock { entries in
                for (game, bytes) in fresh {
                    var entry = entries[game.id] ?? Entry(version: game.version)
                    // Another read may have cached a newer version meanwhile: keep that one.
                    guard entry.version <= game.version else { continue }
                    if entry.version < game.version { entry = Entry(version: game.version) }
                    entry[keyPath: field] = bytes
                    entries[game.id] = entry
                }
            }
        }
        return found.compactMap { $0 }
    }
}
