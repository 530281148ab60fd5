/// A language the pages can speak, named by its BCP 47 primary subtag ("en", "ja", "ko"): the
/// name of its catalog and what `<html lang>` says.
public struct Language: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The primary subtag, lower case.
    public let code: String

    /// The language every page falls back to, and whose catalog holds every key.
    public static let english = Language(primary: "en")

    /// The language a tag names ("ja", "ja-JP", "KO_kr"), or nil when the tag is not one (empty,
    /// `*`, or not letters). Only the primary subtag counts: a catalog is per language, not region.
    public init?(tag: some StringProtocol) {
        let primary = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        guard (2...3).contains(primary.count), primary.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        code = primary
    }

    private init(primary: String) { code = primary }

    public var description: String { code }

    public static func < (lhs: Language, rhs: Language) -> Bool { lhs.code < rhs.code }
}
