public import CourtsideModel
import Foundation

/// One request on the command endpoint, decoded and checked.
public struct Request: Sendable {
    /// What the request asks for.
    public enum Operation: Sendable, Equatable {
        case move(game: GameID, player: PlayerID, move: MoveKind)
        case retract(game: GameID, version: Int, reason: String? = nil)
        case clock(game: GameID, command: GameCommand)
        case createGame(game: GameID, home: TeamID, away: TeamID, court: String?, rules: RuleSet?)
        case timeout(game: GameID, side: Side)
        case listGames
        /// One game, or every game when nil.
        case snapshot(game: GameID?)
        /// The schedule and bracket.
        case schedule
        /// Every group's standings.
        case standings
        /// A game's full trail from the log.
        case log(game: GameID)
        /// The tournament's setup (teams, players, groups, rounds, games, rules, courts).
        case tournament
        /// The organiser's: a team forfeits the game.
        case forfeit(game: GameID, side: Side, reason: String?)
        /// The organiser's: the game ends early, with its score or with no result.
        case endGame(game: GameID, result: EarlyResult, reason: String)
        /// The organiser's: a team registered, a player added, renamed or marked (in)active, a
        /// scheduled game edited (`register_team`, `add_player`, `rename_player`,
        /// `set_player_active`, `edit_game`).
        case changeTournament(TournamentChange, reason: String?)
        /// The organiser's: a game added to the schedule (`schedule_game`) under `rules`, or the
        /// preset named `preset`, or the tournament's default rules when neither is given.
        case scheduleGame(
            game: GameID, home: TeamID, away: TeamID, court: String?, start: String?, round: String?, group: String?,
            rules: RuleSet?, reason: String?, preset: String? = nil)
    }

    public var origin: CommandOrigin
    public var operation: Operation

    public init(origin: CommandOrigin, operation: Operation) {
        self.origin = origin
        self.operation = operation
    }

    /// Decodes a request body, or explains what is wrong with it.
    public static func decode(_ body: [UInt8]) throws(ProtocolError) -> Request {
        guard body.count <= ProtocolLimits.maxRequestBytes else {
            return try decodeDraw(body)
        }
        // Nearly every request is a flat object of plain strings and integers: read those without
        // Foundation, and leave everything else (and every error's explanation) to JSONDecoder.
        if let request = try FlatRequestReader.request(body) { return request }
        return try wire(body).checked()
    }

    /// The request's fields as JSONDecoder reads them, or what is wrong with the JSON.
    private static func wire(_ body: [UInt8]) throws(ProtocolError) -> WireRequest {
        do {
            return try JSONDecoder().decode(WireRequest.self, from: Data(body))
        } catch let error as DecodingError {
            throw ProtocolError(.badRequest, "the request is not valid JSON of the documented shape: \(describe(error))")
        } catch {
            throw ProtocolError(.badRequest, "the request is not valid JSON: \(error)")
        }
    }

    /// A request over ``ProtocolLimits/maxRequestBytes``: only a `publish_draw` may be, up to
    /// ``ProtocolLimits/maxDrawBytes``. A body that does not name the operation is refused before
    /// it is parsed.
    private static func decodeDraw(_ body: [UInt8]) throws(ProtocolError) -> Request {
        let limit = ProtocolLimits.maxRequestBytes
        let tooLarge = ProtocolError(
            .messageTooLarge,
            "the request is \(body.count) bytes; the limit is \(limit) (\(ProtocolLimits.maxDrawBytes) for publish_draw)")
        guard body.count <= ProtocolLimits.maxDrawBytes, body.contains(Self.drawOperation) else { throw tooLarge }
        let fields = try wire(body)
        guard fields.op == "publish_draw" else { throw tooLarge }
        return try fields.checked()
    }

    /// The operation's name as it appears, quoted, in a `publish_draw` body.
    private static let drawOperation = Array("\"publish_draw\"".utf8)

