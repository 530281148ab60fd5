/// One language's messages, read from its `.po` file: a key's text, or its plural forms.
public struct Catalog: Sendable {
    public let language: Language
    public let plurals: PluralRule
    let entries: [String: POFile.Entry]

    /// Why a catalog cannot be used.
    public struct LoadError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The catalog `text` holds for `language`: its header must name the language and declare
    /// as many plural forms as CLDR's rule for it, and each plural entry must have them all.
    public init(_ language: Language, po text: String) throws(LoadError) {
        let file: POFile
        do { file = try POFile(text) } catch { throw LoadError(description: "\(language).po: \(error)") }
        guard file.header["Language"].flatMap({ Language(tag: $0) }) == language else {
            throw LoadError(description: "\(language).po: its header names language \(file.header["Language"] ?? "none")")
        }
        guard let rule = PluralRule(language) else {
            throw LoadError(description: "\(language).po: no CLDR plural rule is known for \(language)")
        }
        guard file.pluralForms == rule.forms else {
            throw LoadError(
                description: "\(language).po: Plural-Forms declares \(file.pluralForms ?? 0) forms; CLDR's rule has \(rule.forms)"
            )
        }
        for entry in file.entries.values where entry.pluralID != nil && entry.forms.count != rule.forms {
            throw LoadError(description: "\(language).po: \(entry.id) has \(entry.forms.count) forms, not \(rule.forms)")
        }
        (self.language, plurals, entries) = (language, rule, file.entries)
    }

    /// The key's text, its first form for a plural key; nil when the catalog lacks it.
    public func text(_ key: MessageKey) -> String? { entries[key.rawValue]?.forms.first }

    /// The key's form for `count` by the language's plural rule; nil when the catalog lacks it.
    public func text(_ key: MessageKey, count: Int) -> String? {
        guard let forms = entries[key.rawValue]?.forms else { return nil }
        return forms[min(plurals.form(for: count), forms.count - 1)]
    }

    /// Whether the catalog has the key.
    public func has(_ key: MessageKey) -> Bool { entries[key.rawValue] != nil }
}
