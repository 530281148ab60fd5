public import CourtsideModel
public import CourtsidePostgres
import Foundation
import Yams
import ZeroMQ

/// Everything courtsided reads from its config file (YAML), after flags are applied.
public struct DaemonConfiguration: Sendable, Equatable {
    /// Directory of the embedded SQLite event log.
    public var dataDirectory: String
    /// The PostgreSQL event log's (`storage.postgresql`); nil keeps the embedded SQLite one.
    public var postgresql: PostgresLogConfiguration?
    public var commandEndpoint: String
    public var eventEndpoint: String
    /// The command endpoint clients reach this daemon at (`endpoints.advertise`), which standby
    /// daemons name in their `not_active` answers; nil names the bound endpoint when it is not a
    /// wildcard.
    public var advertisedEndpoint: String? = nil
    /// Messages queued per display before the daemon drops for it.
    public var eventHighWaterMark: Int32
    /// Messages queued per client on the command endpoint.
    public var commandHighWaterMark: Int32
    /// How long closing sockets may still deliver, in milliseconds.
    public var lingerMilliseconds: Int32
    /// Heartbeat period in milliseconds (at most 1000).
    public var heartbeatMilliseconds: Int
    /// The pace of replies, in MB/s, which whole-tournament reads (a snapshot of every game,
    /// `list_games`, `schedule`) wait for when their client made one in the last 5 s; 0: none.
    public var tournamentReadsMegabytesPerSecond: Double
    /// CURVE and the allowlist; nil serves plaintext, on loopback only unless `--insecure`.
    public var security: SecurityConfiguration?
    public var tournament: TournamentConfiguration

    /// Defaults of the settings that have them.
    public static let defaultCommandEndpoint = "tcp://127.0.0.1:5555"
    public static let defaultEventEndpoint = "tcp://127.0.0.1:5556"
    public static let defaultDataDirectory = "data"
    /// About two snapshots a second of 10,000 games (10 MB each), 80 of 300 games, for the
    /// displays asking again and again. On two cores a keeper's p99 beside 10 of them is then
    /// 1.1 to 1.6 ms, 1.5 to 2 times its quiet p99, where 48 MB/s left it at 2 to 2.8 ms and no
    /// pace at 6 to 8 ms.
    public static let defaultTournamentReadsMegabytesPerSecond = 24.0
    /// The longest `transport.linger_ms` that fits in the 2 s shutdown budget after the commits drain.
    public static let maxLingerMilliseconds: Int32 = 500

    /// The endpoints reachable from other machines: every `tcp://` one whose host is not a
    /// loopback address (`*`, `0.0.0.0`, an interface or a public address).
    public var exposedEndpoints: [String] {
        [commandEndpoint, eventEndpoint].filter { !Self.isLocal($0) }
    }

    /// The keys whose values differ from `other`'s among those read only at start.
    public func settingsNeedingRestart(comparedWith other: DaemonConfiguration) -> [String] {
        var keys: [String] = []
        if dataDirectory != other.dataDirectory { keys.append("data_dir") }
        if postgresql != other.postgresql { keys.append("storage") }
        if advertisedEndpoint != other.advertisedEndpoint { keys.append("endpoints.advertise") }
        if commandEndpoint != other.commandEndpoint { keys.append("endpoints.command") }
        if eventEndpoint != other.eventEndpoint { keys.append("endpoints.events") }
        if eventHighWaterMark != other.eventHighWaterMark { keys.append("transport.event_high_water_mark") }
        if commandHighWaterMark != other.commandHighWaterMark { keys.append("transport.command_high_water_mark") }
        if lingerMilliseconds != other.lingerMilliseconds { keys.append("transport.linger_ms") }
        if heartbeatMilliseconds != other.heartbeatMilliseconds { keys.append("transport.heartbeat_ms") }
        if tournamentReadsMegabytesPerSecond != other.tournamentReadsMegabytesPerSecond {
            keys.append("transport.tournament_reads_mb_per_s")
        }
        return keys
    }

