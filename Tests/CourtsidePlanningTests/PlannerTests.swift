import CourtsideModel
import Testing

@testable import CourtsidePlanning

/// The constraints, one small hand-made case each: games of 10 minutes plus 4 of changeover,
/// 20 minutes of rest, from 09:00.
@Suite struct PlannerTests {
    @Test func aTeamNeverPlaysTwiceAtOnceNorWithoutItsRest() throws {
        let games = [game("g1", .team("a"), .team("b")), game("g2", .team("a"), .team("c")), game("g3", .team("d"), .team("e"))]
        let plan = try checkedPlan(games, testVenue())
        let times = Set([startText(plan, "g1"), startText(plan, "g2")])
        #expect(times == ["09:00", "09:30"], "a plays at 09:00, rests 20 minutes after 09:10, plays at 09:30")
        #expect(plan.figures.end == time("09:40"))
        #expect(plan.figures.lowerBound == time("09:40"))
        #expect(plan.figures.smallestRest == 20)
    }

    @Test func aGameWaitsForTheGamesThatFeedItAndTheTwoResultsOfAGameAreDifferentTeams() throws {
        let games = [
            game("sf1", .team("a"), .team("b")), game("sf2", .team("c"), .team("d")),
            game("final", .winner(of: "sf1"), .winner(of: "sf2")), game("third", .loser(of: "sf1"), .loser(of: "sf2")),
        ]
        let plan = try checkedPlan(games, testVenue())
        #expect(["sf1", "sf2"].map { startText(plan, $0) } == ["09:00", "09:00"])
        #expect(["final", "third"].map { startText(plan, $0) } == ["09:30", "09:30"], "at once: no team can be in both")
        let figures = plan.figures
        #expect(figures.end == time("09:40"))
        #expect(figures.lowerBound == time("09:40"))
        #expect(figures.capacityBound == time("09:24"))
        #expect(figures.chainBound == time("09:40"))
        #expect(figures.longestWait == 20)
        #expect(figures.smallestRest == 20)
        #expect(figures.ratio == 1)
    }

    @Test func knockoutGamesOfDifferentRanksOfOnePoolMayBePlayedAtOnce() throws {
        var games: [GameToPlace] = []
        for pool in ["A", "B"] {
            let teams = (1...4).map { Slot.team(TeamID("\(pool)\($0)")) }
            for (number, pair) in [(0, 1), (2, 3), (0, 2), (1, 3), (0, 3), (1, 2)].enumerated() {
                games.append(game(GameID("\(pool)\(number)"), teams[pair.0], teams[pair.1], group: pool))
            }
        }
        games.append(game("qf1", .groupRank(group: "A", rank: 1), .groupRank(group: "B", rank: 2)))
        games.append(game("qf2", .groupRank(group: "B", rank: 1), .groupRank(group: "A", rank: 2)))
        let plan = try checkedPlan(games, testVenue(courts: 4))
        #expect(startText(plan, "qf1") == startText(plan, "qf2"))
        let lastPoolGame = games.filter { $0.group != nil }.compactMap { plan.placement(of: $0.id)?.end }.max()
        #expect(plan.placement(of: "qf1")?.start == lastPoolGame?.adding(20), "a rest after the pools' last game")
    }

    @Test func aTeamNamedInALaterGameRestsFromAGameItDoesNotWaitFor() throws {
        // g2 does not wait for g3, but a plays g3 and may win g1 into g2.
        let games = [
            game("g1", .team("a"), .team("b")), game("g2", .winner(of: "g1"), .team("c")), game("g3", .team("a"), .team("d")),
        ]
        let plan = try checkedPlan(games, testVenue(courts: 3))
        let starts = ["g2", "g3"].compactMap { plan.placement(of: $0)?.start.minutes }
        #expect(abs(starts[0] - starts[1]) >= 30)
        #expect(plan.figures.end == time("10:10"))
    }

