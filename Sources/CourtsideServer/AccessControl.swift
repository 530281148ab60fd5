public import CourtsideModel
import CourtsideProtocol
import Synchronization
public import ZeroMQ

/// What a key may do (docs/PROTOCOL.md, "Security").
public enum ClientRole: String, Sendable, Equatable, CaseIterable {
    /// Every operation on every game.
    case organiser
    /// Moves, retractions, clock and time-outs in its own games; reads everywhere.
    case keeper
    /// Reads and the event stream only.
    case display
}

/// One key the organiser listed in `security.clients`.
public struct ClientKey: Sendable, Equatable {
    /// The name in every request's origin and in the log; the ZAP user id.
    public var name: String
    public var publicKey: CurveKey
    public var role: ClientRole
    /// A keeper's courts: it keeps score in every game played on them.
    public var courts: [String]
    /// A keeper's games, named one by one.
    public var games: [GameID]

    public init(name: String, publicKey: CurveKey, role: ClientRole, courts: [String] = [], games: [GameID] = []) {
        self.name = name
        self.publicKey = publicKey
        self.role = role
        self.courts = courts
        self.games = games
    }

    /// What the key may do, in words, for `forbidden` messages and logs.
    var summary: String {
        switch role {
        case .organiser: "organiser: every operation"
        case .display: "display: list_games, snapshot, schedule, standings, log and the event stream"
        case .keeper:
            "keeper: move, retract, clock and timeout in "
                + ((courts.map { "the games on \($0)" } + games.map { "game \($0)" }).joined(separator: ", ")
                    .nonEmpty ?? "no game") + "; reads everywhere"
        }
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}

/// The `security` section: the daemon's own certificate, and who may connect as what.
public struct SecurityConfiguration: Sendable, Equatable {
    /// Where the daemon's secret certificate was read from.
    public var serverCertificatePath: String
    public var serverKeys: CurveKeyPair
    /// Whether any other key may connect, as a display.
    public var anonymousDisplays: Bool
    public var clients: [ClientKey]

    /// The user id of keys accepted through `anonymous: display`; no listed client may take it.
    public static let anonymousName = "anonymous"

    public init(serverCertificatePath: String, serverKeys: CurveKeyPair, anonymousDisplays: Bool, clients: [ClientKey]) {
        self.serverCertificatePath = serverCertificatePath
        self.serverKeys = serverKeys
        self.anonymousDisplays = anonymousDisplays
        self.clients = clients
    }
}

/// The allowlist in force. The I/O thread asks it about handshakes and the command service
/// about requests; SIGHUP swaps in a new one, which takes effect at the next request, on
/// connections already open too.
final class AccessControl: Sendable {
    private struct Lists {
        var byKey: [CurveKey: ClientKey]
        var anonymousDisplays: Bool
    }

    private let lists: Mutex<Lists>

    init(_ security: SecurityConfiguration) {
        lists = Mutex(Self.lists(security))
    }

    private static func lists(_ security: SecurityConfiguration) -> Lists {
        Lists(
            byKey: Dictionary(security.clients.map { ($0.publicKey, $0) }, uniquingKeysWith: { first, _ in first }),
            anonymousDisplays: security.anonymousDisplays)
    }

    /// Takes a reloaded section's clients and anonymous setting. Returns the user ids (public
    /// keys) that were accepted and no longer are, whose open connections should be cut.
    func replace(with security: SecurityConfiguration) -> Set<String> {
        let new = Self.lists(security)
        let old = lists.withLock { lists in
            defer { lists = new }
            return lists
        }
        guard !new.anonymousDisplays else { return [] }
        return Set(old.byKey.keys.filter { new.byKey[$0] == nil }.map(\.z85))
    }

    /// The ZAP decision for a handshake: a listed key, or any key when anonymous displays are
    /// allowed. The user id is the public key itself, not its name: libzmq fixes it for the
    /// connection's life, and a name may be given to a new key by a reload (a lost tablet).
    func authenticate(_ request: ZAPRequest) -> ZAPDecision {
        guard request.mechanism == "CURVE", let key = request.curvePublicKey else {
            return .reject(reason: "only CURVE clients are served")
        }
        return lists.withLock { lists in
            lists.byKey[key] != nil || lists.anonymousDisplays ? .accept(userID: key.z85) : .reject(reason: "key not listed")
        }
    }

    /// The name of the key that sent a request, for its origin, once its role allows the request
    /// under the list in force now; throws `forbidden` otherwise. `user` is the connection's ZAP
    /// user id (the public key); `court` tells on which court a game is played.
    func authorize(user: String?, _ operation: Request.Operation, court: (GameID) -> String?) throws(CourtsideError) -> String {
        let key = user.flatMap { CurveKey(z85: $0) }
        let (client, anonymous) = lists.withLock { lists in (key.flatMap { lists.byKey[$0] }, lists.anonymousDisplays) }
        let kind = OperationKind(operation)
        guard let client else {
            // An anonymous display, or a key removed or replaced by a reload while connected.
            if key != nil, anonymous, kind == .read { return SecurityConfiguration.anonymousName }
            throw CourtsideError(
                .forbidden,
                anonymous
                    ? "an anonymous (unlisted) key may only read (list_games, snapshot, schedule, standings, log); ask the organiser to list your key"
                    : "this key is not listed (any more); ask the organiser to add it to security.clients")
        }
        switch (client.role, kind) {
        case (.organiser, _), (_, .read): return client.name
        case (.keeper, .gameCommand(let game)):
            if client.games.contains(game) { return client.name }
            if let court = court(game), client.courts.contains(court) { return client.name }
            throw CourtsideError(.forbidden, "key \(client.name) may not \(operation.name) in \(game); it is a \(client.summary)")
        case (.keeper, .creation), (.keeper, .decision), (.display, _):
            throw CourtsideError(.forbidden, "key \(client.name) may not \(operation.name); it is a \(client.summary)")
        }
    }

    /// How requests divide among the roles.
    private enum OperationKind: Equatable {
        case read
        case gameCommand(GameID)
        case creation
        /// The organiser's decisions: a forfeit, an early end, a change to the tournament.
        case decision

        init(_ operation: Request.Operation) {
            switch operation {
            case .listGames, .snapshot, .schedule, .standings, .log, .tournament: self = .read
            case .move(let game, _, _), .retract(let game, _, _), .clock(let game, _), .timeout(let game, _):
                self = .gameCommand(game)
            case .createGame: self = .creation
            case .forfeit, .endGame, .changeTournament, .scheduleGame: self = .decision
            }
        }
    }
}

extension Request.Operation {
    /// The operation's name on the wire.
    var name: String {
        switch self {
        case .move: "move"
        case .retract: "retract"
        case .clock: "clock"
        case .timeout: "timeout"
        case .createGame: "create_game"
        case .listGames: "list_games"
        case .snapshot: "snapshot"
        case .schedule: "schedule"
        case .standings: "standings"
        case .log: "log"
        case .tournament: "tournament"
        case .forfeit: "forfeit"
        case .endGame: "end_game"
        case .scheduleGame: "schedule_game"
        case .changeTournament(let change, _):
            switch change {
            case .teamRegistered: "register_team"
            case .playerAdded: "add_player"
            case .playerRenamed: "rename_player"
            case .playerActive: "set_player_active"
            case .gameScheduled: "schedule_game"
            case .gameEdited: "edit_game"
            case .drawPublished: "publish_draw"
            case .teamWithdrawn: "withdraw_team"
            case .swissRoundPaired: "swiss_round_paired"
            }
        }
    }
}
