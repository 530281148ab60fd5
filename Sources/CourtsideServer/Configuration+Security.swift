import CourtsideModel
import Foundation
import ZeroMQ

extension RawConfiguration {
    /// `security:`, CURVE and the allowlist of client keys; SIGHUP reloads it.
    struct RawSecurity: Decodable {
        var serverCertificate: String
        var anonymous: String?
        var clients: [RawClient]?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case anonymous, clients
            case serverCertificate = "server_certificate"
        }
    }

    /// One of `security.clients`.
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
}

extension RawConfiguration.RawSecurity {
    /// The allowlist, its certificate files read, or the key that is wrong. `courts` are the
    /// tournament's, which a keeper's must be among; `override` is `--server-certificate`.
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
