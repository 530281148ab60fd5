import CourtsideModel
import CourtsideViewModels
import Foundation
import Testing

@testable import CourtsideWeb

@Suite("Each court's delay and next game on the big screen and a court's TV")
struct CourtLinesTests {
    static let lions = Team(id: "lions", name: "Lions", players: [Player(id: "ann", name: "Ann")])
    static let tigers = Team(id: "tigers", name: "Tigers", players: [Player(id: "di", name: "Di")])

    /// g1 and g3 on Court 1, g2 on Court 2, none started.
    static var view: LiveTournament.View {
        var view = LiveTournament.View()
        view.inSync = true
        for (id, court, home, away) in [
            ("g1", "Court 1", lions, tigers), ("g2", "Court 2", lions, tigers), ("g3", "Court 1", tigers, lions),
        ] {
            view.games[GameID(id)] = Game(setup: GameSetup(id: GameID(id), home: home, away: away, court: court))
        }
        return view
    }

    static func line(_ court: String, next: String?) -> CourtNow {
        var view = Self.view
        if next == nil { view.games["g3"] = nil }
        return view.courtNow(CourtLineup(court: court, bracket: [], games: view.games))
    }

    @Test("the courts in the order the schedule and the games name them; a game's court, created or only scheduled")
    func courts() {
        var view = Self.view
        view.bracket = [
            BracketEntry(
                game: "g9", round: "final", group: nil, court: "Centre", start: "18:00", home: .winner(of: "g1"),
                away: .winner(of: "g2"), homeTeam: nil, awayTeam: nil, state: .pending, score: nil, winner: nil)
        ]
        #expect(view.courts == ["Centre", "Court 1", "Court 2"])
        #expect(view.court(of: "g9") == "Centre" && view.court(of: "g3") == "Court 1" && view.court(of: "nope") == nil)
        let centre = view.courtNow(view.lineups[0])
        #expect(centre.current?.game == "g9" && centre.delayText != nil, "a scheduled time gives a delay")
    }

    @Test("a court's TV shows its court's next game; the big screen every court's, rendered on the server")
    func pages() {
        let court = Pages.court(Self.view, game: "g1")
        #expect(court.contains(#"data-field="court-now" data-court="Court 1""#), "\(court)")
        #expect(court.contains(#"<span class="upcoming" data-field="next-on">next on Court 1: Tigers v Lions</span>"#))
        let all = Pages.allGames(Self.view)
        #expect(all.contains(#"<li data-court="Court 1"><span class="name">Court 1</span>"#), "\(all)")
        #expect(all.contains(#"<span class="upcoming">next on Court 1: Tigers v Lions</span>"#))
        #expect(
            all.contains(
                #"<li data-court="Court 2"><span class="name">Court 2</span> <span class="delay"></span> <span class="upcoming"></span>"#
            ))
    }

    @Test(
        "the stream's full state carries each court's CourtNow, and so does its own `courts` event, as the view models name them")
    func stream() throws {
        let state = try #require(EventStreamMessage(.state(Self.view)))
        let text = String(buffer: state.buffer)
        #expect(text.contains(#""courts":[{"#) && text.contains(#""nextLine":"next on Court 1: Tigers v Lions""#), "\(text)")
        let courts = try #require(EventStreamMessage(.courts([Self.line("Court 1", next: "g3")])))
        let event = String(buffer: courts.buffer)
        #expect(event.hasPrefix("event: courts\ndata: {\"courts\":[{"), "\(event)")
        #expect(event.contains(#""court":"Court 1""#) && event.contains(#""nextLine":"next on Court 1: Tigers v Lions""#))
    }

    @Test("the lines go out again when they changed: looked at a second after a change of the view, every few seconds besides")
    func watch() {
        let start = Date(timeIntervalSince1970: 1_000)
        let before = [Self.line("Court 1", next: "g3")], after = [Self.line("Court 1", next: nil)]
        var watch = CourtLinesWatch(sent: before, now: start)
        var looked = 0
        let lines = { (lines: [CourtNow]) in
            { () -> [CourtNow] in
                looked += 1
                return lines
            }
        }
        let at = { (seconds: TimeInterval) in start.addingTimeInterval(seconds) }
        #expect(watch.check(viewChanged: false, now: at(1), lines: lines(after)) == nil && looked == 0, "not time yet")
        #expect(watch.check(viewChanged: true, now: at(1.5), lines: lines(before)) == nil && looked == 1)
        #expect(watch.sent == before, "the view changed, the lines did not")
        #expect(watch.check(viewChanged: true, now: at(2), lines: lines(after)) == nil && looked == 1, "not twice a second")
        #expect(watch.check(viewChanged: false, now: at(2.5), lines: lines(after)) == after && looked == 2, "the change, served")
        #expect(watch.sent == after)
        let due = at(2.5 + CourtLinesWatch.interval)
        #expect(watch.check(viewChanged: false, now: due.addingTimeInterval(-0.5), lines: lines(before)) == nil && looked == 2)
        #expect(watch.check(viewChanged: false, now: due, lines: lines(before)) == before, "the time alone moved them")
    }
}
