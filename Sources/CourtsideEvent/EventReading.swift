import Yams

extension EventDescription {
    /// The event described by `yaml` (an event file's text), as `courtside tournament plan` and
    /// the desk's Setup page read it. Throws ``CourtsideError/Code/invalidEvent`` with the path
    /// of what is wrong: a key no level knows (with the known ones), a key missing, a value of
    /// the wrong kind.
    public init(yaml: String) throws(EventError) {
        // Yams ignores a key no type reads: a typo (`game_minute`, `third_places`) would
        // silently change the day, so every mapping's keys are checked first.
        if let node = try? Yams.compose(yaml: yaml), let unknown = Self.unknownKey(in: node) {
            throw EventError(.invalidEvent, unknown)
        }
        do {
            self = try YAMLDecoder().decode(EventDescription.self, from: yaml)
        } catch let DecodingError.keyNotFound(key, context) {
            throw EventError(.invalidEvent, "\(Self.path(context.codingPath + [key])): missing")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context),
            let DecodingError.dataCorrupted(context)
        {
            throw EventError(.invalidEvent, "\(Self.path(context.codingPath)): \(context.debugDescription)")
        } catch {
            throw EventError(.invalidEvent, "\(error)")
        }
    }

    /// The first key of the event file that no level knows, with its path and the known
    /// ones; nil when every key is known.
    static func unknownKey(in root: Yams.Node) -> String? {
        func names<Key: CodingKey & CaseIterable>(_: Key.Type) -> [String] { Key.allCases.map(\.stringValue) }
        func check(_ node: Yams.Node?, _ known: [String], _ path: String) -> String? {
            guard let mapping = node?.mapping else { return nil }
            for key in mapping.keys.compactMap(\.string) where !known.contains(key) {
                return
                    "\(path.isEmpty ? "" : path + ".")\(key): unknown key (known here: \(known.sorted().joined(separator: ", ")))"
            }
            return nil
        }
        if let found = check(root, names(EventDescription.CodingKeys.self), "") { return found }
        for (index, court) in (root["courts"]?.sequence ?? []).enumerated() {
            if let found = check(court, names(CourtDescription.CodingKeys.self), "courts.\(index)") { return found }
        }
        for (index, division) in (root["divisions"]?.sequence ?? []).enumerated() {
            let path = "divisions.\(index)"
            if let found = check(division, names(DivisionDescription.CodingKeys.self), path) { return found }
            if let found = check(division["format"], names(FormatDescription.CodingKeys.self), "\(path).format") {
                return found
            }
            for (number, team) in (division["teams"]?.sequence ?? []).enumerated() {
                if let found = check(team, names(ListedTeam.CodingKeys.self), "\(path).teams.\(number)") { return found }
            }
        }
        return nil
    }

    /// A coding path as the event file's keys: `divisions.1.format.pools`.
    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}
