import CourtsideEvent
import CourtsideLocalization
import CourtsideModel
import CourtsideProtocol
import CourtsideViewModels
import CourtsideWebStore
import Foundation
import Hummingbird
import Testing

@testable import CourtsideWeb

/// Every desk page in Japanese and Korean: the sign-in, the desk, a confirmation, the audit, the
/// schedule, the teams, the join codes and the Setup pages, with no English left of the words
/// the catalogs hold for the desk, each page in its own `<html lang>` with the language picker.
@Suite("The desk's words in Japanese and Korean")
struct DeskWordsTests {
    static let (ja, ko) = (Words(Language(tag: "ja")!), Words(Language(tag: "ko")!))

    /// Every desk page of the fixtures, by name, in `words`' language.
    static func pages(_ words: Words, setupPreview: Bool = true) throws -> [(name: String, html: String)] {
        let now = DeskCodesTests.now
        let code = JoinCode(court: "Court 2", generation: 3, token: "TOKEN", pin: "ACDEFH")
        let phone = KeeperDevice(
            id: "secret-id", court: "Court 2", generation: 3, name: "device-1", joinedAt: now.addingTimeInterval(-600),
            lastSeen: now.addingTimeInterval(-7200))
        var codes = DeskCodesPage(
            courts: ["Court 2", "Court 1"], codes: [code], devices: [(phone, false)],
            expiries: [
                DeviceExpiry(
                    court: "Court 2", name: "device-1", joinedAt: now.addingTimeInterval(-900),
                    lastSeen: now.addingTimeInterval(-900), commanded: false, expiredAt: now.addingTimeInterval(-30),
                    reason: .courtFull)
            ], baseURL: "http://10.0.0.5:8080", message: nil, now: now, calendar: DeskCodesTests.utc, words: words)
        let codesPage = Pages.render("desk-codes", codes)
        codes.confirm = DeskCodesPage.Confirm(summary: DeskCodeAction.revoke(device: "device-1").summary(words), fields: [])
        let forfeit = DeskAction(game: "g1", operation: .forfeit(game: "g1", side: .away, reason: nil))
        let setup = DeskChangesTests.setup
        let notice = DeskNotice(text: words(.deskDone, ["summary": "g1"]), refused: false)
        var pages: [(String, String)] = [
            (
                "sign-in",
                Pages.render("desk-login", DeskGateway.LoginPage(query: Self.query("login=wait&seconds=12"), words: words))
            ),
            ("sign-in, wrong", Pages.render("desk-login", DeskGateway.LoginPage(query: Self.query("login=wrong"), words: words))),
            (
                "desk",
                Pages.render("desk", DeskGateway.deskPage(PseudoLanguageTests.view, desk: "device-1", message: nil, words: words))
            ),
            (
                "confirm",
                Pages.render(
                    "desk-confirm",
                    DeskGateway.ConfirmPage(
                        summary: forfeit.summary(home: "Lions", away: "Tigers", words: words), fields: [], words: words))
            ),
            (
                "audit",
                Pages.render(
                    "desk-audit",
                    DeskGateway.AuditPage(games: [.init(value: "g1", selected: true)], origin: "", kind: "", words: words))
            ),
            (
                "schedule",
                Pages.render("desk-schedule", DeskSchedulePage(.success(setup), games: [:], notice: notice, words: words))
            ),
            ("teams", Pages.render("desk-teams", DeskTeamsPage(.success(setup), notice: notice, words: words))),
            ("codes", codesPage),
            ("codes, confirm", Pages.render("desk-codes", codes)),
            ("setup", Pages.render("desk-setup", DeskSetupPage(SetupForm(), problem: DeskGateway.gone(words), words: words))),
            (
                "setup, published",
                Pages.render(
                    "desk-setup-done",
                    DeskSetupDonePage(message: words.plural(.deskSetupPublished, count: 47), words: words))
            ),
        ]
        if setupPreview {
            let draft = try DeskSetupTests.review(DeskSetupTests.fields(csv: try DeskSetupTests.teamsCSV())).get()
            pages.append(
                ("setup, preview", Pages.render("desk-setup-preview", DeskSetupPreviewPage(draft, token: "T", words: words))))
        }
        return pages
    }

