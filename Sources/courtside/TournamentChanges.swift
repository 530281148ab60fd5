import ArgumentParser
import CourtsideClient
import CourtsideModel
import CourtsideProtocol

/// Sends an organiser's change to the tournament and prints what the daemon answered.
private func send(_ operation: Request.Operation, _ connection: ConnectionOptions, done: String) throws {
    let reply = try reporting { () throws(CourtsideError) in try connection.client().command(operation) }
    print("\(done) (the tournament's change \(reply.version ?? 0), sequence \(reply.sequence ?? 0))")
}

/// Refuses, before anything is sent, an option the daemon would refuse by the model's
/// ``TextRule``; the daemon holds it to the rule again whatever a client does.
private func checkText(_ text: String?, _ option: String, as kind: TextRule.Kind = .line) throws {
    if let text, let problem = TextRule.problem(text, as: kind) { throw ValidationError("\(option): \(problem)") }
}

/// `courtside team`: the tournament's teams.
struct TeamCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "team", abstract: "Register a team on the day, or withdraw one (the organiser's).",
        subcommands: [Add.self, Withdraw.self])

    /// `courtside team withdraw`.
    struct Withdraw: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Withdraw a team: every game of theirs not over is forfeited, and those the results bring them into.",
            discussion: """
                Its results so far stand. A game it plays against another withdrawn team ends with no \
                result. The estimates of the day follow at once; it cannot be undone. On a secured \
                daemon only an organiser key may.

                Example:
                  courtside team withdraw owls --reason "injury, no fourth player"
                """)
        @Argument(help: "The team's id.") var id: String
        @Option(help: "Why, for the log.") var reason: String
        @OptionGroup var connection: ConnectionOptions

        func validate() throws { try checkText(reason, "--reason", as: .reason) }

        func run() throws {
            try send(.changeTournament(.teamWithdrawn(TeamID(id)), reason: reason), connection, done: "\(id) withdrawn")
        }
    }

    /// `courtside team add`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a team with its players: the log keeps it, whatever the config file says.",
            discussion: """
                Each --player is ID=NAME; player ids are the tournament's, so an id another team has is \
                refused (player_exists). --group puts the team in a group's standings. On a secured \
                daemon only an organiser key may.

                Examples:
                  courtside team add owls --name Owls --player ola="Ola Olsen" --player pia="Pia Park"
                  courtside team add owls --name Owls --player ola=Ola --group A --reason "late entry"
                """)
        @Argument(help: "The team's id (letters, digits, '-', '.', '_').") var id: String
        @Option(help: "The team's name.") var name: String
        @Option(help: ArgumentHelp("A player, as ID=NAME; repeat for each.", valueName: "id=name")) var player: [String]
        @Option(help: "A group whose standings count the team.") var group: String?
        @Option(help: "The division the team enters, where the tournament has divisions (else its group's).")
        var division: String?
        @Option(help: "Why, for the log (optional).") var reason: String?
        @OptionGroup var connection: ConnectionOptions

        func validate() throws {
            try checkText(name, "--name")
            try checkText(group, "--group")
            try checkText(division, "--division")
            try checkText(reason, "--reason", as: .reason)
        }

        func run() throws {
            var players: [Player] = []
            for entry in player {
                let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    throw ValidationError("--player takes ID=NAME, as in --player ola=\"Ola Olsen\"; got \(entry)")
                }
                try checkText(parts[1], "--player \(parts[0])")
                players.append(Player(id: PlayerID(parts[0]), name: parts[1]))
            }
            if players.isEmpty { throw ValidationError("a team needs at least one --player ID=NAME") }
            let team = Team(id: TeamID(id), name: name, players: players)
            try send(
                .changeTournament(.teamRegistered(team, group: group, division: division), reason: reason), connection,
                done: "\(id) registered")
        }
    }
}

/// `courtside player`: a team's players.
struct PlayerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "player", abstract: "Add a late player to a team, or correct a name (the organiser's).",
        subcommands: [Add.self, Rename.self, SetActive<Inactive>.self, SetActive<Active>.self])

    /// `courtside player add`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a player to a team: every game of the team not yet over has them at once, even one in play.",
            discussion: """
                Examples:
                  courtside player add lions dee --name "Dee Dunn"
                  courtside player add lions dee --name "Dee Dunn" --reason "arrived at 10:20"
                """)
        @Argument(help: "The team's id.") var team: String
        @Argument(help: "The new player's id, unique in the tournament.") var id: String
        @Option(help: "The player's name.") var name: String
        @Option(help: "Why, for the log (optional).") var reason: String?
        @OptionGroup var connection: ConnectionOptions

        func validate() throws {
            try checkText(name, "--name")
            try checkText(reason, "--reason", as: .reason)
        }

        func run() throws {
            let change = TournamentChange.playerAdded(team: TeamID(team), player: Player(id: PlayerID(id), name: name))
            try send(.changeTournament(change, reason: reason), connection, done: "\(name) (\(id)) joins \(team)")
        }
    }

    /// `courtside player rename`.
    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Correct a player's name; the id, and so every move, stays.",
            discussion: "Example: courtside player rename lions ann --name \"Ann Avery-Lee\"")
        @Argument(help: "The team's id.") var team: String
        @Argument(help: "The player's id.") var id: String
        @Option(help: "The new name.") var name: String
        @Option(help: "Why, for the log (optional).") var reason: String?
        @OptionGroup var connection: ConnectionOptions

        func validate() throws {
            try checkText(name, "--name")
            try checkText(reason, "--reason", as: .reason)
        }

        func run() throws {
            let change = TournamentChange.playerRenamed(team: TeamID(team), player: PlayerID(id), name: name)
            try send(.changeTournament(change, reason: reason), connection, done: "\(id) of \(team) is now \(name)")
        }
    }
}

