import CourtsideModel
import Testing

/// A two-team game driven command by command, the way the library drives it.
struct Scorebook {
    static let home = Team(
        id: "lions", name: "Lions",
        players: [Player(id: "h1", name: "Ann"), Player(id: "h2", name: "Bo"), Player(id: "h3", name: "Cy")])
    static let away = Team(
        id: "tigers", name: "Tigers",
        players: [Player(id: "a1", name: "Di"), Player(id: "a2", name: "Ed"), Player(id: "a3", name: "Flo")])

    var game: Game
    var now = Timestamp(milliseconds: 1_000_000)

    init(rules: RuleSet = .standard) {
        game = Game(setup: GameSetup(id: "g1", home: Self.home, away: Self.away, rules: rules))
    }

    /// Applies a command at the current time, the expiry check first; returns the last version.
    @discardableResult
    mutating func run(_ command: GameCommand) throws(CourtsideError) -> Int {
        if let expiry = game.expiry(at: now) { commit(expiry) }
        for kind in try game.decide(command, at: now).get() { commit(kind) }
        return game.version
    }

    mutating func commit(_ kind: GameEvent.Kind) {
        game.apply(
            GameEvent(
                gameID: game.id, version: game.version + 1, at: now,
                origin: CommandOrigin(clientID: "test", commandID: "\(game.version + 1)"), kind: kind))
    }

    /// Scores `points` for the side in baskets of two, then one if odd.
    mutating func score(_ side: Side, _ points: Int) throws(CourtsideError) {
        let player: PlayerID = side == .home ? "h1" : "a1"
        for _ in 0..<(points / 2) { try run(.move(player: player, move: .twoPoints)) }
        if points % 2 == 1 { try run(.move(player: player, move: .onePoint)) }
    }

    mutating func advance(seconds: Double) {
        now = now.adding(milliseconds: Int64(seconds * 1000))
    }

    /// The error code a command is refused with, or nil when it is accepted.
    mutating func refusal(_ command: GameCommand) -> CourtsideError.Code? {
        do {
            try run(command)
            return nil
        } catch {
            return error.code
        }
    }
}
