import CourtsideLocalization
import Foundation

/// The desk pages' words in the request's language: each page binds its plain words (those with
/// no placeholder) from ``table(_:)`` as `{{t.name}}`, and its other words from fields its view
/// model fills. Every desk page also carries the language picker and its `<html lang>`.
enum DeskWords {
    /// The desk's keys without a placeholder, named as the templates read them: `desk.nav.teams`
    /// is `t.nav_teams`.
    static func table(_ words: Words) -> [String: String] {
        Dictionary(uniqueKeysWithValues: keys.map { ($0.name, words($0.key)) })
    }

    /// Made once: the desk's keys and their names in the templates.
    private static let keys: [(key: MessageKey, name: String)] = MessageKey.allCases.compactMap { key in
        guard key.rawValue.hasPrefix("desk.") else { return nil }
        return (key, key.rawValue.dropFirst("desk.".count).replacingOccurrences(of: ".", with: "_"))
    }
}