    /// What is wrong with an endpoint the daemon is to bind, or nil: `tcp://HOST:PORT` (HOST an
    /// address, `*`, `[IPv6]`, a host or interface name; PORT 1 to 65535, or `*` for any) or
    /// `ipc://PATH`. libzmq would refuse the others only when binding, and that is not an error
    /// a restart can fix.
    public static func endpointProblem(_ endpoint: String) -> String? {
        let usage = "should be tcp://HOST:PORT (for example tcp://0.0.0.0:5555) or ipc://PATH"
        if endpoint.hasPrefix("ipc://") { return endpoint.count > "ipc://".count ? nil : "has no path; \(usage)" }
        guard endpoint.hasPrefix("tcp://") else { return "\"\(endpoint)\" \(usage)" }
        let address = endpoint.dropFirst("tcp://".count)
        guard let colon = address.lastIndex(of: ":") else { return "\"\(endpoint)\" has no port; \(usage)" }
        let host = address[..<colon]
        let port = address[address.index(after: colon)...]
        if port != "*", !(Int(port).map { (1...65_535).contains($0) } ?? false) {
            return "\"\(endpoint)\": the port must be 1 to 65535 (or * for any)"
        }
        let hostCharacters = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._*"))
        let valid: Bool
        if host.hasPrefix("[") {
            valid =
                host.hasSuffix("]") && host.count > 2
                && host.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        } else {
            valid = !host.isEmpty && host.unicodeScalars.allSatisfy { hostCharacters.contains($0) && $0.isASCII }
        }
        return valid ? nil : "\"\(endpoint)\": \"\(host)\" is not an address, a host or an interface name"
    }

    /// Whether an endpoint can only be reached from this machine.
    /// Whether `endpoint` binds every interface (`*`, `0.0.0.0`, `[::]`): not an address a
    /// client can connect to.
    static func isWildcard(_ endpoint: String) -> Bool {
        endpoint.contains("*") || endpoint.contains("0.0.0.0") || endpoint.contains("[::]")
    }

    static func isLocal(_ endpoint: String) -> Bool {
        guard endpoint.hasPrefix("tcp://") else {
            // ipc:// is a Unix socket and inproc:// never leaves the process; anything else may.
            return endpoint.hasPrefix("ipc://") || endpoint.hasPrefix("inproc://")
        }
        var host = endpoint.dropFirst("tcp://".count)
        // A connecting endpoint may name its source first (src;dest); a bind has one address.
        if let separator = host.lastIndex(of: ":") { host = host[..<separator] }
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        if host == "localhost" || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}

/// The tournament part of the config: what SIGHUP reloads.
public struct TournamentConfiguration: Sendable, Equatable {
    public var name: String
    /// The rule set of every game that names none of its own.
    public var rules: RuleSet
    /// Rule presets by name: the built-in ones and the config's own.
    public var presets: [String: RuleSet]
    /// Teams, courts, groups, rounds and games (in config order), with the tie-breakers.
    public var schedule: Schedule

    public var teams: [TeamID: Team] { schedule.teams }
}

/// A config file that cannot be used: which file, which key, what is wrong.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    public var file: String
    /// Dotted path of the key, for example `games.1.home`; empty for the whole file.
    public var key: String
    public var problem: String

    public var description: String {
        key.isEmpty ? "\(file): \(problem)" : "\(file): \(key): \(problem)"
    }
}

