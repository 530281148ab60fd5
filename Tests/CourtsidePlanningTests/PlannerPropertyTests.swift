import CourtsideModel
import Testing

@testable import CourtsidePlanning

/// Random tournaments (seeded): 8 to 128 teams in one to three divisions, pools of 4 and a
/// knockout, on courts with random hours, games, changeovers and rests. Every plan holds every
/// constraint for every game, whatever the results, and never beats its lower bound.
@Suite struct PlannerPropertyTests {
    struct Case: CustomTestStringConvertible {
        let seed: UInt64
        var games: [GameToPlace] = []
        var venue = Venue(courts: [], start: TimeOfDay(minutes: 0), gameMinutes: 1, changeoverMinutes: 0, restMinutes: 0)
        var summary = ""

        init(seed: UInt64, teams: ClosedRange<Int>) {
            self.seed = seed
            var random = SeededRandom(seed: seed)
            let total = Int.random(in: teams, using: &random)
            let divisions = total >= 24 ? Int.random(in: 1...3, using: &random) : 1
            var left = total
            for division in 0..<divisions {
                let count =
                    division == divisions - 1
                    ? left : Int.random(in: 8...max(8, left - 8 * (divisions - 1 - division)), using: &random)
                left -= count
                games += SampleTournament.pools(
                    teams: count, prefix: "d\(division)-", division: "d\(division)",
                    qualifiers: Int.random(in: 1...2, using: &random),
                    bestOfNext: Int.random(in: 0...2, using: &random), namedByes: Bool.random(using: &random))
            }
            let start = 60 * Int.random(in: 8...10, using: &random)
            let courtCount = Int.random(in: max(1, total / 12)...max(2, min(16, total / 4)), using: &random)
            let courts = (1...courtCount).map { number -> Court in
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<2:
                    return Court("Court \(number)", from: TimeOfDay(minutes: start + 10 * Int.random(in: 1...12, using: &random)))
                case 2:
                    let pause = start + 10 * Int.random(in: 6...18, using: &random)
                    return Court(
                        "Court \(number)",
                        hours: [
                            Hours(until: TimeOfDay(minutes: pause)),
                            Hours(from: TimeOfDay(minutes: pause + 10 * Int.random(in: 3...9, using: &random))),
                        ])
                default: return Court("Court \(number)")
                }
            }
            venue = Venue(
                courts: courts, start: TimeOfDay(minutes: start), gameMinutes: Int.random(in: 7...12, using: &random),
                changeoverMinutes: Int.random(in: 0...5, using: &random), restMinutes: Int.random(in: 0...30, using: &random))
            summary = "seed \(seed): \(total) teams in \(divisions) division(s), \(games.count) games on \(courtCount) courts"
        }

        var testDescription: String { summary }
    }

    static let cases =
        (1...24).map { Case(seed: $0, teams: 8...40) } + (25...32).map { Case(seed: $0, teams: 41...90) }
        + (33...36).map { Case(seed: $0, teams: 91...128) }

    @Test(arguments: cases)
    func everyConstraintHoldsForEveryGame(_ test: Case) throws {
        let plan = try Planning.plan(test.games, venue: test.venue, effort: .quick)
        let violations = PlanCheck(games: test.games, venue: test.venue, plan: plan).violations(seed: test.seed)
        #expect(violations.isEmpty, "\(violations.prefix(10))")
        let figures = plan.figures
        #expect(figures.end >= figures.lowerBound)
        // Each bound is at least what the plainest count gives: the courts starting a game every
        // slot from the day's start, games and teams aside; the team with the most games playing
        // them one after another, a rest between each two.
        let venue = test.venue
        let rounds = (test.games.count + venue.courts.count - 1) / venue.courts.count
        #expect(figures.capacityBound.minutes >= venue.start.minutes + (rounds - 1) * venue.slotMinutes + venue.gameMinutes)
        var gamesOfTeam: [TeamID: Int] = [:]
        for game in test.games {
            for case .team(let team) in [game.home, game.away] { gamesOfTeam[team, default: 0] += 1 }
        }
        let most = try #require(gamesOfTeam.values.max())
        #expect(figures.chainBound.minutes >= venue.start.minutes + most * venue.gameMinutes + (most - 1) * venue.restMinutes)
        #expect((figures.smallestRest ?? test.venue.restMinutes) >= test.venue.restMinutes)
        #expect(figures.longestWait ?? 0 >= figures.medianLongestWait ?? 0)
    }

    @Test(arguments: cases.prefix(12))
    func aDayThatEndsAMinuteTooSoonSaysByHowMuch(_ test: Case) throws {
        let plan = try Planning.plan(test.games, venue: test.venue, effort: .quick)
        var venue = test.venue
        venue.end = plan.figures.end.adding(-1)
        do {
            _ = try Planning.plan(test.games, venue: venue, effort: .quick)
            Issue.record("planned by \(venue.end)")
        } catch {
            #expect(error.code == .doesNotFit)
            #expect(error.endWithCourtsGiven == plan.figures.end)
            if let needed = error.courtsNeeded {
                #expect(needed > venue.courts.count)
                venue.courts += (venue.courts.count..<needed).map { Court("Extra \($0)") }
                let wider = try Planning.plan(test.games, venue: venue, effort: .quick)
                #expect(wider.figures.end <= venue.end)
            } else {
                #expect(error.message.contains("more courts cannot help"))
            }
        }
    }
}
