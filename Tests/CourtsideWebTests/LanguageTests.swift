import CourtsideClient
import CourtsideLocalization
import CourtsideModel
import CourtsideViewModels
import CourtsideWebStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import CourtsideWeb

/// The join page and a court's TV in the request's language: chosen by `?lang`, the device's
/// cookie, `Accept-Language` and the venue's default, through the gateway's own router.
@Suite("The join page and the court TV in English, Japanese and Korean", .serialized)
struct LanguageTests {
    static let (ja, ko) = (Words(Language(tag: "ja")!), Words(Language(tag: "ko")!))

    static func get(_ client: some TestClientProtocol, _ uri: String, _ headers: HTTPFields = [:]) async throws -> (
        TestResponse, String
    ) {
        let response = try await client.execute(uri: uri, method: .get, headers: headers)
        return (response, String(buffer: response.body))
    }

    @Test("Accept-Language, the cookie and ?lang choose the join page's and the court TV's language, in that order")
    func negotiated() async throws {
        let gateway = try RouteTestGateway()
        defer { gateway.removeDirectory() }
        try await gateway.app.test(.router) { client in
            let (english, englishPage) = try await Self.get(client, "/keep")
            #expect(englishPage.contains(#"<html lang="en">"#) && englishPage.contains("Court PIN"), "\(englishPage)")
            #expect(english.headers[.contentLanguage] == "en")

            let (japanese, joinJA) = try await Self.get(client, "/keep", [.acceptLanguage: "ja-JP,ja;q=0.9,en;q=0.8"])
            #expect(joinJA.contains(#"<html lang="ja">"#) && joinJA.contains("コートのPIN") && joinJA.contains(">参加する<"))
            #expect(!joinJA.contains("Court PIN") && !joinJA.contains("Keep score"), "\(joinJA)")
            #expect(japanese.headers[.contentLanguage] == "ja" && japanese.headers[.vary]?.contains("Accept-Language") == true)

            let (_, joinKO) = try await Self.get(client, "/keep?pin=wait&seconds=8", [.cookie: "lang=ko"])
            #expect(joinKO.contains(#"<html lang="ko">"#) && joinKO.contains("8초 후에 다시 시도하세요"), "\(joinKO)")

            // The cookie over the browser's header; ?lang over both.
            let (_, cookieOverHeader) = try await Self.get(client, "/keep", [.cookie: "lang=ko", .acceptLanguage: "ja"])
            #expect(cookieOverHeader.contains(#"<html lang="ko">"#))
            let (_, tv) = try await Self.get(client, "/games/g1?lang=ko", [.cookie: "lang=ja", .acceptLanguage: "ja"])
            #expect(tv.contains(#"<html lang="ko">"#) && tv.contains("팀 확정 대기 중") && tv.contains("최근 플레이"), "\(tv)")
            #expect(tv.contains(#"data-undone="취소됨""#) && tv.contains("다시 연결하는 중…"))

            let (_, tvJA) = try await Self.get(client, "/games/g1", [.acceptLanguage: "ko;q=0.5, ja"])
            #expect(tvJA.contains(#"<html lang="ja">"#) && tvJA.contains("チーム決定待ち") && tvJA.contains("再接続中…"))
            for english in ["waiting for its teams", "last plays", ">fouls<", ">time-outs<", "reconnecting"] {
                #expect(!tvJA.contains(english), "\(english) left in Japanese")
            }
            // A language with no catalog is passed over: English here.
            let (_, french) = try await Self.get(client, "/games/g1?lang=fr", [.acceptLanguage: "fr"])
            #expect(french.contains(#"<html lang="en">"#) && french.contains("waiting for its teams"))
            // The box score speaks it too (every screen does: ScreensLanguageTests).
            let (_, box) = try await Self.get(client, "/games/g1/box", [.acceptLanguage: "ja"])
            #expect(box.contains(#"<html lang="ja">"#) && box.contains("この試合はまだありません。"))
        }
    }