extension DaemonConfiguration {
    /// Reads and checks a config file. `serverCertificate` replaces `security.server_certificate`
    /// (courtsided's `--server-certificate`, which systemd's LoadCredential= fills).
    public static func load(path: String, serverCertificate: String? = nil) throws(ConfigurationError) -> DaemonConfiguration {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigurationError(file: path, key: "", problem: "cannot read the file (\(error.localizedDescription))")
        }
        return try parse(text, file: path, serverCertificate: serverCertificate)
    }

    /// Parses config text; `file` names it in errors.
    public static func parse(_ text: String, file: String, serverCertificate: String? = nil) throws(ConfigurationError)
        -> DaemonConfiguration
    {
        let raw: RawConfiguration
        do {
            // What YAMLDecoder.decode(_:from: String) does, in two steps so that the tree is checked
            // before Yams decodes it (same resolver: only merge keys are resolved).
            let parser = try Yams.Parser(yaml: text, resolver: Yams.Resolver.basic.appending(.merge))
            let node = try parser.singleRoot() ?? ""
            try YAMLTreeCheck.check(node, file: file)
            // Yams ignores keys no type reads: refuse them first, so that a typo is never silent.
            try ConfigurationKeys.file.check(node, file: file)
            raw = try withExtendedLifetime(parser) { try YAMLDecoder().decode(RawConfiguration.self, from: node) }
        } catch let error as ConfigurationError {
            throw error
        } catch let error as DecodingError {
            throw ConfigurationError(decoding: error, file: file)
        } catch {
            throw ConfigurationError(file: file, key: "", problem: "not valid YAML: \(error)")
        }
        return try raw.checked(file: file, serverCertificate: serverCertificate)
    }
}

extension ConfigurationError {
    init(decoding error: DecodingError, file: String) {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(file: file, key: path(context.codingPath + [key]), problem: "is required but missing")
        case .typeMismatch(let type, let context):
            self.init(file: file, key: path(context.codingPath), problem: "should be \(Self.describe(type))")
        case .valueNotFound(let type, let context):
            self.init(file: file, key: path(context.codingPath), problem: "should be \(Self.describe(type)), found nothing")
        case .dataCorrupted(let context):
            if let syntax = context.underlyingError {
                // Yams reports YAML syntax errors here, with the line and column.
                self.init(file: file, key: path(context.codingPath), problem: "not valid YAML: \(syntax)")
            } else {
                self.init(file: file, key: path(context.codingPath), problem: context.debugDescription)
            }
        @unknown default:
            self.init(file: file, key: "", problem: "\(error)")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        let name = "\(type)"
        if type == String.self { return "a string" }
        if type == Int.self || type == Int32.self || type == Int64.self { return "a whole number" }
        if name.hasPrefix("Array") || name.contains("Sequence") { return "a list" }
        if name.hasPrefix("Dictionary") { return "a mapping" }
        return "a \(name)"
    }
}

/// A `rules:` value: a preset's name, or fields laid over a preset (`inherits:`, default
/// pickup-15w2).
enum RuleSpec: Decodable {
    case preset(String)
    case overlay(inherits: String?, RuleOverlay)

    enum CodingKeys: String, CodingKey, CaseIterable { case inherits }

    init(from decoder: any Decoder) throws {
        if let name = try? decoder.singleValueContainer().decode(String.self) {
            self = .preset(name)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self = .overlay(inherits: try container.decodeIfPresent(String.self, forKey: .inherits), try RuleOverlay(from: decoder))
    }

    /// The rule set, or nil with the reason when a preset is unknown.
    func resolve(_ presets: [String: RuleSet]) -> (rules: RuleSet?, problem: String?) {
        switch self {
        case .preset(let name):
            guard let rules = presets[name] else { return (nil, Self.unknown(name, presets)) }
            return (rules, nil)
        case .overlay(let inherits, let overlay):
            let base = inherits ?? "pickup-15w2"
            guard let rules = presets[base] else { return (nil, Self.unknown(base, presets)) }
            return (overlay.applied(to: rules), nil)
        }
    }

    static func unknown(_ name: String, _ presets: [String: RuleSet]) -> String {
        "unknown preset \"\(name)\" (known: \(presets.keys.sorted().joined(separator: ", ")))"
    }
}

/// The file as written: snake_case keys, optional sections, teams and games by id.
struct RawConfiguration: Decodable {
    struct Endpoints: Decodable {
        var command: String?
        var events: String?
        var advertise: String?

        enum CodingKeys: String, CodingKey, CaseIterable { case command, events, advertise }
    }

