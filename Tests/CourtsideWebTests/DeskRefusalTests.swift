import CourtsideEvent
import CourtsideLocalization
import CourtsideModel
import CourtsidePlanning
import CourtsideProtocol
import Logging
import Synchronization
import Testing

@testable import CourtsideWeb

/// The desk's refusals and the Setup preview's problems in the page's language: the catalog's
/// words for a refusal's code, the change as the desk sent it for which game or player, and the
/// daemon's English only in the log; the CSV reader's and the planner's problems from their values.
@Suite("The desk's refusals and the planner's problems, worded by code")
struct DeskRefusalTests {
    static let (ja, ko) = (DeskWordsTests.ja, DeskWordsTests.ko)

    /// A log kept in memory: each entry's message and metadata.
    final class Recorded: Sendable {
        let entries = Mutex<[(message: String, metadata: Logger.Metadata)]>([])
        var logger: Logger {
            Logger(label: "test") { _ in Handler(recorded: self) }
        }

        struct Handler: LogHandler {
            let recorded: Recorded
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(event: LogEvent) {
                recorded.entries.withLock { $0.append((event.message.description, event.metadata ?? [:])) }
            }
        }
    }

    /// Every code a command of the desk's can be refused with (docs/PROTOCOL.md): the protocol's,
    /// the relay's, and the daemon's for forfeits, early ends, corrections, tournament changes,
    /// scheduled games and a published draw.
    static let deskCodes: [CourtsideError.Code] = [
        .badRequest, .badFrames, .messageTooLarge, .unknownOperation, .forbidden, .unknownGame, .unknownPlayer,
        .playerNotInGame, .unknownTeam, .gameFinished, .unknownEvent, .notAMove, .alreadyRetracted, .gameExists,
        .bracketLocked, .invalidReason, .invalidGame, .invalidText, .teamExists, .playerExists, .gameStarted,
        .stageStarted, .storageFailure, .shuttingDown, .notActive, .retryExpired, .overloaded,
        CourtsideError.Code(rawValue: "internal_error"),
        .unreachable, .protocolViolation, .badKey, .notSignedIn,
    ]

