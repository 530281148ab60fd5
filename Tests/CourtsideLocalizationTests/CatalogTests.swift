import Testing

@testable import CourtsideLocalization

@Suite("Message catalogs: .po files read, keys looked up, placeholders and plurals")
struct CatalogTests {
    static let ja = Language(tag: "ja")!
    static let ko = Language(tag: "ko")!

    @Test("every key the pages use is in English, Japanese and Korean, translated")
    func everyKeyEverywhere() throws {
        for language in [Language.english, Self.ja, Self.ko] {
            let catalog = try #require(Catalogs.catalog(language))
            let missing = MessageKey.allCases.filter { !catalog.has($0) }
            #expect(missing.isEmpty, "\(language) lacks \(missing.map(\.rawValue))")
        }
        // A Japanese or Korean page shows no English sentence: each translation differs from
        // English unless it is a number or a sign ("+1"), a name kept as is, or an abbreviation
        // a Japanese box score prints as English does ("FT").
        let kept: Set<MessageKey> = [.moveOnePoint, .moveTwoPoints, .courtTitle, .teamTitle, .bracketTooltipScore]
        let keptIn: [Language: Set<MessageKey>] = [Self.ja: [.boxFreeThrow]]
        // The keeper page's signs ("+1", "FT") and its lines of values alone ("{player} {move}").
        let keeperKept: Set<MessageKey> = [
            .keeperButtonOnePoint, .keeperButtonTwoPoints, .keeperButtonFreeThrow, .keeperPlay, .keeperAnnounce,
            .keeperAnnounceRefused, .listSeparator,
        ]
        for language in [Self.ja, Self.ko] {
            let words = Words(language)
            for key in MessageKey.allCases
            where !kept.contains(key) && !keeperKept.contains(key) && keptIn[language]?.contains(key) != true {
                #expect(words(key) != Words.english(key), "\(language) leaves \(key.rawValue) in English")
            }
        }
    }

    @Test("placeholders are named, so a translation puts them in its own order")
    func placeholders() {
        let english = Words.english(.courtNextAbout, ["court": "Court 2", "game": "Bears v Wolves", "time": "10:50"])
        #expect(english == "next on Court 2: Bears v Wolves, about 10:50")
        let japanese = Words(Self.ja)(.courtNextAbout, ["court": "コート2", "game": "Bears 対 Wolves", "time": "10:50"])
        #expect(japanese == "コート2の次の試合: Bears 対 Wolves（10:50ごろ）")
        // The winner before the verb in Japanese and Korean, after the status as in English.
        #expect(Words(Self.ko)(.statusWon, ["status": "경기 종료", "winner": "Lions"]) == "경기 종료: Lions 승")
        // A brace no value names is kept as written; a value is never read as a placeholder.
        #expect(Words.fill("{a} {b} {", ["a": "{b}"]) == "{b} {b} {")
        let (before, after) = Words(Self.ko).around(.sheetSteps, placeholder: "url")
        #expect(before == "휴대폰 카메라로 코드를 스캔하거나 " && after == "을 열고 PIN을 입력하세요:")
    }

    @Test("plurals by CLDR: English one and other, Japanese and Korean one form")
    func plurals() {
        #expect(Words.english.plural(.countFouls, count: 1) == "1 foul")
        #expect(Words.english.plural(.countFouls, count: 2) == "2 fouls")
        #expect(Words.english.plural(.countFouls, count: 0) == "0 fouls")
        #expect(Words.english.plural(.countFouls, count: 1_234) == "1,234 fouls")
        #expect(Words(Self.ja).plural(.countFouls, count: 1) == "ファウル1")
        #expect(Words(Self.ja).plural(.countFouls, count: 2) == "ファウル2")
        #expect(Words(Self.ko).plural(.countFouls, count: 1) == "파울 1개")
        #expect(Words(Self.ko).plural(.countFouls, count: 3) == "파울 3개")
        #expect(PluralRule(.english)?.forms == 2 && PluralRule(Self.ja)?.forms == 1 && PluralRule(Self.ko)?.forms == 1)
    }

    @Test("a key a catalog lacks is shown in English and counted, never as the key")
    func fallback() throws {
        let draft = try Catalog(
            Language(tag: "ja")!,
            po: """
                msgid ""
                msgstr "Language: ja\\nPlural-Forms: nplurals=1; plural=0;\\n"

                msgid "court.fouls"
                msgstr "ファウル"

                #, fuzzy
                msgid "court.timeouts"
                msgstr "タイムアウト?"

                msgid "play.undone"
                msgstr ""
                """)
        let words = Words(catalog: draft)
        let before = Catalogs.missing
        #expect(words(.courtFouls) == "ファウル")
        // Fuzzy and empty translations are not used, as gettext does not use them.
        #expect(words(.courtTimeouts) == "time-outs")
        #expect(words(.playUndone) == "undone")
        #expect(words.plural(.countFouls, count: 2) == "2 fouls")
        let after = Catalogs.missing
        for key in ["ja:court.timeouts", "ja:play.undone", "ja:count.fouls"] {
            #expect(after[key, default: 0] >= before[key, default: 0] + 1, "\(key) not counted")
        }
        #expect(after["ja:court.fouls"] == before["ja:court.fouls"])
        // A language without a catalog speaks English, and counts nothing (it asked for nothing else).
        #expect(Words(Language(tag: "fr")!).language == .english)
    }

    @Test("the .po reader: continued strings, escapes, contexts; a catalog that disagrees with CLDR is refused")
    func reader() throws {
        let file = try POFile(
            """
            # a comment
            msgid ""
            msgstr ""
            "Language: en\\n"
            "Plural-Forms: nplurals=2; plural=(n != 1);\\n"

            msgctxt "tv"
            msgid "a"
            msgstr "one "
            "line\\t\\"quoted\\"\\n"

            msgid "b"
            msgid_plural "b"
            msgstr[0] "{count} b"
            msgstr[1] "{count} bs"
            """)
        #expect(file.header["Language"] == "en" && file.pluralForms == 2)
        #expect(file.entries["tv\u{4}a"]?.forms == ["one line\t\"quoted\"\n"])
        #expect(file.entries["b"]?.forms == ["{count} b", "{count} bs"])
        #expect(throws: POFile.ParseError.self) { try POFile("msgid \"a\"\nmsgstr nope") }
        #expect(throws: Catalog.LoadError.self) {
            try Catalog(Self.ja, po: "msgid \"\"\nmsgstr \"Language: ja\\nPlural-Forms: nplurals=2; plural=(n != 1);\\n\"\n")
        }
        #expect(throws: Catalog.LoadError.self) {
            try Catalog(Self.ko, po: "msgid \"\"\nmsgstr \"Language: ja\\nPlural-Forms: nplurals=1; plural=0;\\n\"\n")
        }
    }
}
