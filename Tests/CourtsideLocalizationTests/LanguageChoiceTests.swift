import Synchronization
import Testing

@testable import CourtsideLocalization

@Suite("Choosing a request's language")
struct LanguageChoiceTests {
    static let (en, ja, ko) = (Language.english, Language(tag: "ja")!, Language(tag: "ko")!)

    @Test("Accept-Language: weights honoured, ties in the header's order, q=0 refused, regions folded")
    func acceptLanguage() {
        let header = AcceptLanguage("en;q=0.5, ko-KR;q=0.9,ja , fr;q=0, *;q=0.1")
        #expect(header.ranges.map(\.language) == [Self.ja, Self.ko, Self.en, nil])
        #expect(header.best(of: [Self.en, Self.ko]) == Self.ko)
        #expect(AcceptLanguage("fr;q=0, ko;q=0").best(of: [Self.ko]) == nil)
        #expect(AcceptLanguage("fr-CA, ja-JP;q=0.8").best(of: [Self.en, Self.ja]) == Self.ja)
        // Malformed ranges and weights are skipped, not fatal.
        #expect(AcceptLanguage("ko;q=high, ;q=1, 12, ja;q=0.3").ranges.map(\.language) == [Self.ja])
        #expect(AcceptLanguage("").ranges.isEmpty)
    }

    @Test("?lang over the cookie over Accept-Language over the venue over English")
    func precedence() {
        let choice = LanguageChoice(venue: Self.ja)
        #expect(choice.choose(query: "ko", cookie: "en", acceptLanguage: "ja") == Self.ko)
        #expect(choice.choose(query: nil, cookie: "en", acceptLanguage: "ko") == Self.en)
        #expect(choice.choose(query: nil, cookie: nil, acceptLanguage: "ko-KR,ko;q=0.9") == Self.ko)
        #expect(choice.choose(query: nil, cookie: nil, acceptLanguage: nil) == Self.ja)
        #expect(LanguageChoice().choose(query: nil, cookie: nil, acceptLanguage: nil) == Self.en)
    }

    @Test("the gateway's --language over the config's language: over English, each read at the request")
    func configured() {
        let said = Mutex<Language?>(nil)
        let choice = LanguageChoice(configured: { said.withLock { $0 } })
        #expect(choice.choose(query: nil, cookie: nil, acceptLanguage: "fr") == Self.en)
        said.withLock { $0 = Self.ko }
        #expect(choice.choose(query: nil, cookie: nil, acceptLanguage: "fr") == Self.ko)
        #expect(choice.choose(query: nil, cookie: nil, acceptLanguage: "ja") == Self.ja)
        #expect(
            LanguageChoice(venue: Self.ja, configured: { Self.ko }).choose(query: nil, cookie: nil, acceptLanguage: nil)
                == Self.ja)
        said.withLock { $0 = Language(tag: "fr") }
        #expect(choice.choose(query: nil, cookie: nil, acceptLanguage: nil) == Self.en)
    }

    @Test("a language with no catalog is passed over: the next source decides")
    func unknown() {
        let choice = LanguageChoice(venue: Self.ko)
        #expect(choice.choose(query: "fr", cookie: "ja", acceptLanguage: nil) == Self.ja)
        #expect(choice.choose(query: "xx-YY", cookie: "!!", acceptLanguage: "de, fr;q=0.5") == Self.ko)
        #expect(choice.choose(query: "", cookie: nil, acceptLanguage: "de,en;q=0.2") == Self.en)
        #expect(LanguageChoice(venue: Language(tag: "fr")!).choose(query: nil, cookie: nil, acceptLanguage: nil) == Self.en)
    }
}
