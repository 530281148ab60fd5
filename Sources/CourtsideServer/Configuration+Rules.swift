import CourtsideModel

/// A `rules:` value: a preset's name, or fields laid over a preset (`inherits:`, default
/// ``defaultBase``).
enum RuleSpec: Decodable {
    case preset(String)
    case overlay(inherits: String?, RuleOverlay)

    enum CodingKeys: String, CodingKey, CaseIterable { case inherits }

    /// The preset that fields laid over a preset (a game's `rules:` or one of `presets:`) start
    /// from when they name none: ``RuleSet/standard``'s.
    static let defaultBase = "pickup-15w2"

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
            let base = inherits ?? Self.defaultBase
            guard let rules = presets[base] else { return (nil, Self.unknown(base, presets)) }
            return (overlay.applied(to: rules), nil)
        }
    }

    static func unknown(_ name: String, _ presets: [String: RuleSet]) -> String {
        "unknown preset \"\(name)\" (known: \(presets.keys.sorted().joined(separator: ", ")))"
    }

    /// `spec` resolved against `presets` and checked, or `base` when there is no spec; `key` names
    /// the spec in errors.
    static func resolved(_ spec: RuleSpec?, _ key: String, _ presets: [String: RuleSet], default base: RuleSet, file: String)
        throws(ConfigurationError) -> RuleSet
    {
        guard let spec else { return base }
        let (rules, problem) = spec.resolve(presets)
        guard let rules else { throw ConfigurationError(file: file, key: key, problem: problem ?? "unusable rules") }
        if let problem = rules.problem { throw ConfigurationError(file: file, key: key, problem: problem) }
        try ConfigurationError.checkText(rules.preset, "\(key).preset", file: file)
        return rules
    }
}

extension RawConfiguration {
    /// One of `presets:`, a named rule set laid over another.
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
}

extension RawConfiguration {
    /// The built-in presets and the file's own (`presets:`), by name; each of the file's may
    /// inherit a built-in one or one listed before it.
    func checkedPresets(file: String) throws(ConfigurationError) -> [String: RuleSet] {
        func fail(_ key: String, _ problem: String) -> ConfigurationError {
            ConfigurationError(file: file, key: key, problem: problem)
        }
        var presets = RulePresets.builtIn
        for (index, preset) in (self.presets ?? []).enumerated() {
            try ConfigurationError.checkText(preset.name, "presets.\(index).name", file: file)
            let base = preset.inherits ?? RuleSpec.defaultBase
            guard let inherited = presets[base] else {
                throw fail("presets.\(index).inherits", RuleSpec.unknown(base, presets))
            }
            var rules = preset.overlay.applied(to: inherited)
            rules.preset = preset.name
            if let problem = rules.problem { throw fail("presets.\(index)", problem) }
            presets[preset.name] = rules
        }
        return presets
    }
}
