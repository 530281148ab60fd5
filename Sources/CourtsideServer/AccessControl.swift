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
        var byName: [String: ClientKey]
        var byKey: [CurveKey: String]
        var anonymousDisplays: Bool
    }

    private let lists: Mutex<Lists>

    init(_ security: SecurityConfiguration) {
        lists = Mutex(Self.lists(security))
    }

    private static func lists(_ security: SecurityConfiguration) -> Lists {
        Lists(
            byName: Dictionary(security.clients.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }),
            byKey: Dictionary(security.clients.map { ($0.publicKey, $0.name) }, uniquingKeysWith: { first, _ in first }),
            anonymousDisplays: security.anonymousDisplays)
    }

    /// Takes a reloaded section's clients and anonymous setting.
    func replace(with security: SecurityConfiguration) {
        let new = Self.lists(security)
        lists.withLock { $0 = new }
    }

    /// The ZAP decision for a handshake: listed keys by name; others as anonymous displays when allowed.
    func authenticate(_ request: ZAPRequest) -> ZAPDecision {
        guard request.mechanism == "CURVE", let key = request.curvePublicKey else {
            return .reject(reason: "only CURVE clients are served")
        }
        return lists.withLock { lists in
            if let name = lists.byKey[key] { return .accept(userID: name) }
            if lists.anonymousDisplays { return .accept(userID: SecurityConfiguration.anonymousName) }
            return .reject(reason: "key not listed")
        }
    }

    /// Throws `forbidden` unless the authenticated `user` may make the request. `court` tells
    /// on which court a game is played, for keepers listed by court.
    func authorize(user: String?, _ operation: Request.Operation, court: (GameID) -> String?) throws(CourtsideError) {
        let (client, anonymous) = lists.withLock { lists in
            (user.flatMap { lists.byName[$0] }, lists.anonymousDisplays)
        }
        let kind = OperationKind(operation)
        guard let client else {
            // Accepted as an anonymous display; or a key removed by SIGHUP while connected.
            if user == SecurityConfiguration.anonymousName, anonymous, kind == .read { return }
            let who = user.map { "key \($0)" } ?? "an unauthenticated client"
            throw CourtsideError(
                .forbidden,
                user == SecurityConfiguration.anonymousName && anonymous
                    ? "an anonymous key may only read (list_games, snapshot, schedule, standings, log); ask the organiser to list your key"
                    : "\(who) is not listed any more; ask the organiser to add it to security.clients")
        }
        switch (client.role, kind) {
        case (.organiser, _), (_, .read): return
        case (.keeper, .gameCommand(let game)):
            if client.games.contains(game) { return }
            if let court = court(game), client.courts.contains(court) { return }
            throw CourtsideError(.forbidden, "key \(client.name) may not \(operation.name) in \(game); it is a \(client.summary)")
        case (.keeper, .creation), (.display, _):
            throw CourtsideError(.forbidden, "key \(client.name) may not \(operation.name); it is a \(client.summary)")
        }
    }

    /// How requests divide among the roles.
    private enum OperationKind: Equatable {
        case read
        case gameCommand(GameID)
        case creation

        init(_ operation: Request.Operation) {
            switch operation {
            case .listGames, .snapshot, .schedule, .standings, .log: self = .read
            case .move(let game, _, _), .retract(let game, _), .clock(let game, _), .timeout(let game, _):
                self = .gameCommand(game)
            case .createGame: self = .creation
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
        }
    }
}
