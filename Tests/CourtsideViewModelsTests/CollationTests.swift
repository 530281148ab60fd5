import CourtsideLocalization
import CourtsideModel
import CourtsideViewModels
import Testing

/// Names sorted as each language sorts them (its CLDR collation through Foundation), not by
/// their code points: the team list in Japanese, Korean and English.
@Suite("names in the language's collation")
struct CollationTests {
    static let (en, ja, ko) = (Language.english, Language(tag: "ja")!, Language(tag: "ko")!)
    /// Korean, hiragana, Latin and katakana: "カニ" (kani) before "かめ" (kame) by the kana's
    /// order, though every hiragana's code point is below every katakana's.
    static let names = ["가람", "かめ", "Zebra", "カニ"]

    @Test("Japanese: kana as one syllabary (カニ before かめ), Latin first, Korean after Japanese; English puts Korean before kana")
    func japanese() {
        #expect(Self.names.sorted() == ["Zebra", "かめ", "カニ", "가람"], "code points: hiragana before katakana")
        #expect(Collation(Self.ja).sorted(Self.names) == ["Zebra", "カニ", "かめ", "가람"])
        #expect(Collation(Self.en).sorted(Self.names) == ["Zebra", "가람", "カニ", "かめ"])
    }

    @Test("Korean: Hangul first, then Latin; within Hangul by syllable")
    func korean() {
        #expect(Collation(Self.ko).sorted(["Zebra", "하늘", "가람", "나래"]) == ["가람", "나래", "하늘", "Zebra"])
        #expect(Collation(Self.en).sorted(["Zebra", "하늘", "가람"]) == ["Zebra", "가람", "하늘"])
    }

    @Test("case, width and numbers as a reader reads them: Ａ (full width) before b, Team 9 before Team 10")
    func reader() {
        for language in [Self.en, Self.ja, Self.ko] {
            #expect(Collation(language).sorted(["b", "Ａ", "Team 10", "Team 9"]) == ["Ａ", "b", "Team 9", "Team 10"])
        }
    }

    @Test("the team list is sorted in the page's language")
    func teamList() {
        let teams = Self.names.enumerated().map { index, name in
            Team(id: TeamID("t\(index)"), name: name, players: [Player(id: PlayerID("p\(index)"), name: "P")])
        }
        let order = { (language: Language) in
            TeamList(teams: teams, games: [:], standings: [], words: Words.of(language)).blocks.flatMap(\.teams).map(\.name)
        }
        #expect(order(Self.ja) == ["Zebra", "カニ", "かめ", "가람"])
        #expect(order(Self.ko) == ["가람", "Zebra", "カニ", "かめ"])
        #expect(order(Self.en) == ["Zebra", "가람", "カニ", "かめ"])
    }
}
