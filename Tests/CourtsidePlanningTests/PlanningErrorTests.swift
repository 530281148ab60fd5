import CourtsideModel
import Testing

@testable import CourtsidePlanning

/// Games that do not fit say by how much; unusable input says what is wrong.
@Suite struct PlanningErrorTests {
    static func expectError(
        _ games: [GameToPlace], _ venue: Venue, code: PlanningError.Code, sourceLocation: SourceLocation = #_sourceLocation
    ) -> PlanningError? {
        do {
            _ = try Planning.plan(games, venue: venue)
            Issue.record("planned, expected \(code)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, sourceLocation: sourceLocation)
            return error
        }
        return nil
    }

    static let neverFilled = Slot.bestOfRank(rank: 3, place: 0, groups: ["A"])

    static func independent(_ count: Int) -> [GameToPlace] {
        (1...count).map { game(GameID("g\($0)"), .team(TeamID("h\($0)")), .team(TeamID("a\($0)"))) }
    }

    @Test func aDayTooShortSaysHowManyCourtsOrHowLong() throws {
        // Two courts hold two games each by 09:30 (09:00 and 09:14); six games need a third
        // court, or a third round on two courts (09:28, ending 09:38).
        let error = Self.expectError(Self.independent(6), testVenue(end: "09:30"), code: .doesNotFit)
        #expect(error?.message == "6 games do not fit on 2 courts by 09:30: needs 3 courts, or until 09:38")
        #expect(error?.courtsNeeded == 3)
        #expect(error?.endWithCourtsGiven == time("09:38"))
        #expect(error?.description.hasPrefix("does_not_fit: ") == true)
    }

    @Test func theCourtsItNeedsFitTheGames() throws {
        let games = SampleTournament.pools(teams: 24)
        let venue = testVenue(courts: 2, end: "13:00")
        let error = Self.expectError(games, venue, code: .doesNotFit)
        let needed = try #require(error?.courtsNeeded)
        var more = venue
        more.courts = (1...needed).map { Court("Court \($0)") }
        let plan = try Planning.plan(games, venue: more, effort: .quick)
        #expect(plan.figures.end <= venue.end)
        more.courts.removeLast()
        #expect(throws: PlanningError.self) { try Planning.plan(games, venue: more, effort: .quick) }
        let end = try #require(error?.endWithCourtsGiven)
        var longer = venue
        longer.end = end
        #expect(try Planning.plan(games, venue: longer).figures.end == end)
    }

    @Test func moreCourtsCannotShortenAChain() throws {
        let games = [
            game("g1", .team("a"), .team("b")), game("g2", .winner(of: "g1"), .team("c")),
            game("g3", .winner(of: "g2"), .team("d")),
        ]
        let error = Self.expectError(games, testVenue(end: "09:45"), code: .doesNotFit)
        #expect(
            error?.message
                == "3 games do not fit on 2 courts by 09:45: needs until 10:10; more courts cannot help, the longest chain of dependent games alone ends at 10:10"
        )
        #expect(error?.courtsNeeded == nil)
        #expect(error?.endWithCourtsGiven == time("10:10"))
    }

    @Test func courtsThatCloseEarlyLeaveNoTimeToName() throws {
        var venue = testVenue(courts: 1, end: "17:00")
        venue.courts = [Court("Court 1", from: nil, until: time("09:30"))]
        let error = Self.expectError(Self.independent(4), venue, code: .doesNotFit)
        #expect(error?.courtsNeeded == 2)
        #expect(error?.endWithCourtsGiven == nil)
        #expect(
            error?.message
                == "4 games do not fit on 1 court by 17:00: needs 2 courts (the courts' closing hours leave no room for every game, however long the day)"
        )
    }

    @Test(arguments: [
        ([game("g1", .team("a"), .team("b")), game("g1", .team("c"), .team("d"))], "game g1 is given twice"),
        ([game("g1", .winner(of: "g0"), .team("b"))], "game g1: winner of g0 is not among the games to place"),
        ([game("g1", .team("a"), .team("a"))], "game g1: a plays against itself"),
        ([game("g1", .groupRank(group: "Z", rank: 1), .team("a"))], "game g1: group Z has no game among the games to place"),
        (
            [game("g1", .winner(of: "g2"), .team("a")), game("g2", .winner(of: "g1"), .team("b"))],
            "games g1 → g2 → g1 wait on each other's results"
        ),
        (
            [
                game("g1", .team("a"), .team("b"), group: "A"),
                game("g2", .groupRank(group: "A", rank: 1), .team("c"), group: "A"),
            ],
            "game g2 waits for its own result"
        ),
        (
            [game("g1", .team("a"), .team("b"), group: "A"), game("g2", PlanningErrorTests.neverFilled, .team("c"))],
            "game g2: \(PlanningErrorTests.neverFilled) can never be filled"
        ),
    ])
    func gamesThatCannotBePlanned(games: [GameToPlace], message: String) {
        #expect(Self.expectError(games, testVenue(), code: .invalidGames)?.message == message)
    }

    @Test func unusableVenues() {
        let games = Self.independent(2)
        var venue = testVenue()
        venue.courts = []
        #expect(Self.expectError(games, venue, code: .invalidVenue)?.message == "the venue has no courts")
        venue.courts = [Court("Court 1"), Court("Court 1")]
        #expect(Self.expectError(games, venue, code: .invalidVenue)?.message == "court Court 1 is given twice")
        venue.courts = [Court("Court 1", from: time("12:00"), until: time("11:00"))]
        #expect(
            Self.expectError(games, venue, code: .invalidVenue)?.message
                == "court Court 1: its hours end (11:00) before they start (12:00)")
        venue = testVenue(rest: -1)
        #expect(Self.expectError(games, venue, code: .invalidVenue)?.message == "the rest cannot be negative (-1 minutes)")
        venue = testVenue(end: "08:00")
        #expect(Self.expectError(games, venue, code: .invalidVenue)?.message == "the day ends (08:00) before it starts (09:00)")
    }
}
