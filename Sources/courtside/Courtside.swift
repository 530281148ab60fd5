public import ArgumentParser
import CourtsideClient
import CourtsideExport
public import CourtsideModel
import CourtsideProtocol
import CourtsideSimulator
import CourtsideTerminal
import CourtsideViewModels
import Foundation
import ZeroMQ

/// `courtside`: the scorekeepers' and the organiser's command-line client.
@main
struct Courtside: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courtside",
        abstract: "Keep score, show games and simulate a tournament against a running courtsided.",
        discussion: """
            Talks to courtsided only through docs/PROTOCOL.md. Every subcommand takes \
            --command-endpoint and --event-endpoint (defaults tcp://127.0.0.1:5555 and :5556, or \
            $COURTSIDE_COMMAND_ENDPOINT and $COURTSIDE_EVENT_ENDPOINT). A secured daemon also needs \
            --key (your secret certificate) and --server-key (its public key), or $COURTSIDE_KEY and \
            $COURTSIDE_SERVER_KEY; `courtside keys` makes and reads them.

            Examples:
              courtside games
              courtside score g1 ann 2
              courtside undo g1
              courtside keeper g1
              courtside forfeit g2 away --reason "no show"
              courtside end-early g1 --result as-it-stands --reason "injury"
              courtside player add lions dee --name "Dee Dunn"
              courtside game move g2 --court "Court 1" --start 10:50
              courtside board
              courtside simulate --games 100 --keepers 16 --duration 20
              courtside schedule
              courtside standings
              courtside export --format csv --output results/
              courtside keys new court-1 --dir keys
              courtside score g1 ann 2 --key keys/court-1.key_secret --server-key keys/server.key
            """,
        subcommands: [
            Score.self, Record<FreeThrowMove>.self, Record<AssistMove>.self, Record<ReboundMove>.self, Record<FoulMove>.self,
            Undo.self, Clock.self, Timeout.self, Keeper.self, Forfeit.self, EndEarly.self,
            Games.self, Show.self, Board.self, Schedule.self, Standings.self, Log.self, Export.self, Simulate.self, Keys.self,
            TournamentCommand.self, TeamCommand.self, PlayerCommand.self, ScheduledGameCommand.self,
        ])
}

/// The options every subcommand shares.
struct ConnectionOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "courtsided's command endpoint; several, comma-separated, fail over in turn on a timeout or a standby's not_active.",
            valueName: "url[,url]"))
    var commandEndpoint = ProcessInfo.processInfo.environment["COURTSIDE_COMMAND_ENDPOINT"] ?? Endpoints().command

    @Option(
        name: .long,
        help: ArgumentHelp(
            "courtsided's event endpoint; several, comma-separated, are all subscribed to.", valueName: "url[,url]"))
    var eventEndpoint = ProcessInfo.processInfo.environment["COURTSIDE_EVENT_ENDPOINT"] ?? Endpoints().events

    @Option(name: .long, help: ArgumentHelp("Who you are to the daemon (default: courtside-<user>@<host>).", valueName: "id"))
    var clientID = "courtside-\(ProcessInfo.processInfo.userName)@\(ProcessInfo.processInfo.hostName)"

    @Option(name: .long, help: ArgumentHelp("How long to wait for each reply, in milliseconds.", valueName: "ms"))
    var timeoutMs: Int32 = 2500

    @Option(name: .long, help: "How many times to send a request before giving up (retries reuse the command id).")
    var tries = 3

    @Option(
        name: .customLong("key"),
        help: ArgumentHelp(
            "Your secret certificate (NAME.key_secret from `courtside keys new`), for a secured daemon (or $COURTSIDE_KEY).",
            valueName: "file"))
    var keyFlag: String?

    @Option(
        name: .customLong("server-key"),
        help: ArgumentHelp(
            "The daemon's public key: its certificate file (server.key) or 40 Z85 characters (or $COURTSIDE_SERVER_KEY).",
            valueName: "file|z85"))
    var serverKeyFlag: String?

    /// The flag, or else the environment: an optional option cannot have a default of its own.
    var key: String? { keyFlag ?? ProcessInfo.processInfo.environment["COURTSIDE_KEY"] }
    var serverKey: String? { serverKeyFlag ?? ProcessInfo.processInfo.environment["COURTSIDE_SERVER_KEY"] }

    func validate() throws {
        if (key == nil) != (serverKey == nil) {
            throw ValidationError("--key and --server-key go together: your secret certificate and the daemon's public key")
        }
    }

    func endpoints() throws(CourtsideError) -> Endpoints {
        var endpoints = Endpoints(command: commandEndpoint, events: eventEndpoint)
        if let key, let serverKey { endpoints.curve = try CurveClientKeys.load(certificate: key, serverKey: serverKey) }
        return endpoints
    }

    func client() throws(CourtsideError) -> CommandClient {
        CommandClient(endpoints: try endpoints(), clientID: clientID, timeoutMilliseconds: timeoutMs, attempts: tries)
    }
}