    /// A sign-in page's address's query: `login=wait&seconds=12` as `["login": "wait", "seconds": "12"]`.
    static func query(_ query: String) -> Parameters {
        var parameters = Parameters()
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            parameters.append(key: parts[0], value: parts.count > 1 ? parts[1] : "")
        }
        return parameters
    }

    /// The desk's words as the English catalog writes them and `words` does not: none may be
    /// left on a page in `words`' language. Those the tournament's own names hold ("Court" of
    /// "Court 1") are left out, as are those a language keeps as English writes them (an example's id).
    static func english(besides words: Words) -> [String] {
        let names = ["Court 1", "Court 2", "Lions", "Tigers", "Owls", "owls", "Courtside"]
        return MessageKey.allCases.filter { $0.rawValue.hasPrefix("desk.") }.compactMap { key in
            let english = KeeperWordsTests.escaped(Words.english(key))
            // An example a language gives as English writes it ("例: g7") is kept.
            guard english.count >= 3, !KeeperWordsTests.escaped(words(key)).contains(english), !english.contains("{") else {
                return nil
            }
            return names.contains { $0.contains(english) } ? nil : english
        }
    }

    @Test("each desk page in Japanese and Korean: no English of the desk's words, its lang, the picker")
    func noEnglishLeft() throws {
        for words in [Self.ja, Self.ko] {
            let english = Self.english(besides: words)
            #expect(english.count > 150, "\(english.count)")
            for (name, page) in try Self.pages(words) {
                #expect(page.contains(#"<html lang="\#(words.language.code)">"#), "\(name)")
                #expect(page.contains(#"class="language-picker""#), "\(name)")
                // What the page shows (its text, its spoken names): a text that is a word of the
                // desk's, or holds a long one.
                let shown = try KeeperWordsTests.shown(page).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                let left = english.filter { word in shown.contains { $0 == word || (word.count >= 12 && $0.contains(word)) } }
                #expect(left.isEmpty, "\(words.language.code) \(name): \(left)")
            }
        }
    }

    @Test("the words built in code: a sign-in's wait, a forfeit, a court's PIN, a device seen, the draw's summary")
    func composed() throws {
        let login = DeskGateway.LoginPage(query: Self.query("login=wait&seconds=12"), words: Self.ja)
        #expect(login.message == "この端末からのログインが多すぎます。12秒後にもう一度お試しください。")
        #expect(DeskGateway.LoginPage(query: Self.query("login=busy"), words: .english).message?.hasSuffix("in a few s.") == true)
        let forfeit = DeskAction(game: "g1", operation: .forfeit(game: "g1", side: .away, reason: "no show"))
        #expect(forfeit.summary(home: "Lions", away: "Tigers", words: Self.ja) == "Tigersがg1（Lions 対 Tigers）を不戦敗: no show")
        #expect(forfeit.summary(home: "Lions", away: "Tigers") == "Tigers forfeit g1 (Lions v Tigers): no show")
        #expect(forfeit.done(Self.ko) == "완료: g1 경기가 종료되었습니다.")
        let codes = try Self.pages(Self.ko, setupPreview: false).first { $0.name == "codes" }!.html
        #expect(codes.contains(#"PIN 번호 <strong class="pin">ACD-EFH</strong> (코드 3)"#), "\(codes)")
        #expect(codes.contains("코트의 기기 수가 상한에 이름"), "\(codes)")
        #expect(codes.contains("2시간 전"), "\(codes)")
        let draft = try DeskSetupTests.review(DeskSetupTests.fields(csv: try DeskSetupTests.teamsCSV())).get()
        #expect(draft.summary(Self.ja).hasPrefix("OpenとWomenの組み合わせを公開: 24チーム、4コートで47試合、09:00〜"), "\(draft.summary(Self.ja))")
        #expect(draft.summary.hasPrefix("Publish the draw of Open and Women: 24 teams, 47 games on 4 courts, 09:00 to "))
    }

    @Test("a problem of the Setup form in Japanese and Korean, its English as it was")
    func setupProblem() throws {
        var fields = DeskSetupTests.fields(csv: "")
        fields["game_minutes"] = "ten"
        let problem = try #require(DeskSetupTests.review(fields).failure)
        #expect(problem.message == "Game minutes: a whole number of minutes, as 10")
        #expect(problem.text(Self.ja) == "試合時間（分）: 10のように分を整数で入力してください")
        let page = Pages.render("desk-setup", DeskSetupPage(SetupForm(fields), problem: problem, words: Self.ko))
        #expect(page.contains("미리 볼 수 없습니다: 경기 시간 (분): 10처럼 분을 정수로 입력하세요"), "\(page)")
        fields["game_minutes"] = "10"
        fields["division-1-pools"] = "two"
        let pools = try #require(DeskSetupTests.review(fields).failure)
        #expect(pools.text(Self.ja) == "部門2のグループ数: 4のように整数で入力してください")
    }

    @Test("a form the organiser can mend, refused in Korean and Japanese: a player's line, a move that changes nothing")
    func refusals() {
        let register = ["action": "register_team", "team": "owls", "name": "Owls", "players": "ola"]
        guard case .failure(let line) = DeskChange.parse(register, on: .teams, words: Self.ko) else {
            Issue.record("a player without a name was taken")
            return
        }
        #expect(line.message == "선수는 한 줄에 한 명씩 ID와 이름을 쓰세요 (예: minsu 김민수). 읽지 못한 줄: \"ola\"")
        let move = ["action": "edit_game", "game": "g1", "court": "Court 1", "was_court": "Court 1"]
        guard case .failure(let unchanged) = DeskChange.parse(move, on: .schedule, words: Self.ja) else {
            Issue.record("a move that changes nothing was taken")
            return
        }
        #expect(unchanged.message == "g1: 先にコート・開始時刻・チーム・ルールのいずれかを変更してください")
        guard case .failure(let english) = DeskChange.parse(move, on: .schedule) else { return }
        #expect(english.message == "g1: change its court, its start, a team or its rules first")
    }
}
