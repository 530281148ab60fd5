import CourtsideModel
import Yams

/// The keys each level of the config file knows, refused otherwise before Yams decodes it: Yams
/// ignores a key no type reads, so a typo such as `tiebreakers:` would silently change the
/// standings' order.
///
/// Each level's keys are the `CodingKeys` its decoding uses, so a key added there is known here
/// too; only a new nested level needs a line in ``file``.
indirect enum ConfigurationKeys: Sendable {
    /// A scalar or a list of scalars: nothing below it has keys.
    case value
    /// A mapping's known keys, each with the level of its value.
    case mapping([String: ConfigurationKeys])
    /// A list whose elements are all of one level.
    case list(ConfigurationKeys)

    /// The whole file.
    static let file: ConfigurationKeys = {
        typealias Raw = RawConfiguration
        let ruleFields = keys(
            RuleSet.CodingKeys.self,
            [.timeLimit: keys(TimeLimit.CodingKeys.self), .teamFouls: keys(TeamFoulRules.CodingKeys.self)])
        // A rules value is a preset's name (a scalar) or fields laid over one.
        let rules = keys(RuleSpec.CodingKeys.self).adding(ruleFields)
        // A slot is a team id (a scalar) or one of the slot objects.
        let slot = keys(Slot.CodingKeys.self)
        let game = keys(Raw.RawGame.CodingKeys.self, [.home: slot, .away: slot, .rules: rules])
        return keys(
            Raw.CodingKeys.self,
            [
                .endpoints: keys(Raw.Endpoints.CodingKeys.self),
                .transport: keys(Raw.Transport.CodingKeys.self),
                .security: keys(Raw.RawSecurity.CodingKeys.self, [.clients: .list(keys(Raw.RawClient.CodingKeys.self))]),
                .storage: keys(Raw.RawStorage.CodingKeys.self, [.postgresql: keys(Raw.RawPostgres.CodingKeys.self)]),
                .rules: rules,
                .presets: .list(keys(Raw.RawPreset.CodingKeys.self).adding(ruleFields)),
                .teams: .list(keys(Team.CodingKeys.self, [.players: .list(keys(Player.CodingKeys.self))])),
                .groups: .list(keys(Group.CodingKeys.self)),
                .rounds: .list(keys(Raw.RawRound.CodingKeys.self, [.games: .list(game)])),
                .games: .list(game),
                .divisions: .list(keys(Division.CodingKeys.self)),
            ])
    }()

    /// A mapping of every key in `Key`; those in `levels` have levels of their own.
    static func keys<Key: CodingKey & CaseIterable & Hashable>(_: Key.Type, _ levels: [Key: ConfigurationKeys] = [:])
        -> ConfigurationKeys
    {
        .mapping(Dictionary(uniqueKeysWithValues: Key.allCases.map { ($0.stringValue, levels[$0] ?? .value) }))
    }

    /// The keys of two mappings together (a preset's own keys and the rule fields it sets).
    func adding(_ other: ConfigurationKeys) -> ConfigurationKeys {
        guard case .mapping(let own) = self, case .mapping(let more) = other else { return self }
        return .mapping(own.merging(more) { mine, _ in mine })
    }

    /// Throws for the first key of `root` this level does not know, with its path (`games.0.hme`)
    /// and the nearest known key when one is close.
    ///
    /// Values of the wrong kind (a scalar for a mapping) are left to the decoder, which names them.
    func check(_ root: Yams.Node, file: String) throws(ConfigurationError) {
        // The tree passed YAMLTreeCheck, so it is small; iterative all the same, as merges may nest.
        var pending: [(node: Yams.Node, level: ConfigurationKeys, path: String)] = [(root, self, "")]
        func path(_ parent: String, _ key: String) -> String { parent.isEmpty ? key : "\(parent).\(key)" }
        while let (node, level, parent) = pending.popLast() {
            switch (level, node) {
            case (.list(let element), .sequence(let sequence)):
                for (index, item) in sequence.enumerated() { pending.append((item, element, path(parent, String(index)))) }
            case (.mapping(let known), .mapping(let mapping)):
                for (key, value) in Self.pairs(mapping) {
                    let name = key.string ?? "\(key)"
                    guard let below = known[name] else {
                        throw ConfigurationError(file: file, key: path(parent, name), problem: Self.unknown(name, known.keys))
                    }
                    pending.append((value, below, path(parent, name)))
                }
            default:
                break
            }
        }
    }

    /// A mapping's pairs with those of its merge keys (`<<: *defaults`), which Yams' decoder
    /// folds into it.
    private static func pairs(_ mapping: Yams.Node.Mapping) -> [(key: Yams.Node, value: Yams.Node)] {
        var pairs: [(key: Yams.Node, value: Yams.Node)] = []
        var pending = [mapping]
        while let mapping = pending.popLast() {
            for pair in mapping {
                guard pair.key.tag.description == Yams.Tag.Name.merge.rawValue else {
                    pairs.append(pair)
                    continue
                }
                switch pair.value {
                case .mapping(let merged): pending.append(merged)
                case .sequence(let merged): pending += merged.compactMap(\.mapping)
                default: break
                }
            }
        }
        return pairs
    }

    static func unknown(_ key: String, _ known: some Collection<String>) -> String {
        if let nearest = nearest(to: key, among: known) { return "unknown key; did you mean \(nearest)?" }
        return "unknown key (known here: \(known.sorted().joined(separator: ", ")))"
    }

    /// The known key fewest edits away from `key` when at most a third of it differs (at least
    /// one edit, at most three), or else one it begins (`heartbeat` for `heartbeat_ms`): further
    /// away, a guess would mislead more than help.
    static func nearest(to key: String, among known: some Collection<String>) -> String? {
        let limit = min(3, max(1, key.count / 3))
        let typed = key.lowercased()
        return known.map { (key: $0, distance: editDistance(Array(typed), Array($0))) }
            .filter { $0.distance <= limit || (typed.count >= 4 && $0.key.hasPrefix(typed)) }
            .min { ($0.distance, $0.key) < ($1.distance, $1.key) }?.key
    }

    /// Edits (insert, delete, replace, swap two neighbours) from `a` to `b`: the optimal string
    /// alignment distance, so that `rnak` is one edit from `rank`.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        // Three rows of the table: two back for a swap, one back for the rest.
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous) = (previous, current)
        }
        return previous[b.count]
    }
}
