import CourtsideClient
import CourtsideLocalization
import CourtsideModel
import CourtsideProtocol
import CourtsideViewModels
import Testing

@testable import CourtsideWeb

/// The keeper page in English, Japanese and Korean: its frame, the view models it binds, the
/// spoken names of its controls, and a refusal's words by its code.
@Suite("The keeper page's words in English, Japanese and Korean")
struct KeeperWordsTests {
    static let (ja, ko) = (Words(Language(tag: "ja")!), Words(Language(tag: "ko")!))

    static let lions = Team(
        id: "lions", name: "Lions", players: [Player(id: "ann", name: "Ann Avery"), Player(id: "bo", name: "Bo")])
    static let tigers = Team(id: "tigers", name: "Tigers", players: [Player(id: "di", name: "Di")])

    /// g1 on Court 1: Ann Avery 7 points (three 2s, a free throw) and a foul; Bo one point, undone.
    static func game() -> Game {
        var game = Game(setup: GameSetup(id: "g1", home: lions, away: tigers, court: "Court 1"))
        func record(_ kind: GameEvent.Kind) {
            game.apply(
                GameEvent(
                    gameID: "g1", version: game.version + 1, at: Timestamp(milliseconds: 1000),
                    origin: CommandOrigin(clientID: "t", commandID: "c\(game.version)"), kind: kind))
        }
        for move in [MoveKind.twoPoints, .twoPoints, .twoPoints, .freeThrow, .foul] {
            record(.move(player: "ann", move: move))
        }
        record(.move(player: "bo", move: .onePoint))
        record(.retraction(targetVersion: game.version))
        return game
    }

    static func view(_ words: Words) -> GameViewModel {
        GameViewModel(game(), now: Timestamp(milliseconds: 2000), inactive: ["di"], words: words)
    }

    static func page(_ words: Words) -> String {
        let lineup = CourtLineup(court: "Court 1", bracket: [], games: ["g1": game()])
        return Pages.render("keeper", KeeperGateway.KeeperPage(device: "phone", lineup: lineup, words: words))
    }