    @Test("every code the desk can meet has its words in every language, one table with the keeper's")
    func everyCode() throws {
        let listed = Set(Refusals.keys.map(\.code))
        for code in Self.deskCodes { #expect(listed.contains(code), "\(code) has no words") }
        #expect(listed.count == Refusals.keys.count, "a code listed twice")
        for language in Catalogs.languages {
            let catalog = try #require(Catalogs.catalog(language))
            for (code, key) in Refusals.keys { #expect(catalog.has(key), "\(language) lacks the words of \(code)") }
        }
    }

    @Test("a refusal in Japanese: the catalog's words for its code and the change as sent; the daemon's English only in the log")
    func refusedInJapanese() {
        let recorded = Recorded()
        let change = DeskChange(
            page: .teams,
            operation: .changeTournament(.playerAdded(team: "tigers", player: Player(id: "bo", name: "Bo Two")), reason: nil))
        let summary = change.summary(Self.ja)
        let text = DeskRefusal.refused(
            CourtsideError(.playerExists, "player bo plays for lions"), summary: summary, words: Self.ja,
            logger: recorded.logger)
        #expect(
            text == "実行できませんでした: \(summary)。このIDの選手はすでに大会に出場しています。選手IDはチームごとではなく大会全体で一つです。",
            "\(text)")
        #expect(summary.contains("bo") && summary.contains("tigers") && !text.contains("plays for lions"))
        let logged = recorded.entries.withLock { $0 }
        #expect(logged.count == 1)
        #expect(logged.first?.metadata["error.message"] == "player bo plays for lions")
        #expect(logged.first?.metadata["error.code"] == "player_exists")

        // Unanswered, in Korean: the relay's code in words, to confirm again.
        let lost = DeskRefusal.notSent(
            CourtsideError(.unreachable, "no answer after 2 tries"), words: Self.ko, logger: recorded.logger)
        #expect(lost == "전송되지 않았습니다: 기록 서버가 제때 응답하지 않았습니다. 다시 시도하세요. 다시 확정하세요. 한 번만 적용됩니다.", "\(lost)")
        // A code no catalog lists reads as a refusal, never as the code.
        let odd = DeskRefusal.refused(
            CourtsideError(.init(rawValue: "made_up"), "?"), summary: "g1", words: .english, logger: recorded.logger)
        #expect(odd == "Not done: g1. The scoring server refused this." && !odd.contains("made_up"))
        // A form's text the model's rule refuses: the catalog's words, the rule's English logged.
        let form = DeskRefusal.form(
            CourtsideError(.invalidText, "court: contains U+0000, a control character"), words: Self.ja,
            logger: recorded.logger)
        #expect(form == Refusals.text(.invalidText, words: Self.ja) && !form.contains("U+0000"))
        #expect(recorded.entries.withLock { $0.last?.metadata["error.message"] } == "court: contains U+0000, a control character")
    }

    @Test("the planner's and the CSV reader's problems in Korean, from their values; the English unchanged for the CLI")
    func plannerProblemInKorean() throws {
        let csv = try DeskSetupTests.teamsCSV()
        var fields = DeskSetupTests.fields(csv: csv)
        fields["end"] = "10:30"
        let late = try #require(DeskSetupTests.review(fields).failure)
        guard case .doesNotFit(let games, let courts, let end, _, let until?) = late.event else {
            Issue.record("\(late) has no values")
            return
        }
        #expect(games == 47 && courts == 4 && "\(end)" == "10:30")
        #expect(late.message.hasPrefix("does_not_fit: 47 games do not fit on 4 courts by 10:30: needs until "))
        let korean = late.text(Self.ko)
        #expect(korean.hasPrefix("47경기가 코트 4면에서 10:30까지 끝나지 않습니다. ") && korean.contains("\(until)"), "\(korean)")
        #expect(
            EventProblem.doesNotFit(
                games: 1, courts: 1, end: TimeOfDay(minutes: 600), courtsNeeded: 2, until: TimeOfDay(minutes: 660)
            ).text(.english) == "1 game does not fit on 1 court by 10:00: it needs 2 courts, or until 11:00")

        // A format that needs more teams than the division has: its name and its teams' count.
        var pools = DeskSetupTests.fields(csv: csv)
        pools["division-1-pools"] = "5"
        let few = try #require(DeskSetupTests.review(pools).failure)
        guard case .format("Women", let teams, .tooFewTeams) = few.event else {
            Issue.record("\(few)")
            return
        }
        #expect(few.text(Self.ko) == "Women: \(teams)팀으로는 이 방식에 부족합니다(조마다 2팀, 토너먼트는 진출 2팀이 필요합니다)")

        var lines = csv.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[3] = "open,\"Broken\" Team,Ann,Bo,Cy,,100,Club"
        let broken = try #require(DeskSetupTests.review(DeskSetupTests.fields(csv: lines.joined(separator: "\n"))).failure)
        #expect(broken.event == .csv(file: SetupForm.csvName, line: 4, .textAfterQuote))
        #expect(broken.text(Self.ko) == "registration.csv 4행: 따옴표 칸의 닫는 따옴표 뒤에 글자가 있습니다")
        #expect(broken.text(.english) == "registration.csv line 4: text after the closing quote of a quoted field")
        // The page shows it in its language, at the top and on the CSV's field.
        let html = Pages.render("desk-setup", DeskSetupPage(SetupForm(fields), problem: broken, words: Self.ko))
        #expect(html.contains("따옴표 칸의 닫는 따옴표 뒤에 글자가 있습니다") && !html.contains("closing quote"))
        // A division cell that names none of the event's: the team and the divisions, in Japanese.
        lines = csv.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[1] = lines[1].replacingOccurrences(of: "open,", with: "opne,")
        let astray = try #require(DeskSetupTests.review(DeskSetupTests.fields(csv: lines.joined(separator: "\n"))).failure)
        #expect(
            astray.text(Self.ja)
                == "ファイルregistration.csv: チームHarbour Hawks: 部門が大会のどの部門（open (Open), women (Women)）でもありません",
            "\(astray.text(Self.ja))")
        #expect(
            CSVProblem.idTwice(id: "owls", firstLine: 3).text(Self.ja) == "別のチーム（3行目）が同じID「owls」です"
                && CSVProblem.unusableText(.player(2)).text(Self.ko).hasPrefix("선수 2을(를) 쓸 수 없습니다."))
    }
}