    /// Encodes the request as a client sends it.
    public func encoded() -> [UInt8] {
        var wire = WireRequest(op: "", clientID: origin.clientID, commandID: origin.commandID)
        switch operation {
        case .move(let game, let player, let move):
            (wire.op, wire.game, wire.player, wire.move) = ("move", game, player, move)
        case .retract(let game, let version, let reason):
            (wire.op, wire.game, wire.version, wire.reason) = ("retract", game, version, reason)
        case .clock(let game, let command):
            (wire.op, wire.game, wire.action) = ("clock", game, command == .startClock ? "start" : "pause")
        case .createGame(let game, let home, let away, let court, let rules):
            (wire.op, wire.game, wire.home, wire.away, wire.court, wire.rules) = ("create_game", game, home, away, court, rules)
        case .timeout(let game, let side): (wire.op, wire.game, wire.side) = ("timeout", game, side)
        case .listGames: wire.op = "list_games"
        case .snapshot(let game): (wire.op, wire.game) = ("snapshot", game)
        case .schedule: wire.op = "schedule"
        case .standings: wire.op = "standings"
        case .log(let game): (wire.op, wire.game) = ("log", game)
        case .tournament: wire.op = "tournament"
        case .forfeit(let game, let side, let reason):
            (wire.op, wire.game, wire.side, wire.reason) = ("forfeit", game, side, reason)
        case .endGame(let game, let result, let reason):
            (wire.op, wire.game, wire.result, wire.reason) = ("end_game", game, result, reason)
        case .changeTournament(let change, let reason):
            wire.reason = reason
            switch change {
            case .teamRegistered(let team, let group, let division):
                (wire.op, wire.team, wire.name, wire.players, wire.group, wire.division) = (
                    "register_team", team.id, team.name, team.players, group, division
                )
            case .playerAdded(let team, let player):
                (wire.op, wire.team, wire.player, wire.name) = ("add_player", team, player.id, player.name)
            case .playerRenamed(let team, let player, let name):
                (wire.op, wire.team, wire.player, wire.name) = ("rename_player", team, player, name)
            case .playerActive(let team, let player, let active):
                (wire.op, wire.team, wire.player, wire.active) = ("set_player_active", team, player, active)
            case .gameEdited(let edit):
                (wire.op, wire.game, wire.court, wire.start, wire.rules) = (
                    "edit_game", edit.game, edit.court, edit.start, edit.rules
                )
                wire.preset = edit.preset
                if case .team(let home) = edit.home { wire.home = home }
                if case .team(let away) = edit.away { wire.away = away }
            case .drawPublished(let draw):
                (wire.op, wire.draw) = ("publish_draw", draw)
            case .teamWithdrawn(let team):
                (wire.op, wire.team) = ("withdraw_team", team)
            case .swissRoundPaired(let pairing):
                // Only the daemon pairs a round; a request naming this op is refused as unknown.
                (wire.op, wire.group) = ("swiss_round_paired", pairing.group)
            case .gameScheduled(let game):
                (wire.op, wire.game, wire.court, wire.start, wire.round, wire.group, wire.rules) = (
                    "schedule_game", game.id, game.court, game.start, game.round, game.group, game.rules
                )
                if case .team(let home) = game.home { wire.home = home }
                if case .team(let away) = game.away { wire.away = away }
            }
        case .scheduleGame(
            let game, let home, let away, let court, let start, let round, let group, let rules, let reason, let preset):
            (wire.op, wire.game, wire.home, wire.away, wire.court, wire.start) = ("schedule_game", game, home, away, court, start)
            (wire.round, wire.group, wire.rules, wire.reason, wire.preset) = (round, group, rules, reason, preset)
        }
        return WireCoding.encode(wire)
    }
}