    struct Transport: Decodable {
        var eventHighWaterMark: Int32?
        var commandHighWaterMark: Int32?
        var lingerMs: Int32?
        var heartbeatMs: Int?
        var tournamentReadsMbPerS: Double?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case eventHighWaterMark = "event_high_water_mark"
            case commandHighWaterMark = "command_high_water_mark"
            case lingerMs = "linger_ms"
            case heartbeatMs = "heartbeat_ms"
            case tournamentReadsMbPerS = "tournament_reads_mb_per_s"
        }
    }

    struct RawPreset: Decodable {
        var name: String
        var inherits: String?
        var overlay: RuleOverlay

        enum CodingKeys: String, CodingKey, CaseIterable { case name, inherits }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            inherits = try container.decodeIfPresent(String.self, forKey: .inherits)
            overlay = try RuleOverlay(from: decoder)
        }
    }

    struct RawGame: Decodable {
        var id: String
        var home: Slot
        var away: Slot
        var court: String?
        var group: String?
        var start: String?
        var rules: RuleSpec?
        var division: String?
        var playedIf: PlayCondition?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, home, away, court, group, start, rules, division
            case playedIf = "played_if"
        }
    }

    struct RawRound: Decodable {
        var name: String
        var games: [RawGame]

        enum CodingKeys: String, CodingKey, CaseIterable { case name, games }
    }

    struct RawSecurity: Decodable {
        var serverCertificate: String
        var anonymous: String?
        var clients: [RawClient]?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case anonymous, clients
            case serverCertificate = "server_certificate"
        }
    }

    struct RawClient: Decodable {
        var name: String
        var certificate: String?
        var publicKey: String?
        var role: String
        var courts: [String]?
        var games: [String]?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case name, certificate, role, courts, games
            case publicKey = "public_key"
        }
    }

    var tournament: String?
    var dataDir: String?
    var storage: RawStorage?
    var endpoints: Endpoints?
    var transport: Transport?
    var security: RawSecurity?
    var rules: RuleSpec?
    var presets: [RawPreset]?
    var tieBreakers: [TieBreaker]?
    var courts: [String]?
    /// None: a tournament waiting for its draw (`courtside tournament publish`).
    var teams: [Team]?
    var groups: [Group]?
    var rounds: [RawRound]?
    var games: [RawGame]?
    var inactivePlayers: [PlayerID]?
    var divisions: [Division]?
    var seeds: [TeamID: Int]?
    var timing: DayTiming?
    var withdrawn: [TeamID]?
    var swissByes: [String: [TeamID]]?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case tournament, endpoints, transport, security, rules, presets, courts, teams, groups, rounds, games, storage
        case divisions, seeds, timing, withdrawn
        case swissByes = "swiss_byes"
        case dataDir = "data_dir"
        case tieBreakers = "tie_breakers"
        case inactivePlayers = "inactive_players"
    }

    func checked(file: String, serverCertificate: String?) throws(ConfigurationError) -> DaemonConfiguration {
        func fail(_ key: String, _ problem: String) -> ConfigurationError {
            ConfigurationError(file: file, key: key, problem: problem)
        }
        /// Every text the tournament stores is held to the model's ``TextRule``.
        func checkText(_ text: String?, _ key: String, as kind: TextRule.Kind = .line) throws(ConfigurationError) {
            if let text, let problem = TextRule.problem(text, as: kind) { throw fail(key, problem) }
        }
        func resolved(_ spec: RuleSpec?, _ key: String, _ presets: [String: RuleSet], default base: RuleSet)
            throws(ConfigurationError) -> RuleSet
        {
            guard let spec else { return base }
            let (rules, problem) = spec.resolve(presets)
            guard let rules else { throw fail(key, problem ?? "unusable rules") }
            if let problem = rules.problem { throw fail(key, problem) }
            try checkText(rules.preset, "\(key).preset")
            return rules
        }
        try checkText(tournament, "tournament")
        var presets = RulePresets.builtIn
        for (index, preset) in (self.presets ?? []).enumerated() {
            try checkText(preset.name, "presets.\(index).name")
            let base = preset.inherits ?? "pickup-15w2"
            guard let inherited = presets[base] else {
                throw fail("presets.\(index).inherits", RuleSpec.unknown(base, presets))
            }
            var rules = preset.overlay.applied(to: inherited)
            rules.preset = preset.name
            if let problem = rules.problem { throw fail("presets.\(index)", problem) }
            presets[preset.name] = rules
        }
        let rules = try resolved(self.rules, "rules", presets, default: .standard)
        var teams: [TeamID: Team] = [:]
        var playerTeams: [PlayerID: TeamID] = [:]
        for (index, team) in (self.teams ?? []).enumerated() {
            if team.id.rawValue.isEmpty { throw fail("teams.\(index).id", "must not be empty") }
            try checkText(team.id.rawValue, "teams.\(index).id")
            try checkText(team.name, "teams.\(index).name")
            if teams[team.id] != nil { throw fail("teams.\(index).id", "team \(team.id) is defined twice") }
            if team.players.isEmpty { throw fail("teams.\(index).players", "team \(team.id) has no players") }
            for (number, player) in team.players.enumerated() {
                try checkText(player.id.rawValue, "teams.\(index).players.\(number).id")
                try checkText(player.name, "teams.\(index).players.\(number).name")
                if let other = playerTeams[player.id] {
                    throw fail("teams.\(index).players.\(number).id", "player \(player.id) is already on team \(other)")
                }
                playerTeams[player.id] = team.id
            }
            teams[team.id] = team
        }
        var games: [ScheduledGame] = []
        var roundNames: [String] = []
        var sections: [(key: String, round: String?, games: [RawGame])] = [("games", nil, self.games ?? [])]
        for (index, court) in (courts ?? []).enumerated() { try checkText(court, "courts.\(index)") }
        for (index, group) in (groups ?? []).enumerated() {
            try checkText(group.id, "groups.\(index).id")
            try checkText(group.name, "groups.\(index).name")
        }
        for (index, division) in (divisions ?? []).enumerated() {
            try checkText(division.id, "divisions.\(index).id")
            try checkText(division.name, "divisions.\(index).name")
        }
        for (team, seed) in seeds ?? [:] {
            if teams[team] == nil { throw fail("seeds.\(team)", "unknown team \"\(team)\"") }
            if seed < 1 { throw fail("seeds.\(team)", "a seed is 1 (the best) or more") }
        }
        for (index, round) in (self.rounds ?? []).enumerated() {
            try checkText(round.name, "rounds.\(index).name")
            sections.append(("rounds.\(index).games", round.name, round.games))
            roundNames.append(round.name)
        }
        for section in sections {
            for (index, game) in section.games.enumerated() {
                let key = "\(section.key).\(index)"
                if let problem = GameSetup.problem(withID: game.id) { throw fail("\(key).id", problem) }
                if games.contains(where: { $0.id.rawValue == game.id }) {
                    throw fail("\(key).id", "game \(game.id) is defined twice")
                }
                try checkText(game.court, "\(key).court")
                try checkText(game.group, "\(key).group")
                try checkText(game.division, "\(key).division")
                try checkText(game.start, "\(key).start", as: .time)
                for (side, slot) in [("home", game.home), ("away", game.away)] {
                    if case .team(let team) = slot, teams[team] == nil {
                        throw fail("\(key).\(side)", "unknown team \"\(team)\"")
                    }
                }
                games.append(
                    ScheduledGame(
                        id: GameID(game.id), home: game.home, away: game.away, court: game.court, group: game.group,
                        round: section.round, start: game.start,
                        rules: try resolved(game.rules, "\(key).rules", presets, default: rules), division: game.division,
                        playedIf: game.playedIf))
            }
        }
        var schedule = Schedule(
            teams: teams, courts: courts ?? [], groups: groups ?? [], rounds: roundNames, games: games,
            tieBreakers: tieBreakers ?? [.headToHead, .pointDifference, .pointsScored],
            inactivePlayers: Set(inactivePlayers ?? []))
        schedule.seeds = seeds ?? [:]
        if let timing, let problem = timing.problem { throw fail("timing", problem) }
        schedule.timing = timing
        for (index, team) in (withdrawn ?? []).enumerated() where teams[team] == nil {
            throw fail("withdrawn.\(index)", "unknown team \"\(team)\"")
        }
        schedule.withdrawn = Set(withdrawn ?? [])
        for (group, byes) in (swissByes ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let members = groups?.first(where: { $0.id == group })?.teams else {
                throw fail("swiss_byes.\(group)", "unknown group \"\(group)\"")
            }
            for (index, team) in byes.enumerated() where !members.contains(team) {
                throw fail("swiss_byes.\(group).\(index)", "team \"\(team)\" is not in group \(group)")
            }
        }
        schedule.swissByes = swissByes ?? [:]
        schedule.divisions = divisions ?? []
        // A group or game names its division only where its teams and slots do not tell.
        schedule = schedule.assigningDivisions()
        if let problem = schedule.problem { throw fail("games", problem) }
        for (index, player) in (inactivePlayers ?? []).enumerated() where schedule.players[player] == nil {
            throw fail("inactive_players.\(index)", "no team has a player \(player)")
        }
        for (key, endpoint) in [("endpoints.command", endpoints?.command), ("endpoints.events", endpoints?.events)] {
            if let endpoint, let problem = DaemonConfiguration.endpointProblem(endpoint) { throw fail(key, problem) }
        }
        if let command = endpoints?.command, command == endpoints?.events, !command.hasSuffix(":*") {
            throw fail("endpoints.events", "must differ from endpoints.command")
        }
        let heartbeat = transport?.heartbeatMs ?? 500
        guard (10...1000).contains(heartbeat) else {
            throw fail("transport.heartbeat_ms", "must be between 10 and 1000 (a heartbeat at least once a second)")
        }
        for (key, value) in [
            ("event_high_water_mark", transport?.eventHighWaterMark),
            ("command_high_water_mark", transport?.commandHighWaterMark),
        ] {
            if let value, value < 1 { throw fail("transport.\(key)", "must be at least 1") }
        }
        let tournamentReads = transport?.tournamentReadsMbPerS ?? DaemonConfiguration.defaultTournamentReadsMegabytesPerSecond
        guard tournamentReads >= 0, tournamentReads.isFinite else {
            throw fail("transport.tournament_reads_mb_per_s", "must be 0 (no pace) or more")
        }
        // Sockets close at the end of a 2 s shutdown: their linger must leave room for the rest.
        if let linger = transport?.lingerMs, !(0...DaemonConfiguration.maxLingerMilliseconds).contains(linger) {
            throw fail(
                "transport.linger_ms",
                "must be between 0 and \(DaemonConfiguration.maxLingerMilliseconds) (courtsided stops within 2 s, sockets last)")
        }
        let postgresql = try storage?.postgresql.map { raw throws(ConfigurationError) in
            try raw.checked(file: file, folder: (file as NSString).deletingLastPathComponent)
        }
        if let advertise = endpoints?.advertise, !advertise.hasPrefix("tcp://") || DaemonConfiguration.isWildcard(advertise) {
            throw fail("endpoints.advertise", "\"\(advertise)\" is not an endpoint clients can reach (tcp://host:port)")
        }
        return DaemonConfiguration(
            dataDirectory: dataDir ?? DaemonConfiguration.defaultDataDirectory, postgresql: postgresql,
            commandEndpoint: endpoints?.command ?? DaemonConfiguration.defaultCommandEndpoint,
            eventEndpoint: endpoints?.events ?? DaemonConfiguration.defaultEventEndpoint,
            advertisedEndpoint: endpoints?.advertise,
            eventHighWaterMark: transport?.eventHighWaterMark ?? 10_000,
            commandHighWaterMark: transport?.commandHighWaterMark ?? 1_000,
            lingerMilliseconds: transport?.lingerMs ?? 500,
            heartbeatMilliseconds: heartbeat,
            tournamentReadsMegabytesPerSecond: tournamentReads,
            security: try security.map { raw throws(ConfigurationError) in
                try raw.checked(file: file, courts: courts, serverCertificate: serverCertificate)
            },
            tournament: TournamentConfiguration(
                name: tournament ?? "Courtside tournament", rules: rules, presets: presets, schedule: schedule)
        )
    }
}

