import Foundation

/// A gettext `.po` file read into its header and messages: what Poedit, Weblate and `msgfmt`
/// read and write, so translators work in their own tools.
///
/// Written by hand: no package in our list reads `.po` files (swift-gettext and the like are not
/// kept there), and the part we need is small. Read: `#` comments (a `#, fuzzy` flag drops its
/// entry, as gettext does), `msgctxt`, `msgid`, `msgid_plural`, `msgstr` and `msgstr[N]`, each
/// string continued over several quoted lines, with C escapes. An entry with an empty
/// translation is untranslated: left out, so the lookup falls back.
public struct POFile: Sendable {
    /// One translated message: its forms (one, or one per plural form in `msgstr[N]` order).
    public struct Entry: Sendable, Equatable {
        public var id: String
        public var pluralID: String?
        public var forms: [String]
    }

    /// A line the file cannot be read past, named by its number (from 1).
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    /// The header's fields (`Language`, `Plural-Forms`, ...), from the entry whose msgid is empty.
    public var header: [String: String] = [:]
    /// The translated entries by msgid (`msgctxt` joined before it with U+0004, as gettext keys them).
    public var entries: [String: Entry] = [:]

    /// How many plural forms the header declares (`Plural-Forms: nplurals=N; ...`).
    public var pluralForms: Int? {
        guard let field = header["Plural-Forms"], let range = field.range(of: "nplurals=") else { return nil }
        return Int(field[range.upperBound...].prefix { $0.isNumber })
    }

    /// Parses `text`; throws at the first line it cannot read.
    public init(_ text: String) throws(ParseError) {
        var parser = Parser()
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            try parser.read(line.trimmingCharacters(in: .whitespaces.union(.newlines)), line: number)
        }
        parser.finish()
        for entry in parser.done {
            if entry.id.isEmpty {
                header = Self.headerFields(entry.forms.first ?? "")
            } else if !entry.forms.contains(where: \.isEmpty) {
                entries[entry.id] = entry
            }
        }
    }

    private static func headerFields(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    /// The entry being read, and which of its strings a continuation line extends.
    private struct Parser {
        enum Field { case context, id, pluralID, form(Int) }
        var context: String?
        var id: String?
        var pluralID: String?
        var forms: [Int: String] = [:]
        var fuzzy = false
        var field: Field?
        var done: [Entry] = []

        mutating func read(_ line: String, line number: Int) throws(ParseError) {
            if line.isEmpty { return finish() }
            if line.hasPrefix("#") {
                // A comment starts the next entry when one is complete.
                if !forms.isEmpty { finish() }
                if line.hasPrefix("#,"), line.contains("fuzzy") { fuzzy = true }
                return
            }
            if line.hasPrefix("\"") {
                guard let field else { throw ParseError(line: number, reason: "a string continues no keyword") }
                try append(Self.unquote(line, line: number), to: field)
                return
            }
            let keyword = String(line.prefix { !$0.isWhitespace })
            let value = try Self.unquote(line.dropFirst(keyword.count).trimmingCharacters(in: .whitespaces), line: number)
            switch keyword {
            case "msgctxt":
                if !forms.isEmpty { finish() }
                (context, field) = (value, .context)
            case "msgid":
                if !forms.isEmpty { finish() }
                (id, field) = (value, .id)
            case "msgid_plural": (pluralID, field) = (value, .pluralID)
            case "msgstr": (forms[0], field) = (value, .form(0))
            default:
                guard keyword.hasPrefix("msgstr["), keyword.hasSuffix("]"), let index = Int(keyword.dropFirst(7).dropLast())
                else { throw ParseError(line: number, reason: "unknown keyword \(keyword)") }
                (forms[index], field) = (value, .form(index))
            }
        }

        mutating func append(_ text: String, to field: Field) throws(ParseError) {
            switch field {
            case .context: context = (context ?? "") + text
            case .id: id = (id ?? "") + text
            case .pluralID: pluralID = (pluralID ?? "") + text
            case .form(let index): forms[index, default: ""] += text
            }
        }

        mutating func finish() {
            if let id, !forms.isEmpty, !fuzzy {
                let key = context.map { "\($0)\u{4}\(id)" } ?? id
                done.append(Entry(id: key, pluralID: pluralID, forms: forms.keys.sorted().map { forms[$0]! }))
            }
            (context, id, pluralID, forms, fuzzy, field) = (nil, nil, nil, [:], false, nil)
        }

        /// A quoted string's text, its C escapes resolved.
        static func unquote(_ quoted: String, line: Int) throws(ParseError) -> String {
            guard quoted.count >= 2, quoted.hasPrefix("\""), quoted.hasSuffix("\"") else {
                throw ParseError(line: line, reason: "expected a quoted string")
            }
            var text = ""
            var escaped = false
            for character in quoted.dropFirst().dropLast() {
                if escaped {
                    switch character {
                    case "n": text.append("\n")
                    case "t": text.append("\t")
                    default: text.append(character)
                    }
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else {
                    text.append(character)
                }
            }
            guard !escaped else { throw ParseError(line: line, reason: "the string ends in a lone backslash") }
            return text
        }
    }
}
