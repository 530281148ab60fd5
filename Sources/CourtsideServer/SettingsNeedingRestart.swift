// Which settings wait for a restart, by key: the keys are the file's own `CodingKeys` (which
// `ConfigurationKeys` knows too), so no key is listed twice, and each switch has no default, so
// a new key has to say which it is.

extension RawConfiguration.CodingKeys {
    /// The keys at or under this one whose settings differ between `a` and `b` and wait for a
    /// restart; SIGHUP applies the others. A switch without a default, so that a new key has to
    /// say which it is.
    func settingsNeedingRestart(_ a: DaemonConfiguration, _ b: DaemonConfiguration) -> [String] {
        switch self {
        case .dataDir: a.dataDirectory != b.dataDirectory ? [stringValue] : []
        case .storage: a.postgresql != b.postgresql ? [stringValue] : []
        case .endpoints: changed(RawConfiguration.Endpoints.CodingKeys.self, a, b)
        case .transport: changed(RawConfiguration.Transport.CodingKeys.self, a, b)
        // The allowlist and the tournament: what SIGHUP reloads.
        case .security, .tournament, .rules, .presets, .courts, .teams, .groups, .rounds, .games, .divisions, .seeds,
            .timing, .withdrawn, .swissByes, .tieBreakers, .inactivePlayers, .language:
            []
        }
    }

    private func changed<Key: StartOnlyKey>(_: Key.Type, _ a: DaemonConfiguration, _ b: DaemonConfiguration) -> [String] {
        Key.allCases.filter { $0.differs(a, b) }.map { "\(stringValue).\($0.stringValue)" }
    }
}

/// A key of a section that is read only at start: whether its setting differs between two
/// configurations.
protocol StartOnlyKey: CodingKey, CaseIterable {
    func differs(_ a: DaemonConfiguration, _ b: DaemonConfiguration) -> Bool
}