extension RawConfiguration.RawSecurity {
    func checked(file: String, courts: [String]?, serverCertificate override: String?) throws(ConfigurationError)
        -> SecurityConfiguration
    {
        func fail(_ key: String, _ problem: String) -> ConfigurationError {
            ConfigurationError(file: file, key: "security.\(key)", problem: problem)
        }
        // Paths are relative to the config file's folder, so the file and its keys move together.
        let folder = (file as NSString).deletingLastPathComponent
        func resolve(_ path: String) -> String {
            path.hasPrefix("/") || folder.isEmpty ? path : (folder as NSString).appendingPathComponent(path)
        }
        let serverPath = override ?? resolve(serverCertificate)
        func failServer(_ problem: String) -> ConfigurationError {
            override == nil
                ? fail("server_certificate", problem) : ConfigurationError(file: serverPath, key: "", problem: problem)
        }
        let serverCertificate: ZMQCertificate
        do {
            serverCertificate = try ZMQCertificate.load(path: serverPath)
        } catch {
            throw failServer(error.description)
        }
        guard let serverKeys = serverCertificate.keyPair else {
            throw failServer("\(serverPath) is a public certificate; the daemon needs its secret one (NAME.key_secret)")
        }
        let anonymousDisplays: Bool
        switch anonymous ?? "none" {
        case "none": anonymousDisplays = false
        case "display": anonymousDisplays = true
        case let other: throw fail("anonymous", "must be display or none, not \"\(other)\"")
        }
        var clients: [ClientKey] = []
        for (index, raw) in (self.clients ?? []).enumerated() {
            let key = "clients.\(index)"
            if raw.name.isEmpty || raw.name.contains("/") || raw.name.contains(where: \.isNewline) {
                throw fail("\(key).name", "must be a non-empty name without / or line breaks")
            }
            if raw.name == SecurityConfiguration.anonymousName {
                throw fail("\(key).name", "anonymous is the name of keys accepted through `anonymous: display`")
            }
            if clients.contains(where: { $0.name == raw.name }) { throw fail("\(key).name", "\(raw.name) is listed twice") }
            guard let role = ClientRole(rawValue: raw.role) else {
                throw fail("\(key).role", "must be organiser, keeper or display, not \"\(raw.role)\"")
            }
            let publicKey: CurveKey
            switch (raw.certificate, raw.publicKey) {
            case (let path?, nil):
                do {
                    publicKey = try ZMQCertificate.load(path: resolve(path)).publicKey
                } catch {
                    throw fail("\(key).certificate", error.description)
                }
            case (nil, let text?):
                guard let parsed = CurveKey(z85: text) else {
                    throw fail("\(key).public_key", "must be a 40-character Z85 public key (courtside keys show FILE prints one)")
                }
                publicKey = parsed
            default:
                throw fail(key, "needs exactly one of certificate (a file) or public_key (40 Z85 characters)")
            }
            if let other = clients.first(where: { $0.publicKey == publicKey }) {
                throw fail(key, "has the same key as \(other.name); each client needs its own")
            }
            let games = (raw.games ?? []).map { GameID($0) }
            let ownCourts = raw.courts ?? []
            if role == .keeper {
                if ownCourts.isEmpty && games.isEmpty {
                    throw fail(key, "a keeper needs courts or games to keep score in")
                }
                if let courts, !courts.isEmpty, let unknown = ownCourts.first(where: { !courts.contains($0) }) {
                    throw fail("\(key).courts", "unknown court \"\(unknown)\" (courts: \(courts.joined(separator: ", ")))")
                }
            } else if !ownCourts.isEmpty || !games.isEmpty {
                throw fail(key, "courts and games are for keepers; a \(role.rawValue) may act in every game it is allowed to")
            }
            clients.append(ClientKey(name: raw.name, publicKey: publicKey, role: role, courts: ownCourts, games: games))
        }
        return SecurityConfiguration(
            serverCertificatePath: serverPath, serverKeys: serverKeys, anonymousDisplays: anonymousDisplays, clients: clients)
    }
}
