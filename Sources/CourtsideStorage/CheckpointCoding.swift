public import CourtsideModel

/// The compact binary form of a ``Game`` in a checkpoint.
///
/// Written by hand rather than through `Codable`: a start decodes every game of the tournament
/// before it serves, and at 10,000 games Foundation's JSON (or any `Codable` coder, which pays
/// for keys and containers per field) takes a large share of the second a restart may take;
/// `courtside-bench restart` prints the figures. Integers are LEB128 varints (signed ones
/// zigzagged), strings are length-prefixed UTF-8, and players are named by their place in the
/// roster. Any change to the layout, or to the fields of the model's types, bumps ``format``:
/// a checkpoint of another format is not used, and the log is replayed instead. The tests hold
/// a tripwire on the number of fields of every encoded type.
public enum CheckpointCoding {
    /// The layout's version, stored with each checkpoint.
    public static let format = 3

    public static func encode(_ game: Game) -> [UInt8] { encode(game, reusing: nil, keep: false).bytes }

    /// A game's first plays as ``encode(_:reusing:keep:)`` wrote them, for a later state of the
    /// game whose first plays are the same: only the plays after them are encoded again.
    public struct EncodedPlays: Sendable {
        /// How many plays.
        public let count: Int
        let bytes: [UInt8]
        /// The last play's version and time, from which the next play's are written.
        let last: (version: Int, at: Int64)
    }

    /// `game` in the binary form, and its plays as written when `keep`.
    ///
    /// With `prefix`, the first `prefix.count` plays are not read again: their bytes are
    /// `prefix`'s, the same as ``encode(_:)`` writes while those plays and the roster that places
    /// their players are unchanged. The caller knows when they are: only the events that
    /// ``keepsEncodedPlays(_:)`` refuses change them. A long game's plays are most of its state,
    /// and reading them all again at every checkpoint was most of the checkpoint's encoding.
    public static func encode(_ game: Game, reusing prefix: EncodedPlays?, keep: Bool) -> (
        bytes: [UInt8], plays: EncodedPlays?
    ) {
        // A prefix that does not end at a play of this game (a caller's mistake) is not used.
        let prefix = prefix.flatMap { prefix in
            prefix.count > 0 && prefix.count <= game.plays.count
                && game.plays[prefix.count - 1].version == prefix.last.version
                && game.plays[prefix.count - 1].at.rawValue == prefix.last.at ? prefix : nil
        }
        var writer = CheckpointWriter(capacity: 256 + (prefix?.bytes.count ?? 0) + 8 * (game.plays.count - (prefix?.count ?? 0)))
        let plays = writer.game(game, reusing: prefix)
        let kept = keep ? EncodedPlays(count: game.plays.count, bytes: writer.copy(plays.bytes), last: plays.last) : nil
        return (writer.finish(), kept)
    }

    /// Whether the plays a game had before `kind` are encoded the same after it: their fields
    /// and their players' places in the roster. A new kind must say.
    public static func keepsEncodedPlays(_ kind: borrowing GameEvent.Kind) -> Bool {
        switch kind {
        case .move, .clockStarted, .clockPaused, .timeExpired, .timeout, .forfeit, .ended: true
        case .gameCreated, .retraction, .teamsAssigned, .setupChanged, .tournamentChanged: false
        }
    }

    public static func decode(_ bytes: UnsafeRawBufferPointer) throws(CheckpointError) -> Game {
        var reader = CheckpointReader(bytes: bytes)
        do {
            let game = try reader.game()
            guard reader.offset == bytes.count else { throw reader.corrupt("end (\(bytes.count - reader.offset) bytes left)") }
            return game
        } catch let error as CheckpointError {
            throw error
        } catch {
            throw CheckpointError("\(error)")
        }
    }

    public static func decode(_ bytes: [UInt8]) throws(CheckpointError) -> Game {
        let result = bytes.withUnsafeBytes { buffer in Result { () throws(CheckpointError) in try decode(buffer) } }
        return try result.get()
    }
}
