public import ArgumentParser
import CourtsideClient
public import CourtsideModel

/// `courtside forfeit`: the organiser records that a team forfeits a game.
struct Forfeit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record that a team forfeits a game (the organiser's): it ends at the rules' forfeit result.",
        discussion: """
            The game ends at once, the other team winning by the rules' forfeit_score (the target \
            score unless set) to 0; the standings and the bracket count it like any result, and the \
            log keeps who recorded it and why. On a secured daemon only an organiser key may.

            Examples:
              courtside forfeit g2 away --reason "Wolves did not show up by 10:15"
              courtside forfeit g2 away --key keys/organiser.key_secret --server-key keys/server.key
            """)
    @Argument(help: "The game id.") var game: String
    @Argument(help: "The team that forfeits: home or away.") var side: Side
    @Option(help: "Why, for the log (optional).") var reason: String?
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let reply = try reporting { () throws(CourtsideError) in
            try connection.client().command(.forfeit(game: GameID(game), side: side, reason: reason))
        }
        print("\(game) v\(reply.version ?? 0): \(side.rawValue) forfeits; the game is final")
    }
}

/// `courtside end-early`: the organiser ends a game before its end (abandoned).
struct EndEarly: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "end-early",
        abstract: "End a game early (the organiser's): final with its score, or with no result.",
        discussion: """
            --result as-it-stands makes the game final with the score it has (the leader wins; at a \
            tie nobody does); --result no-result makes it final for nobody: the standings do not \
            count it. A reason is required; the log keeps it with who ended the game.

            Examples:
              courtside end-early g1 --result as-it-stands --reason "injury: the court is needed"
              courtside end-early g3 --result no-result --reason "the gym closed at 18:00"
            """)
    @Argument(help: "The game id.") var game: String
    @Option(help: "as-it-stands or no-result.") var result: EarlyResult
    @Option(help: "Why, for the log (required).") var reason: String
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let reply = try reporting { () throws(CourtsideError) in
            try connection.client().command(.endGame(game: GameID(game), result: result, reason: reason))
        }
        print("\(game) v\(reply.version ?? 0): ended early, \(result == .noResult ? "no result" : "as it stands")")
    }
}

extension EarlyResult: ExpressibleByArgument {
    /// `as-it-stands` and `no-result` on the command line (the wire's names, with dashes, work too).
    public init?(argument: String) {
        self.init(rawValue: argument.replacingOccurrences(of: "-", with: "_"))
    }

    public static var allValueStrings: [String] { allCases.map { $0.rawValue.replacingOccurrences(of: "_", with: "-") } }
}