/// Runs a client call, turning a typed failure into a clear message and a non-zero exit.
func reporting<T>(_ body: () throws(CourtsideError) -> T) throws -> T {
    do {
        return try body()
    } catch {
        FileHandle.standardError.write(Data("courtside: \(error.message) [\(error.code)]\n".utf8))
        throw ExitCode(error.code == .unreachable ? 69 : 1)  // 69: EX_UNAVAILABLE
    }
}

/// Sends one move and prints what happened.
func record(_ move: MoveKind, game: String, player: String, connection: ConnectionOptions) throws {
    let reply = try reporting { () throws(CourtsideError) in
        try connection.client().command(.move(game: GameID(game), player: PlayerID(player), move: move))
    }
    print("\(game) v\(reply.version ?? 0): \(player) \(GameViewModel.moveText(move)) (sequence \(reply.sequence ?? 0))")
}

struct Score: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record a basket: one or two points.", discussion: "Example: courtside score g1 ann 2")
    @Argument(help: "The game id.") var game: String
    @Argument(help: "The player id.") var player: String
    @Argument(help: "Points: 1 or 2.") var points: Int
    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        guard points == 1 || points == 2 else { throw ValidationError("points must be 1 or 2, not \(points)") }
    }

    func run() throws { try record(points == 1 ? .onePoint : .twoPoints, game: game, player: player, connection: connection) }
}

struct Timeout: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A team calls a time-out: the clock stops.", discussion: "Example: courtside timeout g1 home")
    @Argument(help: "The game id.") var game: String
    @Argument(help: "home or away.") var side: Side
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let reply = try reporting { () throws(CourtsideError) in
            try connection.client().command(.timeout(game: GameID(game), side: side))
        }
        print("\(game) v\(reply.version ?? 0): time-out \(side.rawValue)")
    }
}

extension Side: ExpressibleByArgument {}

/// A move that counts without a points argument; each gets a subcommand of its own.
protocol CountedMove {
    static var move: MoveKind { get }
    static var name: String { get }
    static var abstract: String { get }
    static var example: String { get }
}

enum FreeThrowMove: CountedMove {
    static let move = MoveKind.freeThrow
    static let name = "free-throw"
    static let abstract = "Record a made free throw (one point)."
    static let example = "courtside free-throw g1 ann"
}

enum AssistMove: CountedMove {
    static let move = MoveKind.assist
    static let name = "assist"
    static let abstract = "Record an assist."
    static let example = "courtside assist g1 bo"
}

enum ReboundMove: CountedMove {
    static let move = MoveKind.rebound
    static let name = "rebound"
    static let abstract = "Record a rebound."
    static let example = "courtside rebound g1 cy"
}

enum FoulMove: CountedMove {
    static let move = MoveKind.foul
    static let name = "foul"
    static let abstract = "Record a foul (it counts as a team foul too)."
    static let example = "courtside foul g1 di"
}

/// `courtside assist|rebound|foul|free-throw GAME PLAYER`.
struct Record<Kind: CountedMove>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: Kind.name, abstract: Kind.abstract, discussion: "Example: \(Kind.example)")
    }
    @Argument(help: "The game id.") var game: String
    @Argument(help: "The player id.") var player: String
    @OptionGroup var connection: ConnectionOptions
    func run() throws { try record(Kind.move, game: game, player: player, connection: connection) }
}