    /// `text` as the page's template writes it (mustache's HTML escaping).
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }

    /// What the page shows or its script fills: its text and the values of its words' attributes
    /// (`data-silent`, `aria-label`, ...), not its class names, ids and protocol names.
    static func shown(_ page: String) throws -> [String] {
        let attribute = try Regex(#"([a-z-]+)="([^"]*)""#)
        let machine: Set<String> = [
            "class", "id", "type", "href", "src", "rel", "name", "value", "lang", "for", "method",
            "action", "content", "charset", "data-move", "data-code", "data-field", "data-side", "data-court", "data-device",
        ]
        var values = page.matches(of: attribute).compactMap { match -> String? in
            let name = String(match.output[1].substring ?? "")
            return machine.contains(name) ? nil : String(match.output[2].substring ?? "")
        }
        values += page.matches(of: try Regex(#">([^<]+)<"#)).map { String($0.output[1].substring ?? "") }
        return values.filter { !$0.allSatisfy(\.isWhitespace) }
    }

    @Test("English as it was, with each control's spoken name: a player's button, an undo, a move")
    func english() {
        let view = Self.view(.english)
        let ann = view.home.players[0]
        #expect(ann.countsText == "7 pts · 1 FT · 1 foul")
        #expect(ann.label == "Ann Avery, Lions: 7 points, 1 free throw, 1 foul")
        #expect(view.home.players[1].label == "Bo, Lions: 0 points")
        #expect(view.away.players[0].label == "Di, Tigers: inactive: no more moves")
        #expect(view.away.players[0].inactiveText == "inactive: no more moves")
        #expect(view.home.timeoutButtonText == "Time-out Lions" && view.clockActionText == "Start clock")
        let undone = view.plays[0]
        #expect(undone.listText == "Bo +1 (undone)" && undone.undoText == "undo Bo +1", "\(undone)")
        #expect(view.plays[1].undoLabel == "Undo Ann Avery's foul")
        #expect(view.plays[3].listText == "Ann Avery +2" && view.plays[3].undoLabel == "Undo Ann Avery's 2 points")

        let page = Self.page(.english)
        #expect(page.contains(#"<html lang="en">"#) && page.contains("<title>Courtside: keep score on Court 1</title>"))
        #expect(
            page.contains(
                #"<button type="button" data-move="free_throw" data-text="free throw" data-spoken="free throw">FT<span class="spoken"> free throw</span></button>"#
            ), "\(page)")
        #expect(page.contains(#"data-undo-label="Undo {player}&#39;s {move}""#))
        #expect(page.contains(#"<p class="announce" id="announce" aria-live="polite"></p>"#))
        #expect(page.contains(#"data-halted="{message} Your unsent moves stay listed below.""#))
    }

    @Test("plurals by CLDR: one point and two in English; one form in Japanese and Korean")
    func plurals() {
        let one = MoveCounts()
        #expect(KeeperWords.counts(one, words: .english) == "0 pts")
        var counts = MoveCounts()
        counts[.onePoint] = 1
        #expect(KeeperWords.counts(counts, words: .english) == "1 pt")
        #expect(KeeperWords.playerLabel(name: "Ann", team: "Lions", counts: counts, isActive: true) == "Ann, Lions: 1 point")
        counts[.foul] = 2
        counts[.rebound] = 1
        #expect(
            KeeperWords.playerLabel(name: "Ann", team: "Lions", counts: counts, isActive: true)
                == "Ann, Lions: 1 point, 1 rebound, 2 fouls")
        #expect(
            KeeperWords.playerLabel(name: "Ann", team: "Lions", counts: counts, isActive: true, words: Self.ja)
                == "Ann（Lions）: 1点、リバウンド1、ファウル2")
        #expect(
            KeeperWords.playerLabel(name: "Ann", team: "Lions", counts: counts, isActive: true, words: Self.ko)
                == "Ann(Lions): 1점, 리바운드 1개, 파울 2개")
        // The offline banner: English's one and its other form with the count left to the
        // script; Japanese's single form for both.
        let lineup = CourtLineup(court: "Court 1", bracket: [], games: [:])
        let english = KeeperGateway.KeeperPage(device: "d", lineup: lineup)
        #expect(english.offlineOneText == "offline: 1 move saved on this device")
        #expect(english.offlineManyText == "offline: {count} moves saved on this device")
        let japanese = KeeperGateway.KeeperPage(device: "d", lineup: lineup, words: Self.ja)
        #expect(japanese.offlineOneText == "オフライン: この端末に1件の入力を保存中")
        #expect(japanese.offlineManyText == "オフライン: この端末に{count}件の入力を保存中")
    }

    @Test("the page and its views in Japanese and Korean: no English left of the keys the page uses", arguments: ["ja", "ko"])
    func translated(_ code: String) throws {
        let words = Words(try #require(Language(tag: code)))
        let page = Self.page(words)
        #expect(page.contains(#"<html lang="\#(code)">"#))
        // Every keeper key's English, whole or as escaped, is gone (the signs "+1", "FT" and
        // the lines of values alone aside).
        let same: Set<MessageKey> = [
            .keeperButtonOnePoint, .keeperButtonTwoPoints, .keeperButtonFreeThrow, .keeperPlay, .keeperAnnounce,
            .keeperAnnounceRefused, .listSeparator, .keeperPlayerLabel,
        ]
        let keys = MessageKey.allCases.filter { $0.rawValue.hasPrefix("keeper.") && !same.contains($0) }
        #expect(keys.count > 80)
        let shown = try Self.shown(page)
        #expect(shown.contains(Self.escaped(words(.keeperTaps))) && shown.count > 60, "\(shown)")
        for key in keys {
            let english = Self.escaped(Words.english(key, ["court": "Court 1"]))
            #expect(!shown.contains { $0.contains(english) }, "\(code) page leaves \(key.rawValue) in English: \(english)")
            #expect(words(key) != Words.english(key), "\(code) leaves \(key.rawValue) in English")
        }
        for english in ["Your taps", "Last plays", "Leave this court", "Start clock", "Time-out", "connecting", "Undo"] {
            #expect(!shown.contains { $0.contains(english) }, "\(english) left in the \(code) page")
        }
        // The views the script binds, in the page's language.
        let view = Self.view(words)
        let ann = view.home.players[0]
        let english = Self.view(.english)
        for (translated, original) in [
            (ann.countsText, english.home.players[0].countsText), (ann.label, english.home.players[0].label),
            (view.away.players[0].inactiveText ?? "", english.away.players[0].inactiveText ?? ""),
            (view.home.timeoutButtonText, english.home.timeoutButtonText), (view.clockActionText, english.clockActionText),
            (view.plays[0].listText, english.plays[0].listText), (view.plays[0].undoText, english.plays[0].undoText),
            (view.plays[3].undoLabel, english.plays[3].undoLabel),
        ] {
            #expect(translated != original, "\(code): \(translated)")
        }
        if code == "ja" {
            #expect(ann.countsText == "7点 · FT 1 · ファウル 1" && view.clockActionText == "時計スタート")
            #expect(view.plays[3].undoLabel == "Ann Averyの2点を取り消す" && view.plays[0].listText == "Bo +1（取り消し済み）")
            #expect(page.contains(#"<span data-code="game_finished">試合は終了しました。"#), "\(page)")
        } else {
            #expect(ann.label == "Ann Avery(Lions): 7점, 자유투 1개, 파울 1개" && view.clockActionText == "시계 시작")
            #expect(page.contains(#"<span data-code="player_inactive">그 선수는 비활성 상태입니다."#), "\(page)")
        }
    }

    /// Every code a keeper can meet (docs/PROTOCOL.md): the keeper API's, and the daemon's for
    /// the moves, retractions, clock and time-outs a keeper sends.
    static let keeperCodes: [CourtsideError.Code] = [
        .notJoined, .revoked, .deviceRevoked, .wrongCode, .tooManyAttempts, .slowDown, .forbidden, .badRequest, .messageTooLarge,
        .overloaded, .unreachable, .notActive, CourtsideError.Code(rawValue: "internal_error"), .unknownGame,
        .unknownPlayer, .playerNotInGame, .playerInactive, .gameFinished, .unknownEvent, .notAMove,
        .alreadyRetracted, .clockRunning, .clockNotRunning, .noTimeoutsLeft, .bracketLocked, .bracketPending,
        .storageFailure, .shuttingDown, .retryExpired, .unknownOperation, .badFrames,
    ]

    @Test("every refusal a keeper can meet has its words in every language; an unknown code reads as a refusal, not a code")
    func refusals() throws {
        let listed = Set(Refusals.keys.map(\.code))
        for code in Self.keeperCodes { #expect(listed.contains(code), "\(code) has no words") }
        for language in Catalogs.languages {
            let catalog = try #require(Catalogs.catalog(language))
            for (code, key) in Refusals.keys + [(CourtsideError.Code(rawValue: "?"), Refusals.other)] {
                #expect(catalog.has(key), "\(language) lacks the words of \(code)")
            }
        }
        #expect(Refusals.text(.gameFinished) == "The game is over: no more moves or clock changes.")
        #expect(Refusals.text(.playerInactive, words: Self.ko) == "그 선수는 비활성 상태입니다. 더 이상 기록할 수 없습니다.")
        let unknown = CourtsideError.Code(rawValue: "made_up_code")
        #expect(Refusals.text(unknown, words: Self.ja) == "記録サーバーに受け付けられませんでした。")
        // The page carries each listed code once, and the words for any other.
        let page = Self.page(Self.ja)
        for (code, key) in Refusals.keys {
            #expect(page.contains(#"<span data-code="\#(code.rawValue)">\#(Self.escaped(Self.ja(key)))</span>"#))
        }
        #expect(page.contains(#"data-refusal-other="記録サーバーに受け付けられませんでした。""#))
    }
}
