import CourtsideLocalization
import CourtsideModel
import CourtsideViewModels
import Testing

/// The desk's audit in the page's language: each event and tournament change worded through the
/// catalog, English as the terminal has always printed it.
@Suite("the audit's words in English, Japanese and Korean")
struct AuditWordsTests {
    static let ja = Words(Language(tag: "ja")!)
    static let ko = Words(Language(tag: "ko")!)

    @Test("English as before; Japanese and Korean from their catalogs, with the reason and the side")
    func words() {
        let forfeit = GameEvent.Kind.forfeit(side: .away, reason: "no show")
        #expect(AuditTrail.describe(forfeit) == "forfeit by away: no show")
        #expect(AuditTrail.describe(forfeit, words: Self.ja) == "アウェイの棄権（理由: no show）")
        #expect(AuditTrail.describe(forfeit, words: Self.ko) == "원정 기권 (사유: no show)")
        #expect(AuditTrail.describe(.move(player: "ann", move: .twoPoints)) == "ann +2")
        #expect(AuditTrail.describe(.clockStarted, words: Self.ja) == "時計スタート")
        #expect(AuditTrail.describe(.setupChanged(court: nil, rules: .standard)) == "moved to no court (or rules changed)")
        #expect(AuditTrail.describe(.timeout(side: .home), words: Self.ko) == "타임아웃 (홈)")
    }

    @Test("a tournament change: English as before, and in Japanese")
    func changes() {
        let inactive = TournamentChange.playerActive(team: "lions", player: "bo", active: false)
        #expect(AuditTrail.describe(inactive) == "bo of lions marked inactive")
        #expect(AuditTrail.describe(inactive, words: Self.ja) == "lionsのboを出場不可に")
        #expect(AuditTrail.describe(.teamWithdrawn("owls")) == "team owls withdrawn: its games left are forfeited")
    }
}