struct Undo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Retract a move: the game's last one, or the one at --version.",
        discussion: "Examples:\n  courtside undo g1\n  courtside undo g1 --version 12")
    @Argument(help: "The game id.") var game: String
    @Option(help: "The version of the move to retract (shown by every command and by `courtside show`).")
    var version: Int?
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let client = try reporting { () throws(CourtsideError) in try connection.client() }
        let (target, reply) = try reporting { () throws(CourtsideError) -> (Int, Reply) in
            var target = version
            if target == nil {
                let (_, games) = try client.snapshot(game: GameID(game))
                target = games.first?.plays.last(where: { $0.retractedBy == nil })?.version
            }
            guard let target else { throw CourtsideError(.unknownEvent, "game \(game) has no move to undo") }
            return (target, try client.command(.retract(game: GameID(game), version: target)))
        }
        print("\(game) v\(reply.version ?? 0): retracted the move at v\(target)")
    }
}

struct Clock: ParsableCommand {
    enum Action: String, ExpressibleByArgument, CaseIterable { case start, pause }
    static let configuration = CommandConfiguration(
        abstract: "Start or pause a game's clock.",
        discussion: "Examples:\n  courtside clock g1 start\n  courtside clock g1 pause")
    @Argument(help: "The game id.") var game: String
    @Argument(help: "start or pause.") var action: Action
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let command: GameCommand = action == .start ? .startClock : .pauseClock
        let reply = try reporting { () throws(CourtsideError) in
            try connection.client().command(.clock(game: GameID(game), command: command))
        }
        print("\(game) v\(reply.version ?? 0): clock \(action.rawValue)")
    }
}

struct Keeper: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Keep score for one court in an interactive terminal.",
        discussion: """
            Keys: a digit picks a player; then p (+1), t (+2), x (free throw), a (assist), r (rebound) \
            or f (foul). u undoes the last move sent from this terminal, space starts or pauses the \
            clock, [ and ] call a time-out for home and away, q quits.

            Example: courtside keeper g1 --client-id court-1
            """)
    @Argument(help: "The game id.") var game: String
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        guard Terminal.isInteractive else { throw ValidationError("keeper needs an interactive terminal") }
        try reporting { () throws(CourtsideError) in
            try KeeperApp(endpoints: try connection.endpoints(), game: GameID(game), client: try connection.client()).run()
        }
    }
}

struct Games: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every game with its score, clock and status.", discussion: "Example: courtside games")
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let games = try reporting { () throws(CourtsideError) in try connection.client().snapshot().games }
        let lines = TournamentViewModel(games.map(GameState.init), now: Timestamp(Date())).lines
        print(lines.isEmpty ? "no games" : lines.joined(separator: "\n"))
    }
}

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a game's box score.", discussion: "Example: courtside show g1")
    @Argument(help: "The game id.") var game: String
    @Option(help: "How many of the last plays to list.") var plays = 10
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let games = try reporting { () throws(CourtsideError) in try connection.client().snapshot(game: GameID(game)).games }
        guard let state = games.first.map(GameState.init) else { return }
        let view = GameViewModel(state, now: Timestamp(Date()), lastPlays: plays)
        print(
            ([view.summary, ""] + Screens.boxScore(view) + ["", "Last plays:"] + view.lastPlays.map { "  " + $0 })
                .joined(separator: "\n"))
    }
}

struct Board: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A live board: one game, or every game on a big screen.",
        discussion: """
            Redraws on every event and runs the clock between events; says STALE when heartbeats \
            stop and shows when it resynced. q quits.

            Examples:
              courtside board g1
              courtside board            (every game)
              courtside board --once     (print once, for scripts)
            """)
    @Argument(help: "The game id; every game when left out.") var game: String?
    @Flag(help: "Print the board once and exit (also what happens without a terminal).") var once = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let app = BoardApp(endpoints: try connection.endpoints(), game: game.map { GameID($0) }, clientID: connection.clientID)
        try reporting { () throws(CourtsideError) in
            if once || !Terminal.isInteractive { try app.printOnce() } else { try app.run() }
        }
    }
}

struct Schedule: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the schedule: every game by round, with its court, time, teams and state.",
        discussion: "Example: courtside schedule")
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let client = try reporting { () throws(CourtsideError) in try connection.client() }
        let (reply, games) = try reporting { () throws(CourtsideError) in try client.snapshot() }
        let setup = try reporting { () throws(CourtsideError) in try client.command(.tournament) }.tournament
        var names = Dictionary(
            games.flatMap { [($0.setup.home.id, $0.setup.home.name), ($0.setup.away.id, $0.setup.away.name)] },
            uniquingKeysWith: { first, _ in first })
        for team in setup?.teams ?? [] where names[team.id] == nil { names[team.id] = team.name }
        print(
            TournamentTables.schedule(
                reply.bracket ?? [], games: Dictionary(games.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }),
                teamNames: names, divisions: setup?.divisionNames ?? [:]
            )
            .joined(separator: "\n"))
    }
}

