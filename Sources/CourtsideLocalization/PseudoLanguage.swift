/// A pseudo-language, for testers and translators: every English text marked `⟦…⟧`, its letters
/// accented and about 40% longer, its `{placeholders}` kept. A page in it shows at a glance the
/// words that came from no catalog (unmarked: written in code or a template) and the places where
/// a longer language would not fit (a cut-off `⟧`). It is never offered to a browser.
extension Catalog {
    /// The pseudo-language's code: `qps`, from the range BCP 47 reserves for private use.
    public static let pseudoLanguage = Language(tag: "qps")!

    /// The pseudo-language of `source` (English by default): each of its texts ``pseudo(_:)``.
    public static func pseudo(of source: Catalog = Catalogs.shipped[.english]!) -> Catalog {
        var entries = source.entries
        for (key, entry) in entries { entries[key]?.forms = entry.forms.map(pseudo) }
        return Catalog(language: pseudoLanguage, plurals: source.plurals, entries: entries)
    }

    /// `text` marked, accented and lengthened; what lies in braces stays as it is, since the
    /// page puts a value there.
    public static func pseudo(_ text: String) -> String {
        var out = "⟦"
        var inBraces = false
        var letters = 0
        for character in text {
            if character == "{" { inBraces = true }
            if inBraces {
                out.append(character)
            } else {
                out.append(accented[character] ?? character)
                if character.isLetter { letters += 1 }
            }
            if character == "}" { inBraces = false }
        }
        // 40% more letters, as German or Finnish often take over English.
        out += String(repeating: "·", count: (letters * 2 + 4) / 5)
        return out + "⟧"
    }

    private static let accented: [Character: Character] = [
        "a": "á", "e": "é", "i": "í", "o": "ó", "u": "ú", "c": "ç", "n": "ñ", "y": "ý",
        "A": "Á", "E": "É", "I": "Í", "O": "Ó", "U": "Ú", "C": "Ç", "N": "Ñ", "Y": "Ý",
    ]

    init(language: Language, plurals: PluralRule, entries: [String: POFile.Entry]) {
        (self.language, self.plurals, self.entries) = (language, plurals, entries)
    }
}
