import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import Foundation
import Testing

/// The day slips on the real daemon and gateway: a game not started at its time puts the next
/// on its court back, a team's page and the court's "next on" line say when, and the desk offers
/// a court that stands free; the move, once confirmed, starts the game there now.
@Suite("estimates as the day slips, on the real daemon", .serialized, .timeLimit(.minutes(3)))
struct LiveEstimatesTests {
    /// A time of day `offset` minutes from now, as the schedule writes it.
    static func clock(_ offset: Int, from now: Date) -> String {
        let time = Calendar.current.dateComponents([.hour, .minute], from: now.addingTimeInterval(Double(offset) * 60))
        return String(format: "%02d:%02d", time.hour ?? 0, time.minute ?? 0)
    }

    @Test(
        "a late court moves its next game's estimate; the team's page and the court's line say so; a free court is offered and the move confirmed"
    )
    func slippingDay() async throws {
        let now = Date()
        let minute = Calendar.current.dateComponents([.hour, .minute], from: now)
        let ofDay = (minute.hour ?? 0) * 60 + (minute.minute ?? 0)
        // The schedule spans two hours around now: too near midnight, the day would wrap.
        guard (60...(24 * 60 - 120)).contains(ofDay) else { return }
        let at = { Self.clock($0, from: now) }
        // 10-minute games, 4 between, 20 of rest. Court 2: g3 (Lions v Tigers) just ended, and its
        // next game is an hour away. Court 1: g1 (Lions v Tigers again) was due 5 minutes ago:
        // its teams rest until now + 20; g2 (Bears v Wolves) follows at +9.
        let schedule = """
            timing: {game_minutes: 10, changeover_minutes: 4, rest_minutes: 20}
            games:
              - { id: g1, home: lions, away: tigers, court: Court 1, start: "\(at(-5))" }
              - { id: g2, home: bears, away: wolves, court: Court 1, start: "\(at(9))" }
              - { id: g3, home: lions, away: tigers, court: Court 2, start: "\(at(-40))" }
              - { id: g4, home: tigers, away: wolves, court: Court 2, start: "\(at(60))" }
            """
        let (daemon, web) = try await DeskTests.deskOn(schedule: schedule)
        let keeper = try Keeper(daemon.commandEndpoint)
        _ = try keeper.send(.endGame(game: "g3", result: .asItStands, reason: "played early"))

        // The gateway's copy has when g3 really ended, as the daemon's snapshot does.
        let g3 = try #require(try keeper.send(.snapshot(game: "g3")).snapshot?.first)
        let listed = try await poll(seconds: 10) {
            let (_, body) = try await web.get("/api/games")
            let games = (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["games"] as? [[String: Any]]
            let state = games?.first { $0["game"] as? String == "g3" }?["state"] as? [String: Any]
            return (state?["ended_at"] as? NSNumber)?.int64Value
        } until: {
            $0 != nil
        }
        #expect(
            listed != nil && listed == g3.endedAt?.rawValue, "\(String(describing: listed)) vs \(String(describing: g3.endedAt))")

        // Bears play g2 after g1's expected end: g1 at now + 20 (its teams' rest), g2 at + 34.
        let bears = try await poll(seconds: 10) {
            let (_, body) = try await web.get("/teams/bears")
            return String(decoding: body, as: UTF8.self)
        } until: {
            $0.contains("min late: scheduled \(at(9))")
        }
        #expect(bears.contains("min late: scheduled \(at(9))"), "\(bears)")
        let expected = try #require(bears.firstMatch(of: #/data-field="expected-start">(\d\d:\d\d)</#)?.output.1)
        #expect(expected >= at(33) && expected <= at(35), "g2 expected at \(expected): g1 at now + 20, 10 minutes and 4")

        // The desk offers Court 2 for g2, and the move, confirmed, is made.
        let desk = Phone(web.base)
        _ = try await DeskTests.post(desk, "/desk/login", [("passphrase", DeskTests.passphrase), ("name", "Main desk")])
        let (_, page) = try await DeskTests.getHTML(desk, "/desk")
        #expect(page.contains("Court 2 is free: move g2"), "\(page)")
        #expect(page.contains("next on Court 1: Bears v Wolves, about \(expected)"), "\(page)")
        let offer = try #require(
            page.firstMatch(of: #/<li data-game="g2">.*?</form>/#.dotMatchesNewlines())?.output, "no offer for g2")
        let (_, review) = try await DeskTests.postHTML(desk, "/desk/schedule/review", DeskTests.hiddenFields(String(offer)))
        #expect(review.contains("Court 2"), "\(review)")
        let done = try await DeskTests.post(desk, "/desk/schedule/confirm", DeskTests.hiddenFields(review))
        #expect((done.headers["Location"] as? String ?? "").hasPrefix("/desk/schedule?done="), "\(done)")
        let g2 = try #require(try keeper.send(.snapshot(game: "g2")).snapshot?.first)
        #expect(g2.setup.court == "Court 2")
        let moved = try #require(try keeper.send(.tournament).tournament?.games.first { $0.id == "g2" })
        #expect(moved.court == "Court 2" && moved.start != at(9), "\(moved)")
        withExtendedLifetime(daemon) {}
    }
}
