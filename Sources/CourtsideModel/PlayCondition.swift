/// When a game that is played only if a result calls for it is played (a double elimination's
/// grand final reset: only if the losers' bracket champion wins the first grand final).
public enum PlayCondition: Hashable, Sendable, CustomStringConvertible {
    /// Only if `game` is won by its `side` team.
    case won(game: GameID, by: Side)

    /// The game whose result decides.
    public var game: GameID {
        switch self {
        case .won(let game, _): game
        }
    }

    /// Whether it holds when the game it names was won by `winner` (nil: nobody won).
    public func holds(winner: Side?) -> Bool {
        switch self {
        case .won(_, let side): winner == side
        }
    }

    /// Whether it holds given the games so far; nil while the game it names is not finished.
    public func holds(in games: some GamesByID) -> Bool? {
        guard let played = games[game], played.isFinished else { return nil }
        return holds(winner: played.winner)
    }

    public var description: String {
        switch self {
        case .won(let game, let side): "the \(side.rawValue) team wins \(game)"
        }
    }
}

extension PlayCondition: Codable {
    enum CodingKeys: String, CodingKey { case won, by }

    /// `{"won": game, "by": "home"|"away"}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self = .won(game: try container.decode(GameID.self, forKey: .won), by: try container.decode(Side.self, forKey: .by))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .won(let game, let side):
            try container.encode(side, forKey: .by)
            try container.encode(game, forKey: .won)
        }
    }
}

extension PlayCondition: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        switch self {
        case .won(let game, let side):
            writer.key("by")
            writer.value(side.rawValue)
            writer.key("won")
            writer.value(game)
        }
        writer.endObject()
    }
}