    @Test func courtsKeepTheirHours() throws {
        var venue = testVenue()
        venue.courts = [
            Court("Court 1", hours: [Hours(until: time("09:30")), Hours(from: time("10:00"))]),
            Court("Court 2", from: time("09:20")),
        ]
        let games = (1...8).map { game(GameID("g\($0)"), .team(TeamID("h\($0)")), .team(TeamID("a\($0)"))) }
        let plan = try checkedPlan(games, venue)
        for placement in plan.placements where placement.court == "Court 2" { #expect(placement.start >= time("09:20")) }
        for placement in plan.placements where placement.court == "Court 1" {
            #expect(placement.end <= time("09:30") || placement.start >= time("10:00"))
        }
        // Court 1: 09:00, 09:14, then 10:00, 10:14; Court 2: 09:20, 09:34, 09:48, 10:02: the
        // eighth game starts at 10:14 at the earliest.
        #expect(plan.figures.capacityBound == time("10:24"))
        #expect(plan.figures.end == time("10:24"))
    }

    @Test func divisionsTakeTurnsOnSharedCourts() throws {
        let open = SampleTournament.pools(teams: 8, prefix: "o-", division: "open")
        let women = SampleTournament.pools(teams: 8, prefix: "w-", division: "women")
        let games = open + women
        let plan = try checkedPlan(games, testVenue(courts: 2))
        var spans: [String: (first: TimeOfDay, last: TimeOfDay)] = [:]
        for division in ["open", "women"] {
            let starts = games.filter { $0.division == division }.compactMap { plan.placement(of: $0.id)?.start }
            spans[division] = (starts.min() ?? .endOfDay, starts.max() ?? .endOfDay)
            #expect(starts.min().map { $0 <= time("09:14") } == true, "\(division) starts in the first slots")
        }
        #expect(Set(plan.figures.divisionEnds.keys) == ["open", "women"])
        let ends = plan.figures.divisionEnds.values.map(\.minutes)
        #expect((ends.max() ?? 0) - (ends.min() ?? 0) <= 30, "neither division waits for the other to finish")
        #expect(plan.figures.ratio <= 1.05)
    }

    @Test func eachTeamsGamesAreSpreadOverTheCourts() throws {
        let games = SampleTournament.pools(teams: 16)
        let plan = try checkedPlan(games, testVenue(courts: 8))
        #expect(plan.figures.courtRepeats == 0)
        #expect(plan.figures.mostGamesOnOneCourt == 1, "3 pool games each on a court of its own")
    }

    @Test func theIssuesEventFitsItsDay() throws {
        // Issue 38: Open, 16 teams in 4 pools of 4, the top 2 into a knockout with a game for
        // third place; Women, 8 teams in 2 pools, then semi-finals and a final (and here a game
        // for third place too); 4 courts from 09:00 to 17:00.
        let games =
            SampleTournament.pools(teams: 16, prefix: "open-", division: "open")
            + SampleTournament.pools(teams: 8, prefix: "women-", division: "women")
        let plan = try checkedPlan(games, testVenue(courts: 4, end: "17:00"))
        #expect(games.count == 48)
        #expect(plan.figures.end <= time("13:00"))
        #expect(plan.figures.ratio <= 1.05)
        for division in ["open", "women"] {
            let first = games.filter { $0.division == division }.compactMap { plan.placement(of: $0.id)?.start }.min()
            #expect(first == time("09:00"), "\(division) starts at once")
        }
    }

    @Test func thePlanIsAppliedToTheSchedule() throws {
        let scheduled = [
            ScheduledGame(id: "g1", home: .team("a"), away: .team("b")),
            ScheduledGame(id: "g2", home: .team("a"), away: .team("c"), court: "Old", start: "08:00"),
            ScheduledGame(id: "other", home: .team("x"), away: .team("y")),
        ]
        let plan = try Planning.plan(scheduled.prefix(2).map { GameToPlace($0) }, venue: testVenue())
        let applied = plan.applied(to: scheduled)
        #expect(applied.map(\.start) == ["09:00", "09:30", nil])
        #expect(applied.map(\.court) == ["Court 1", plan.placement(of: "g2")?.court, nil])
        #expect(applied[1].court != "Old")
    }

    @Test func aScheduledGameIsPlacedInItsOwnDivision() {
        let scheduled = ScheduledGame(id: "o1", home: .team("a"), away: .winner(of: "o0"), group: "open-A", division: "open")
        let game = GameToPlace(scheduled)
        #expect(game == GameToPlace(id: "o1", home: .team("a"), away: .winner(of: "o0"), group: "open-A", division: "open"))
        #expect(GameToPlace(ScheduledGame(id: "g", home: .team("a"), away: .team("b"))).division == nil)
    }

    @Test func theSameGamesAndVenueGiveTheSamePlan() throws {
        let games = SampleTournament.pools(teams: 24, bestOfNext: 2)
        let venue = testVenue(courts: 3)
        #expect(try Planning.plan(games, venue: venue) == Planning.plan(games, venue: venue))
    }

    @Test func noGamesIsAnEmptyPlan() throws {
        let plan = try Planning.plan([], venue: testVenue())
        #expect(plan.placements.isEmpty)
        #expect(plan.figures.end == time("09:00"))
        #expect(plan.figures.longestWait == nil)
    }

    @Test func timesOfDay() {
        #expect(TimeOfDay("9:05")?.minutes == 545)
        #expect(TimeOfDay("09:05")?.description == "09:05")
        #expect(TimeOfDay("24:00") == nil)
        #expect(TimeOfDay("9h05") == nil)
        #expect(TimeOfDay.endOfDay.description == "24:00")
        #expect(TimeOfDay(minutes: 25 * 60 + 10).description == "01:10 the next day")
    }
}