struct Standings: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show every group's standings: played, won, lost, points for and against, difference.",
        discussion: "Example: courtside standings")
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let client = try reporting { () throws(CourtsideError) in try connection.client() }
        let reply = try reporting { () throws(CourtsideError) in try client.command(.standings) }
        let setup = try reporting { () throws(CourtsideError) in try client.command(.tournament) }.tournament
        print(TournamentTables.standings(reply.standings ?? [], divisions: setup?.divisionNames ?? [:]).joined(separator: "\n"))
    }
}

struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show a game's full trail from the log: every event, who sent it and when, retractions included.",
        discussion: "Example: courtside log g1")
    @Argument(help: "The game id.") var game: String
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let reply = try reporting { () throws(CourtsideError) in try connection.client().command(.log(game: GameID(game))) }
        print(TournamentTables.trail(reply.events ?? []).joined(separator: "\n"))
    }
}

struct Export: ParsableCommand {
    enum Format: String, ExpressibleByArgument, CaseIterable { case csv, json }
    static let configuration = CommandConfiguration(
        abstract: "Export results, standings, box scores and the play-by-play, all derived from the log.",
        discussion: """
            csv writes results.csv, standings.csv, box_scores.csv and play_by_play.csv into the \
            --output directory (default: export); json writes one document to --output, or to \
            standard output when --output is left out.

            Examples:
              courtside export --format csv --output results/
              courtside export --format json > tournament.json
            """)
    @Option(help: "csv or json.") var format: Format = .csv
    @Option(help: "Directory (csv) or file (json) to write.") var output: String?
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let client = try reporting { () throws(CourtsideError) in try connection.client() }
        let record = try reporting { () throws(CourtsideError) -> TournamentRecord in
            let (reply, games) = try client.snapshot()
            var trails: [GameID: [GameEvent]] = [:]
            for game in games { trails[game.id] = try client.command(.log(game: game.id)).events ?? [] }
            return TournamentRecord(games: games, standings: reply.standings ?? [], bracket: reply.bracket ?? [], trails: trails)
        }
        switch format {
        case .json:
            let data = Exporter.json(record)
            if let output {
                try data.write(to: URL(fileURLWithPath: output))
                print("wrote \(output)")
            } else {
                FileHandle.standardOutput.write(data)
                print()
            }
        case .csv:
            let directory = URL(fileURLWithPath: output ?? "export", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (name, text) in Exporter.csvFiles(record).sorted(by: { $0.key < $1.key }) {
                try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
                print("wrote \(directory.appendingPathComponent(name).path)")
            }
        }
    }
}

struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a tournament with many concurrent scorekeepers making random legal moves.",
        discussion: """
            Creates games between the tournament's teams (a finished game is replaced by a new one), \
            has the keepers play them, and prints moves sent, acknowledged and refused, the latency \
            (p50, p99, max), the events per second a subscriber saw and the gaps it detected.

            Example: courtside simulate --games 100 --keepers 16 --rate 0 --duration 20
            """)
    @Option(help: "Games played at once.") var games = 8
    @Option(help: "Concurrent scorekeepers.") var keepers = 4
    @Option(help: "Moves per second, all keepers together (0: as fast as the daemon answers).") var rate: Double = 50
    @Option(help: "Seconds to play.") var duration = 10
    @Flag(help: "Play the tournament's own schedule, round after round as the bracket fills, instead of creating games.")
    var schedule = false
    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        guard games > 0, keepers > 0, duration > 0, rate >= 0 else {
            throw ValidationError("games, keepers and duration must be positive, and rate not negative")
        }
    }

    func run() throws {
        var options = SimulationOptions(
            endpoints: try connection.endpoints(), games: games, keepers: keepers, rate: rate, duration: .seconds(duration))
        options.playSchedule = schedule
        let summary = try reporting { () throws(CourtsideError) in try Simulator(options: options).run() }
        print(summary.report)
    }
}
