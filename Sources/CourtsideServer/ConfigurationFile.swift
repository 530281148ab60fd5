import CourtsideModel
import Foundation
import Yams

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
            // What YAMLDecoder.decode(_:from: String) does, in steps so that the tree is checked
            // before Yams decodes it. Its resolver resolves merge keys only; YAMLMergeKeys does that.
            let parser = try Yams.Parser(yaml: text, resolver: Yams.Resolver.basic)
            guard let composed = try parser.singleRoot() else {
                throw ConfigurationError(file: file, key: "", problem: "the file holds no settings")
            }
            try YAMLTreeCheck.check(composed, file: file)
            let node = YAMLMergeKeys.tagged(composed)
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

/// The file as written: snake_case keys, optional sections, teams and games by id. Each section
/// is read and checked in a file of its own (`Configuration+Endpoints.swift` and so on).
struct RawConfiguration: Decodable {
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
    /// The venue's language ("ja"): what every page speaks unless a device or a gateway asks
    /// for another.
    var language: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case tournament, endpoints, transport, security, rules, presets, courts, teams, groups, rounds, games, storage
        case divisions, seeds, timing, withdrawn, language
        case swissByes = "swiss_byes"
        case dataDir = "data_dir"
        case tieBreakers = "tie_breakers"
        case inactivePlayers = "inactive_players"
    }

    func checked(file: String, serverCertificate: String?) throws(ConfigurationError) -> DaemonConfiguration {
        let tournament = try checkedTournament(file: file)
        let endpoints = try (self.endpoints ?? Endpoints()).checked(file: file)
        let transport = try (self.transport ?? Transport()).checked(file: file)
        let postgresql = try storage?.postgresql.map { raw throws(ConfigurationError) in
            try raw.checked(file: file, folder: (file as NSString).deletingLastPathComponent)
        }
        let security = try self.security.map { raw throws(ConfigurationError) in
            try raw.checked(file: file, courts: courts, serverCertificate: serverCertificate)
        }
        return DaemonConfiguration(
            dataDirectory: dataDir ?? DaemonConfiguration.defaultDataDirectory, postgresql: postgresql,
            commandEndpoint: endpoints.command, eventEndpoint: endpoints.events, advertisedEndpoint: endpoints.advertise,
            eventHighWaterMark: transport.eventHighWaterMark, commandHighWaterMark: transport.commandHighWaterMark,
            lingerMilliseconds: transport.lingerMilliseconds, heartbeatMilliseconds: transport.heartbeatMilliseconds,
            tournamentReadsMegabytesPerSecond: transport.tournamentReadsMegabytesPerSecond, security: security,
            tournament: tournament)
    }
}
