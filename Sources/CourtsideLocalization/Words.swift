import Foundation

/// The words of one language, as a page asks for them: a key's text with its placeholders filled
/// (`{team}`, anywhere the translation puts them), its plural form for a count by CLDR's rule,
/// and numbers as the language writes them. A key the language's catalog lacks is taken from
/// English and counted (``Catalogs/missing``): a page never shows a raw key.
public struct Words: Sendable {
    public let language: Language
    let catalog: Catalog?
    let english: Catalog
    /// Made once: a board words a count for every event, in every language a page follows.
    private let numbers: IntegerFormatStyle<Int>

    /// English: the default of every page not asked otherwise.
    public static let english = Words(.english)

    /// Each shipped language's words, made once: a request's language is chosen for every request
    /// (a keeper's POSTs too), and making them anew built a locale and a number format each time.
    private static let shipped = Dictionary(uniqueKeysWithValues: Catalogs.shipped.keys.map { ($0, Words($0)) })

    /// The words of `language`, shared; English ones where Courtside ships no catalog for it.
    public static func of(_ language: Language) -> Words { shipped[language] ?? english }

    /// The words of `language`; English ones where Courtside ships no catalog for it.
    public init(_ language: Language) {
        english = Catalogs.shipped[.english]!
        catalog = Catalogs.shipped[language]
        self.language = catalog == nil ? .english : language
        numbers = .number.locale(Locale(identifier: self.language.code))
    }

    /// The words of `catalog` itself, for a catalog read from elsewhere (a test's, a translator's draft).
    public init(catalog: Catalog) {
        (self.catalog, language, english) = (catalog, catalog.language, Catalogs.shipped[.english]!)
        numbers = .number.locale(Locale(identifier: catalog.language.code))
    }

    /// The key's text with `values` put in for its placeholders.
    public func callAsFunction(_ key: MessageKey, _ values: [String: String] = [:]) -> String {
        Self.fill(lookUp(key) { $0.text(key) }, values)
    }

    /// The key's form for `count` (CLDR's plural rule of the language), `{count}` written as the
    /// language writes numbers, and `values` put in for the other placeholders.
    public func plural(_ key: MessageKey, count: Int, _ values: [String: String] = [:]) -> String {
        var values = values
        values["count"] = number(count)
        return Self.fill(lookUp(key) { $0.text(key, count: count) }, values)
    }

    /// A whole number as the language writes it ("1,234" in English, Japanese and Korean alike).
    public func number(_ value: Int) -> String {
        value.formatted(numbers)
    }

    /// The text `key` splits around its placeholder `name`: what goes before and after a value
    /// the page marks up itself (a link, a bold address), in whatever order the language puts them.
    public func around(_ key: MessageKey, placeholder name: String, _ values: [String: String] = [:]) -> (String, String) {
        let text = callAsFunction(key, values.filter { $0.key != name })
        guard let range = text.range(of: "{\(name)}") else { return (text, "") }
        return (String(text[..<range.lowerBound]), String(text[range.upperBound...]))
    }

    private func lookUp(_ key: MessageKey, _ text: (Catalog) -> String?) -> String {
        if let catalog, let found = text(catalog) { return found }
        if catalog != nil { Catalogs.countMissing(key, in: language) }
        // English holds every key (a test checks it); the key itself only if that test failed.
        return text(english) ?? key.rawValue
    }

    /// `text` with each `{name}` that `values` names replaced; any other brace is kept as written.
    static func fill(_ text: String, _ values: [String: String]) -> String {
        guard !values.isEmpty, text.contains("{") else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}"), let value = values[String(rest[rest.index(after: open)..<close])]
            else {
                result.append("{")
                rest = rest[rest.index(after: open)...]
                continue
            }
            result += value
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}
