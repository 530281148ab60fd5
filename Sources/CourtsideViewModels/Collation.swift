public import CourtsideLocalization
public import Foundation

/// How a language sorts names: by its own collation (CLDR's, through Foundation's locale-aware
/// comparison), so a table of Japanese names reads in the order a Japanese reader expects
/// (kana as one alphabet, whatever their script) and a full-width "Ａ" sorts with "a", not after "z".
public struct Collation: Sendable {
    /// The locale whose collation sorts: the language's.
    public let locale: Locale

    /// The collation of `language`.
    public init(_ language: Language) { locale = Locale(identifier: language.code) }

    /// The order of two names: case, width and digits compared as a reader would
    /// (`localizedStandardCompare`'s options), by the language's collation.
    public func compare(_ first: String, _ second: String) -> ComparisonResult {
        first.compare(
            second, options: [.caseInsensitive, .numeric, .widthInsensitive],
            range: first.startIndex..<first.endIndex, locale: locale)
    }

    /// `names` in the language's order.
    public func sorted(_ names: [String]) -> [String] { names.sorted { compare($0, $1) == .orderedAscending } }
}