/// Which way `courtside player inactive` and `courtside player active` mark a player.
protocol ActivityMark {
    static var active: Bool { get }
    static var configuration: CommandConfiguration { get }
}

extension PlayerCommand {
    /// `courtside player inactive`.
    enum Inactive: ActivityMark {
        static let active = false
        static let configuration = CommandConfiguration(
            commandName: "inactive",
            abstract: "Mark a player inactive: their moves so far stay in every record; new ones are refused.",
            discussion: """
                Nobody is removed from a roster (a player with moves keeps them): an injured player, or \
                one entered by mistake, is marked inactive instead; `courtside player active` undoes it.

                Example: courtside player inactive lions bo --reason "injured in g1"
                """)
    }

    /// `courtside player active`.
    enum Active: ActivityMark {
        static let active = true
        static let configuration = CommandConfiguration(
            commandName: "active", abstract: "Mark an inactive player active again.",
            discussion: "Example: courtside player active lions bo")
    }

    /// Marks a player inactive or active, as `Mark` says.
    struct SetActive<Mark: ActivityMark>: ParsableCommand {
        static var configuration: CommandConfiguration { Mark.configuration }
        @Argument(help: "The team's id.") var team: String
        @Argument(help: "The player's id.") var id: String
        @Option(help: "Why, for the log (optional).") var reason: String?
        @OptionGroup var connection: ConnectionOptions

        func run() throws {
            let change = TournamentChange.playerActive(team: TeamID(team), player: PlayerID(id), active: Mark.active)
            try send(
                .changeTournament(change, reason: reason), connection,
                done: "\(id) of \(team) is \(Mark.active ? "active" : "inactive")")
        }
    }
}

/// `courtside game`: the schedule's games.
struct ScheduledGameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "game", abstract: "Move, re-time or add a scheduled game (the organiser's).",
        subcommands: [Move.self, Add.self])

    /// `courtside game move`.
    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move a game that has not started to another court or time, or give it other teams.",
            discussion: """
                Only what is given changes. A team replaces a team, never a slot the results fill \
                (winner_of, group ranks). A game that has started is refused (game_started). Every \
                display and court page follows at once.

                Examples:
                  courtside game move g4 --court "Court 1" --start 10:50
                  courtside game move g4 --start 11:10 --reason "court 2 runs 20 minutes behind"
                  courtside game move g3 --home owls
                  courtside game move final --rules fiba3x3 --reason "the final is played as FIBA 3x3"
                """)
        @Argument(help: "The game id.") var game: String
        @Option(help: "The court it moves to.") var court: String?
        @Option(help: "When it is due: H:MM or HH:MM, 00:00 to 23:59 (10:50).") var start: String?
        @Option(help: "The home team's id.") var home: String?
        @Option(help: "The away team's id.") var away: String?
        @Option(help: ArgumentHelp("A rules preset's name: built in (fiba3x3, ...) or the config's.", valueName: "preset"))
        var rules: String?
        @Option(help: "Why, for the log (optional).") var reason: String?
        @OptionGroup var connection: ConnectionOptions

        func validate() throws {
            if court == nil && start == nil && home == nil && away == nil && rules == nil {
                throw ValidationError("say what changes: --court, --start, --home, --away or --rules")
            }
            try checkText(court, "--court")
            try checkText(start, "--start", as: .time)
            try checkText(reason, "--reason", as: .reason)
        }

        func run() throws {
            let edit = GameEdit(
                game: GameID(game), court: court, start: start, home: home.map { .team(TeamID($0)) },
                away: away.map { .team(TeamID($0)) }, preset: rules)
            try send(.changeTournament(.gameEdited(edit), reason: reason), connection, done: "\(game) changed")
        }
    }

    /// `courtside game add`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a game between two teams to the schedule, in a round.",
            discussion: """
                The game is created at once (its teams are known) under the tournament's default \
                rules; a group makes it count for that group's standings.

                Examples:
                  courtside game add g7 lions owls --court "Court 2" --start 12:30 --round "Group stage" --group A
                  courtside game add friendly-1 tigers owls --court "Court 1" --round Friendlies
                """)
        @Argument(help: "The new game's id.") var game: String
        @Argument(help: "The home team's id.") var home: String
        @Argument(help: "The away team's id.") var away: String
        @Option(help: "The court.") var court: String?
        @Option(help: "When it is due: H:MM or HH:MM (12:30).") var start: String?
        @Option(help: "The round it belongs to (a new name adds a round).") var round: String?
        @Option(help: "The group whose standings count it.") var group: String?
        @Option(help: ArgumentHelp("A rules preset's name (the tournament's default rules without).", valueName: "preset"))
        var rules: String?
        @Option(help: "Why, for the log (optional).") var reason: String?
        @OptionGroup var connection: ConnectionOptions

        func validate() throws {
            try checkText(court, "--court")
            try checkText(start, "--start", as: .time)
            try checkText(round, "--round")
            try checkText(group, "--group")
            try checkText(reason, "--reason", as: .reason)
        }

        func run() throws {
            let operation = Request.Operation.scheduleGame(
                game: GameID(game), home: TeamID(home), away: TeamID(away), court: court, start: start, round: round,
                group: group, rules: nil, reason: reason, preset: rules)
            try send(operation, connection, done: "\(game) scheduled: \(home) v \(away)")
        }
    }
}