    @Test("a key a catalog lacked is counted in /metrics, by language and key")
    func missingCounted() async throws {
        let draft = try Catalog(
            Language(tag: "ko")!, po: "msgid \"\"\nmsgstr \"Language: ko\\nPlural-Forms: nplurals=1; plural=0;\\n\"\n")
        #expect(Words(catalog: draft)(.courtWaiting) == "waiting for its teams")
        let gateway = try RouteTestGateway()
        defer { gateway.removeDirectory() }
        try await gateway.app.test(.router) { client in
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(
                metrics.contains(#"courtside_web_missing_messages{language="ko",key="court.waiting"}"#)
                    || metrics.contains(#"courtside_web_missing_messages{key="court.waiting",language="ko"}"#), "\(metrics)")
        }
    }

    @Test("the venue's default speaks when the request names no language it has")
    func venue() async throws {
        let gateway = try RouteTestGateway(venue: Language(tag: "ja")!)
        defer { gateway.removeDirectory() }
        try await gateway.app.test(.router) { client in
            let (_, page) = try await Self.get(client, "/keep")
            #expect(page.contains(#"<html lang="ja">"#) && page.contains("スコアを記録する"))
            let (_, asked) = try await Self.get(client, "/keep", [.acceptLanguage: "de, ko;q=0.4"])
            #expect(asked.contains(#"<html lang="ko">"#))
        }
    }

    @Test("the picker keeps a device's choice in its lang cookie and sends it back, never elsewhere")
    func picker() async throws {
        let gateway = try RouteTestGateway()
        defer { gateway.removeDirectory() }
        try await gateway.app.test(.router) { client in
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            let chosen = try await client.execute(
                uri: "/lang", method: .post, headers: form, body: ByteBuffer(string: "back=%2Fkeep%3Fpin%3Dwrong&lang=ja"))
            #expect(chosen.status == .seeOther && chosen.headers[.location] == "/keep?pin=wrong")
            let cookie = try #require(chosen.headers[.setCookie])
            #expect(cookie.contains("lang=ja") && cookie.contains("Path=/") && cookie.contains("Max-Age=31536000"), "\(cookie)")
            let away = try await client.execute(
                uri: "/lang", method: .post, headers: form, body: ByteBuffer(string: "back=%2F%2Fevil.example&lang=ko"))
            #expect(away.status == .seeOther && away.headers[.location] == "/")
            let unknown = try await client.execute(
                uri: "/lang", method: .post, headers: form, body: ByteBuffer(string: "back=%2Fkeep&lang=fr"))
            #expect(unknown.status == .badRequest)
            let style = try await client.execute(uri: "/static/language.css", method: .get)
            #expect(style.status == .ok && String(buffer: style.body).contains(".language-picker"))
            // The page offers every language in its own words, the current one marked.
            let (_, page) = try await Self.get(client, "/keep", [.cookie: "lang=ja"])
            #expect(page.contains(#"<input type="hidden" name="back" value="/keep">"#), "\(page)")
            #expect(page.contains(#"value="ja" lang="ja" aria-current="true">日本語</button>"#))
            #expect(
                page.contains(#"value="ko" lang="ko">한국어</button>"#) && page.contains(#"value="en" lang="en">English</button>"#))
        }
    }

    @Test("the court TV's game in Japanese and Korean: status, plays, fouls, the court's next game")
    func courtWords() {
        let view = CourtLinesTests.view
        let japanese = Pages.court(view, game: "g1", words: Self.ja)
        #expect(japanese.contains(">試合前<") && japanese.contains("Court 1の次の試合: Tigers 対 Lions"), "\(japanese)")
        let korean = Pages.court(view, game: "g1", words: Self.ko)
        #expect(korean.contains(">경기 전<") && korean.contains("Court 1 다음 경기: Tigers 대 Lions"), "\(korean)")
        // English stays as it was.
        let english = Pages.court(view, game: "g1")
        #expect(english.contains(">SCHEDULED<") && english.contains("next on Court 1: Tigers v Lions"))
    }

    @Test("a next game whose teams the results decide is named by its slots in the page's language")
    func slots() {
        var view = CourtLinesTests.view
        view.games["g3"] = nil
        // g1 first on the court, then the final its winner plays.
        view.bracket = [
            BracketEntry(
                game: "g1", round: nil, group: nil, court: "Court 1", start: nil, home: .team("lions"),
                away: .team("tigers"), homeTeam: "lions", awayTeam: "tigers", state: .ready, score: nil, winner: nil),
            BracketEntry(
                game: "g9", round: "final", group: nil, court: "Court 1", start: nil, home: .winner(of: "g1"),
                away: .groupRank(group: "B", rank: 2), homeTeam: nil, awayTeam: nil, state: .pending, score: nil,
                winner: nil),
        ]
        let lineup = CourtLineup(court: "Court 1", bracket: view.bracket, games: view.games)
        let court = view.courtNow(lineup)
        #expect(court.nextLine == "next on Court 1: winner of g1 v 2nd of group B", "\(court.nextLine ?? "")")
        #expect(court.worded(Self.ja).nextLine == "Court 1の次の試合: g1の勝者 対 グループBの2位")
        #expect(court.worded(Self.ko).nextLine == "Court 1 다음 경기: g1 승자 대 B조 2위")
        let swiss = Slot.swissPairing(group: "S", round: 2, pairing: 3, side: .away)
        #expect(swiss.words(.english) == swiss.description)
        #expect(swiss.words(Self.ko) == "S조 2라운드 3경기 원정")
        let best = Slot.bestOfRank(rank: 3, place: 2, groups: ["A", "B"])
        #expect(best.words(.english) == best.description && best.words(Self.ja) == "グループA, Bの3位で2番目")
    }

    @Test("the event stream carries the views in the language its page asked for")
    func stream() async throws {
        let live = LiveTournament(endpoints: Endpoints(), logger: Logger(label: "test"))
        let state = EventStreamMessage(.state(CourtLinesTests.view), words: Self.ko).map { String(buffer: $0.buffer) }
        #expect(state?.contains("경기 전") == true && state?.contains("Court 1 다음 경기") == true, "\(state ?? "")")
        var first = live.updates(words: Self.ja).makeAsyncIterator()
        let opening = await first.next().map { String(buffer: $0.buffer) }
        #expect(opening?.hasPrefix("event: state") == true)
        let courts = EventStreamMessage(
            .courts(CourtLinesTests.view.courtsNow().map { $0.worded(.english) }), words: Self.ja
        ).map { String(buffer: $0.buffer) }
        #expect(courts?.contains("Court 1の次の試合") == true)
        let english = EventStreamMessage(.state(CourtLinesTests.view)).map { String(buffer: $0.buffer) }
        #expect(english?.contains("SCHEDULED") == true && english?.contains("next on Court 1") == true)
    }

    @Test("the printed sheet in the venue's language, the address where the language puts it")
    func sheet() throws {
        let code = JoinCode(court: "Court 1", generation: 2, token: "t0k3n", pin: "K7M4PX")
        let printed = Date(timeIntervalSince1970: 1_800_000_000)
        let japanese = try JoinSheet.html(
            [code], baseURL: "http://10.0.0.2:8080/", tournament: "Tokyo 3x3", now: printed, words: Self.ja)
        #expect(japanese.contains(#"<html lang="ja">"#) && japanese.contains("<title>Tokyo 3x3: 記録係の参加コード</title>"))
        #expect(
            japanese.contains(#"読み取るか、<strong class="url">http://10.0.0.2:8080/keep</strong> を開いてPINを入力してください:"#), "\(japanese)")
        #expect(japanese.contains("このコードはCourt 1専用です。コード2、"))
        let korean = try JoinSheet.html(
            [code], baseURL: "http://10.0.0.2:8080", tournament: "Seoul", now: printed, words: Self.ko)
        #expect(korean.contains(#"<html lang="ko">"#) && korean.contains("휴대폰으로 점수 기록"))
        let english = try JoinSheet.html([code], baseURL: "http://10.0.0.2:8080", tournament: "Paris", now: printed)
        #expect(
            english.contains("Keep score from your phone") && english.contains("This code joins Court 1 only. Code 2, printed"))
        // A 24-hour clock: no AM or PM.
        #expect(!english.contains(" AM") && !english.contains(" PM"))
    }
}
