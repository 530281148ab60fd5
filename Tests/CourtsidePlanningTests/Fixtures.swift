import CourtsideModel
import Testing

@testable import CourtsidePlanning

/// The hand-made cases' venue: games of 10 minutes plus 4 of changeover, 20 minutes of rest,
/// from 09:00.
func testVenue(courts: Int = 2, end: String = "24:00", rest: Int = 20) -> Venue {
    Venue(
        courts: (1...courts).map { Court("Court \($0)") }, start: time("09:00"), end: TimeOfDay(end) ?? .endOfDay,
        gameMinutes: 10, changeoverMinutes: 4, restMinutes: rest)
}

func time(_ text: String) -> TimeOfDay { TimeOfDay(text) ?? TimeOfDay(minutes: -1) }

func game(_ id: GameID, _ home: Slot, _ away: Slot, group: String? = nil, division: String? = nil) -> GameToPlace {
    GameToPlace(id: id, home: home, away: away, group: group, division: division)
}

/// The plan, after checking it against the oracle.
func checkedPlan(_ games: [GameToPlace], _ venue: Venue, sourceLocation: SourceLocation = #_sourceLocation) throws -> Plan {
    let plan = try Planning.plan(games, venue: venue)
    let violations = PlanCheck(games: games, venue: venue, plan: plan).violations()
    #expect(violations.isEmpty, "\(violations)", sourceLocation: sourceLocation)
    return plan
}

/// A game's start as the schedule writes it, or "-".
func startText(_ plan: Plan, _ game: GameID) -> String { plan.placement(of: game)?.start.description ?? "-" }
