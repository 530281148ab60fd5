/// CLDR's plural categories for whole numbers, per language, in the order gettext numbers a
/// catalog's plural forms (`msgstr[0]`, `msgstr[1]`, ...).
///
/// We keep the rules of the languages we ship in code rather than evaluating each catalog's
/// `Plural-Forms` C expression: CLDR is the reference either way, and a catalog whose header
/// disagrees with its language's rule (its `nplurals`) is refused when it loads.
public enum PluralRule: Sendable {
    /// English and most European languages: "1 foul", "2 fouls" (CLDR: one when i = 1 and v = 0).
    case oneOther
    /// Japanese, Korean, Chinese: one form for every number (CLDR: other only).
    case otherOnly

    /// The rule CLDR gives `language`, or nil for a language we hold no rule for yet.
    public init?(_ language: Language) {
        switch language.code {
        case "en", "de", "nl", "sv", "it", "es", "pt": self = .oneOther
        case "ja", "ko", "zh": self = .otherOnly
        default: return nil
        }
    }

    /// How many forms a catalog of this rule has (its header's `nplurals`).
    public var forms: Int {
        switch self {
        case .oneOther: 2
        case .otherOnly: 1
        }
    }

    /// The index of the form for `count` (its `msgstr[N]`).
    public func form(for count: Int) -> Int {
        switch self {
        case .oneOther: count == 1 ? 0 : 1
        case .otherOnly: 0
        }
    }
}
