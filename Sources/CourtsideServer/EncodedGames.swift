import CourtsideModel
import CourtsideProtocol
import Synchronization

/// Each game's JSON as last encoded, kept until the game's version changes: a snapshot of
/// 10,000 games then encodes only the games that changed since the one before, and a resync
/// storm after a restart encodes each game once.
final class EncodedGames: Sendable {
    private struct Entry {
        var version: Int
        /// The game as a snapshot has it.
        var game: [UInt8]?
        /// The game as `list_games` has it.
        var summary: [UInt8]?
    }

    private let entries = Mutex<[GameID: Entry]>([:])

    /// The JSON of each game, in order.
    func games(_ games: [Game]) throws -> [[UInt8]] {
        try encoded(games, \.game) { try WireCoding.encode($0) }
    }

    /// The JSON of each game's summary, in order.
    func summaries(_ games: [Game]) throws -> [[UInt8]] {
        try encoded(games, \.summary) { try WireCoding.encode(GameSummary($0)) }
    }

    private func encoded(
        _ games: [Game], _ field: WritableKeyPath<Entry, [UInt8]?>, encode: (Game) throws -> [UInt8]
    ) throws -> [[UInt8]] {
        var found = entries.withLock { entries in
            games.map { game in entries[game.id].flatMap { $0.version == game.version ? $0[keyPath: field] : nil } }
        }
        var fresh: [(index: Int, bytes: [UInt8])] = []
        for index in found.indices where found[index] == nil {
            let bytes = try encode(games[index])
            found[index] = bytes
            fresh.append((index, bytes))
        }
        if !fresh.isEmpty {
            entries.withLock { entries in
                for (index, bytes) in fresh {
                    let game = games[index]
                    var entry = entries[game.id] ?? Entry(version: game.version)
                    // Another read may have cached a newer version meanwhile: keep that one.
                    guard entry.version <= game.version else { continue }
                    if entry.version < game.version { entry = Entry(version: game.version) }
                    entry[keyPath: field] = bytes
                    entries[game.id] = entry
                }
            }
        }
        return found.map { $0 ?? [] }
    }
}