/// The request as it is on the wire: every field of every operation, all optional but three.
struct WireRequest: Codable {
    var op: String
    var clientID: String
    var commandID: String
    var game: GameID?
    var player: PlayerID?
    var move: MoveKind?
    var version: Int?
    var action: String?
    var home: TeamID?
    var away: TeamID?
    var court: String?
    var rules: RuleSet?
    var side: Side?
    var reason: String?
    var result: EarlyResult?
    var team: TeamID?
    var name: String?
    var players: [Player]?
    var group: String?
    var start: String?
    var round: String?
    var active: Bool?
    var preset: String?
    var division: String?
    var draw: PublishedDraw?

    init(op: String, clientID: String, commandID: String) {
        self.op = op
        self.clientID = clientID
        self.commandID = commandID
    }

    enum CodingKeys: String, CodingKey {
        case op, game, player, move, version, action, home, away, court, rules, side, reason, result
        case team, name, players, group, start, round, active, preset, division, draw
        case clientID = "client_id"
        case commandID = "command_id"
    }

    /// The origin of a request, checked: both ids given, neither with a control character, and
    /// not the daemon's own.
    static func origin(clientID: String, commandID: String) throws(ProtocolError) -> CommandOrigin {
        guard !clientID.isEmpty, !commandID.isEmpty else {
            throw ProtocolError(.badRequest, "client_id and command_id must not be empty")
        }
        // Escaped ones reach here through JSONDecoder. A NUL would name one command in the log's
        // rows and another in its look-ups (SQLite reads text up to the NUL), so a retry of it
        // could be applied twice.
        guard !clientID.utf8.contains(where: { $0 < 0x20 }), !commandID.utf8.contains(where: { $0 < 0x20 }) else {
            throw ProtocolError(.badRequest, "client_id and command_id must not contain control characters")
        }
        guard !CommandOrigin.isReserved(clientID: clientID) else {
            throw ProtocolError(
                .badRequest, "client_id \(clientID) is reserved for the daemon's own commands (courtside and courtside.*)")
        }
        return CommandOrigin(clientID: clientID, commandID: commandID)
    }

    func checked() throws(ProtocolError) -> Request {
        let origin = try Self.origin(clientID: clientID, commandID: commandID)
        func require<T>(_ value: T?, _ key: String) throws(ProtocolError) -> T {
            guard let value else { throw ProtocolError(.badRequest, "operation \(op) needs the field \(key)") }
            return value
        }
        let operation: Request.Operation
        switch op {
        case "move":
            operation = .move(
                game: try require(game, "game"), player: try require(player, "player"), move: try require(move, "move"))
        case "retract":
            operation = .retract(game: try require(game, "game"), version: try require(version, "version"), reason: reason)
        case "clock":
            let game = try require(game, "game")
            switch try require(action, "action") {
            case "start": operation = .clock(game: game, command: .startClock)
            case "pause": operation = .clock(game: game, command: .pauseClock)
            case let other: throw ProtocolError(.badRequest, "clock action must be start or pause, not \(other)")
            }
        case "create_game":
            operation = .createGame(
                game: try require(game, "game"), home: try require(home, "home"), away: try require(away, "away"),
                court: court, rules: rules)
        case "timeout": operation = .timeout(game: try require(game, "game"), side: try require(side, "side"))
        case "list_games": operation = .listGames
        case "snapshot": operation = .snapshot(game: game)
        case "schedule": operation = .schedule
        case "standings": operation = .standings
        case "log": operation = .log(game: try require(game, "game"))
        case "tournament": operation = .tournament
        case "forfeit": operation = .forfeit(game: try require(game, "game"), side: try require(side, "side"), reason: reason)
        case "end_game":
            // A missing reason is the game's to refuse (invalid_reason), as an empty one is.
            operation = .endGame(game: try require(game, "game"), result: try require(result, "result"), reason: reason ?? "")
        case "register_team":
            let team = Team(
                id: try require(team, "team"), name: try require(name, "name"), players: try require(players, "players"))
            operation = .changeTournament(.teamRegistered(team, group: group, division: division), reason: reason)
        case "add_player":
            let player = Player(id: try require(player, "player"), name: try require(name, "name"))
            operation = .changeTournament(.playerAdded(team: try require(team, "team"), player: player), reason: reason)
        case "rename_player":
            operation = .changeTournament(
                .playerRenamed(
                    team: try require(team, "team"), player: try require(player, "player"), name: try require(name, "name")),
                reason: reason)
        case "set_player_active":
            operation = .changeTournament(
                .playerActive(
                    team: try require(team, "team"), player: try require(player, "player"), active: try require(active, "active")),
                reason: reason)
        case "edit_game":
            let edit = GameEdit(
                game: try require(game, "game"), court: court, start: start, rules: rules, home: home.map(Slot.team),
                away: away.map(Slot.team), preset: preset)
            operation = .changeTournament(.gameEdited(edit), reason: reason)
        case "withdraw_team":
            operation = .changeTournament(.teamWithdrawn(try require(team, "team")), reason: reason)
        case "publish_draw":
            operation = .changeTournament(.drawPublished(try require(draw, "draw")), reason: reason)
        case "schedule_game":
            operation = .scheduleGame(
                game: try require(game, "game"), home: try require(home, "home"), away: try require(away, "away"), court: court,
                start: start, round: round, group: group, rules: rules, reason: reason, preset: preset)
        default:
            throw ProtocolError(
                .unknownOperation,
                "unknown operation \(op); expected move, retract, clock, timeout, create_game, forfeit, end_game, "
                    + "register_team, add_player, rename_player, set_player_active, schedule_game, edit_game, publish_draw, withdraw_team, "
                    + "list_games, snapshot, schedule, standings, log or tournament")
        }
        return Request(origin: origin, operation: operation)
    }
}

