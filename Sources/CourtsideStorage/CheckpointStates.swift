import CourtsideModel
import Dispatch
import Synchronization

/// A checkpoint's game states as read from the file, each game's bytes one after the other,
/// decoded on several threads at once.
///
/// A start decodes every game before it serves: at 10,000 games of 100 plays that is most of
/// its time, and each game's bytes decode on their own. The bytes are gathered first (a copy of
/// a few megabytes, while SQLite reads them), then decoded in small parts that the machine's
/// cores take in turn (Dispatch's `concurrentPerform`, the calling thread among them): on a
/// shared machine a core taken by another process holds up one small part, not half the games
/// (docs/FIGURES.md, "Memory and restart").
struct CheckpointStates {
    private var ids: [String] = []
    private var bytes: [UInt8] = []
    /// Where each game's bytes end in `bytes`.
    private var ends: [Int] = []

    /// Games in a part: a millisecond or two of decoding, worth a hand-over.
    static let gamesPerPart = 250

    init(expected: Int) {
        ids.reserveCapacity(expected)
        ends.reserveCapacity(expected)
    }

    var count: Int { ids.count }

    /// Adds a game's id, as its row names it, and its state's bytes.
    mutating func append(id: String, state: UnsafeRawBufferPointer) {
        ids.append(id)
        bytes.append(contentsOf: state)
        ends.append(bytes.count)
    }

    /// Every game, in the order they were added, each checked against the id its row gave.
    func decoded() throws(CheckpointError) -> [Game] {
        let parts = max(1, count / Self.gamesPerPart)
        let results = Mutex<[Result<[Game], CheckpointError>?]>(Array(repeating: nil, count: parts))
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let range = (count * part / parts)..<(count * (part + 1) / parts)
            let result = decode(range)
            results.withLock { $0[part] = result }
        }
        var games: [Game] = []
        games.reserveCapacity(count)
        for result in results.withLock({ $0 }) {
            guard let result else { throw CheckpointError("a part of the checkpoint was not decoded") }
            games += try result.get()
        }
        return games
    }

    private func decode(_ range: Range<Int>) -> Result<[Game], CheckpointError> {
        bytes.withUnsafeBytes { buffer in
            Result { () throws(CheckpointError) in
                var games: [Game] = []
                games.reserveCapacity(range.count)
                for index in range {
                    let start = index == 0 ? 0 : ends[index - 1]
                    let game = try CheckpointCoding.decode(UnsafeRawBufferPointer(rebasing: buffer[start..<ends[index]]))
                    guard game.id.rawValue == ids[index] else {
                        throw CheckpointError("the state of game \(ids[index]) is game \(game.id)'s")
                    }
                    games.append(game)
                }
                return games
            }
        }
    }
}
