import Foundation

extension RawConfiguration {
    /// `endpoints:`, where the daemon listens and where clients reach it.
    struct Endpoints: Decodable {
        var command: String?
        var events: String?
        var advertise: String?

        enum CodingKeys: String, CodingKey, CaseIterable { case command, events, advertise }

        /// The endpoints, with the defaults for those the file leaves out, or the key that is wrong.
        func checked(file: String) throws(ConfigurationError) -> (command: String, events: String, advertise: String?) {
            func fail(_ key: CodingKeys, _ problem: String) -> ConfigurationError {
                ConfigurationError(file: file, key: "endpoints.\(key.stringValue)", problem: problem)
            }
            for (key, endpoint) in [(CodingKeys.command, command), (.events, events)] {
                if let endpoint, let problem = DaemonConfiguration.endpointProblem(endpoint) { throw fail(key, problem) }
            }
            if let command, command == events, !command.hasSuffix(":*") {
                throw fail(.events, "must differ from endpoints.command")
            }
            if let advertise, !advertise.hasPrefix("tcp://") || DaemonConfiguration.isWildcard(advertise) {
                throw fail(.advertise, "\"\(advertise)\" is not an endpoint clients can reach (tcp://host:port)")
            }
            return (
                command ?? DaemonConfiguration.defaultCommandEndpoint, events ?? DaemonConfiguration.defaultEventEndpoint,
                advertise
            )
        }
    }
}

/// Every endpoint is bound at start: a change waits for a restart.
extension RawConfiguration.Endpoints.CodingKeys: StartOnlyKey {
    func differs(_ a: DaemonConfiguration, _ b: DaemonConfiguration) -> Bool {
        switch self {
        case .command: a.commandEndpoint != b.commandEndpoint
        case .events: a.eventEndpoint != b.eventEndpoint
        case .advertise: a.advertisedEndpoint != b.advertisedEndpoint
        }
    }
}

extension DaemonConfiguration {
    /// The command endpoint when neither the file nor a flag names one: loopback only.
    public static let defaultCommandEndpoint = "tcp://127.0.0.1:5555"
    /// The event endpoint when neither the file nor a flag names one: loopback only.
    public static let defaultEventEndpoint = "tcp://127.0.0.1:5556"

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

    /// Whether `endpoint` binds every interface (`*`, `0.0.0.0`, `[::]`): not an address a
    /// client can connect to.
    static func isWildcard(_ endpoint: String) -> Bool {
        endpoint.contains("*") || endpoint.contains("0.0.0.0") || endpoint.contains("[::]")
    }

    /// Whether an endpoint can only be reached from this machine.
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