// Keepers send a request per move, so clients write it without Foundation's encoder, byte for
// byte what that encoder gives with WireCoding's sorted keys.
extension WireRequest: JSONWritable {
    func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        if let action {
            writer.key("action")
            writer.value(action)
        }
        if let active {
            writer.key("active")
            writer.value(active)
        }
        if let away {
            writer.key("away")
            writer.value(away)
        }
        writer.key("client_id")
        writer.value(clientID)
        writer.key("command_id")
        writer.value(commandID)
        if let court {
            writer.key("court")
            writer.value(court)
        }
        if let division {
            writer.key("division")
            writer.value(division)
        }
        if let draw {
            writer.key("draw")
            writer.value(draw)
        }
        if let game {
            writer.key("game")
            writer.value(game)
        }
        if let group {
            writer.key("group")
            writer.value(group)
        }
        if let home {
            writer.key("home")
            writer.value(home)
        }
        if let move {
            writer.key("move")
            writer.value(move)
        }
        if let name {
            writer.key("name")
            writer.value(name)
        }
        writer.key("op")
        writer.value(op)
        if let player {
            writer.key("player")
            writer.value(player)
        }
        if let players {
            writer.key("players")
            writer.value(players)
        }
        if let preset {
            writer.key("preset")
            writer.value(preset)
        }
        if let reason {
            writer.key("reason")
            writer.value(reason)
        }
        if let result {
            writer.key("result")
            writer.value(result)
        }
        if let round {
            writer.key("round")
            writer.value(round)
        }
        if let rules {
            writer.key("rules")
            writer.value(rules)
        }
        if let side {
            writer.key("side")
            writer.value(side)
        }
        if let start {
            writer.key("start")
            writer.value(start)
        }
        if let team {
            writer.key("team")
            writer.value(team)
        }
        if let version {
            writer.key("version")
            writer.value(version)
        }
        writer.endObject()
    }
}

/// A decoding error in a sentence: where in the JSON and what.
func describe(_ error: DecodingError) -> String {
    func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty
            ? "the top level" : codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
    switch error {
    case .keyNotFound(let key, let context): return "missing field \(path(context.codingPath + [key]))"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
        return "wrong type at \(path(context.codingPath)): \(context.debugDescription)"
    case .dataCorrupted(let context): return "at \(path(context.codingPath)): \(context.debugDescription)"
    @unknown default: return "\(error)"
    }
}
