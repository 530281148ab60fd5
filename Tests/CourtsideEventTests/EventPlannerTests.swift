import CourtsideEvent
import CourtsideModel
import CourtsidePlanning
import Foundation
import Testing

/// An event described in a few lines, drawn and fitted to the courts: the organiser's 3x3 day
/// of the issue (Open, 16 teams in 4 pools and an 8-team knockout with a game for third place;
/// Women, 8 teams in 2 pools, semi-finals and a final; 4 courts, 09:00 to 17:00, 10 + 4 minutes,
/// 20 minutes of rest).
@Suite("An event drawn and planned")
struct EventPlannerTests {
    static func listed(_ prefix: String, _ count: Int) -> [ListedTeam] {
        (1...count).map { number in
            ListedTeam(
                name: "\(prefix) \(number)", players: (1...3).map { "\(prefix) \(number) player \($0)" },
                rankingPoints: Double(1000 - number * 10), club: "club \(number % 3)")
        }
    }

    static func event(
        open: FormatDescription = FormatDescription(.poolsKnockout, pools: 4, qualifiers: 2, thirdPlace: true),
        women: FormatDescription = FormatDescription(.poolsKnockout, pools: 2, qualifiers: 2, thirdPlace: false),
        courts: Int = 4, end: String = "17:00"
    ) -> EventDescription {
        EventDescription(
            tournament: "Summer 3x3", courts: (1...courts).map { CourtDescription("Court \($0)") }, start: "09:00", end: end,
            gameMinutes: 10, changeoverMinutes: 4, restMinutes: 20, rules: "fiba3x3",
            divisions: [
                DivisionDescription(id: "open", name: "Open", teams: .list(listed("Open", 16)), format: open),
                DivisionDescription(id: "women", name: "Women", teams: .list(listed("Women", 8)), format: women),
            ])
    }

    static func teams(_ event: EventDescription) throws -> [String: [RegisteredTeam]] {
        var teams: [String: [RegisteredTeam]] = [:]
        for division in event.divisions {
            guard case .list(let listed) = division.teams else { continue }
            teams[division.id] = try EventPlanner.registered(listed)
        }
        return teams
    }

    static func planned(_ event: EventDescription = event(), seed: UInt64 = 7) throws -> PlannedEvent {
        let draft = try EventPlanner.draw(event, teams: try teams(event), seed: seed)
        return try EventPlanner.plan(draft, venue: try EventPlanner.venue(event), effort: .quick)
    }

    @Test("the issue's day: 47 games in two divisions, every constraint held, close to its lower bound")
    func issueDay() throws {
        let planned = try Self.planned()
        let schedule = planned.schedule
        // The plan places the draft's games, every one of them and no other, each on one of the
        // venue's courts and with a start.
        #expect(schedule.games.map(\.id).sorted() == planned.draft.schedule.games.map(\.id).sorted())
        let courts = Set(planned.venue.courts.map(\.name))
        #expect(schedule.games.allSatisfy { game in game.start != nil && game.court.map(courts.contains) == true })
        #expect(schedule.games.count == 47)
        #expect(schedule.divisions.map(\.teams.count) == [16, 8])
        #expect(schedule.games.filter { $0.division == "open" }.count == 32)
        #expect(schedule.games.filter { $0.division == "women" }.count == 15)
        // Pool ids carry the division; pool names stay short.
        #expect(schedule.groups.map(\.id) == ["open-A", "open-B", "open-C", "open-D", "women-A", "women-B"])
        #expect(schedule.groups.allSatisfy { $0.name.hasPrefix("Pool ") })
        // Snake seeding by ranking points: Open 1 and 8 in pool A, 2 and 7 in pool B.
        #expect(schedule.groups[0].teams.map(\.rawValue) == ["open-1", "open-8", "open-9", "open-16"])
        #expect(schedule.seeds["open-1"] == 1 && schedule.seeds["women-8"] == 8)
        // Every game with a court and a start, held to the venue's rules by the planner's own check.
        #expect(try Planning.problems(in: schedule.games, venue: planned.venue) == [])
        #expect(schedule.games.allSatisfy { $0.rules == RulePresets.fiba3x3 })
        #expect(planned.figures.smallestRest ?? 0 >= 20)
        #expect(planned.figures.end <= TimeOfDay("17:00") ?? .endOfDay)
        #expect(planned.figures.ratio <= 1.05, "ratio \(planned.figures.ratio)")
        // Rounds in the order they are first played; games in order of start.
        let starts = schedule.games.compactMap { $0.start.flatMap(TimeOfDay.init) }
        #expect(starts == starts.sorted())
        let order = ["Round 1", "Round 3", "Quarter-finals", "Semi-finals", "Final"].map { schedule.rounds.firstIndex(of: $0) }
        #expect(order.allSatisfy { $0 != nil } && order == order.sorted { ($0 ?? 0) < ($1 ?? 0) }, "\(schedule.rounds)")
        #expect(planned.draft.randomSeed == nil)
    }

    @Test("the same description and seed give the same tournament; a random deal records its seed")
    func replayable() throws {
        let random = Self.event(open: FormatDescription(.poolsKnockout, pools: 4, qualifiers: 2, deal: .random))
        let first = try Self.planned(random, seed: 99)
        #expect(first == (try Self.planned(random, seed: 99)))
        #expect(first.draft.randomSeed == 99)
        let other = try Self.planned(random, seed: 100)
        #expect(other.schedule.groups.map(\.teams) != first.schedule.groups.map(\.teams))
    }

    @Test("best third-placed teams, a single division, round robin, single and double elimination")
    func formats() throws {
        // Open: the top 2 of each of 4 pools and the best 4 of the third-placed teams, 12 in a
        // knockout of 16 places, byes to the pool winners.
        let bestThirds = try Self.planned(
            Self.event(open: FormatDescription(.poolsKnockout, pools: 4, qualifiers: 2, bestOfNext: 4, thirdPlace: false)))
        let slots = bestThirds.schedule.games.flatMap { [$0.home, $0.away] }
        let openPools = ["open-A", "open-B", "open-C", "open-D"]
        #expect(
            Set(slots.filter { if case .bestOfRank = $0 { true } else { false } })
                == Set((1...4).map { Slot.bestOfRank(rank: 3, place: $0, groups: openPools) }))
        #expect(try Planning.problems(in: bestThirds.schedule.games, venue: bestThirds.venue) == [])
        // A best third plays once every pool it may come from has ended, and a rest after.
        let ends = bestThirds.schedule.games.filter { $0.group.map(openPools.contains) == true }.compactMap { game in
            game.start.flatMap(TimeOfDay.init)?.adding(bestThirds.venue.gameMinutes + bestThirds.venue.restMinutes)
        }
        let lastPoolEnd = try #require(ends.max())
        for game in bestThirds.schedule.games
        where [game.home, game.away].contains(where: { if case .bestOfRank = $0 { true } else { false } }) {
            #expect(try #require(game.start.flatMap(TimeOfDay.init)) >= lastPoolEnd, "\(game.id)")
        }
        var six = Self.event(open: FormatDescription(.poolsKnockout, pools: 4, qualifiers: 1, bestOfNext: 2))
        six.divisions.removeLast()
        let single = try Self.planned(six)
        #expect(single.schedule.divisions.isEmpty && single.schedule.groups.map(\.id) == ["A", "B", "C", "D"])
        #expect(
            single.schedule.games.contains { game in
                if case .bestOfRank(2, 1, ["A", "B", "C", "D"]) = game.home { return true }
                if case .bestOfRank(2, 1, ["A", "B", "C", "D"]) = game.away { return true }
                return false
            })
        for format in [
            FormatDescription(.roundRobin), FormatDescription(.singleElimination),
            FormatDescription(.doubleElimination), FormatDescription(.pools, pools: 2),
        ] {
            let planned = try Self.planned(Self.event(women: format))
            #expect(try Planning.problems(in: planned.schedule.games, venue: planned.venue) == [], "\(format.kind)")
        }
    }

    @Test("a Swiss division: round 1 drawn, later rounds paired live, each planned a rest after the round before")
    func swiss() throws {
        let planned = try Self.planned(Self.event(women: FormatDescription(.swiss, rounds: 3)))
        let women = planned.schedule.games.filter { $0.division == "women" }
        #expect(women.count == 12 && Set(women.compactMap(\.group)) == ["women-S"])
        #expect(planned.schedule.groups.first { $0.id == "women-S" }?.teams.count == 8)
        #expect(women.filter { $0.swissRound == nil }.count == 4, "round 1 with its teams")
        #expect(try Planning.problems(in: planned.schedule.games, venue: planned.venue) == [])
        func ends(round: String) throws -> [TimeOfDay] {
            try women.filter { $0.round == round }.map { game in
                try #require(game.start.flatMap(TimeOfDay.init)).adding(planned.venue.gameMinutes + planned.venue.restMinutes)
            }
        }
        for (earlier, later) in [("Round 1", "Round 2"), ("Round 2", "Round 3")] {
            let ready = try #require(try ends(round: earlier).max())
            for game in women where game.round == later {
                #expect(try #require(game.start.flatMap(TimeOfDay.init)) >= ready, "\(game.id)")
            }
        }
        #expect(throws: EventError.self) { try Self.planned(Self.event(women: FormatDescription(.swiss))) }
        #expect(throws: EventError.self) { try Self.planned(Self.event(women: FormatDescription(.swiss, rounds: 8))) }
    }

    @Test("one division redrawn alone: planned around the other's games, which stay; the whole day still holds")
    func divisionAlone() throws {
        let whole = try Self.planned()
        let open = whole.schedule.games.filter { $0.division == "open" }
        let fixed = open.compactMap { game in
            game.court.flatMap { court in game.start.flatMap(TimeOfDay.init).map { FixedGame(court: court, start: $0) } }
        }
        #expect(fixed.count == open.count)
        // Women as a round robin now: 28 games where the courts have time left.
        let event = Self.event(women: FormatDescription(.roundRobin))
        let alone = try EventPlanner.planned(
            division: "women", of: event, teams: try Self.teams(event), seed: 7, around: fixed, effort: .quick)
        #expect(alone.schedule.divisions.map(\.id) == ["women"])
        #expect(alone.schedule.games.count == 28 && alone.schedule.games.allSatisfy { $0.division == "women" })
        #expect(Set(alone.schedule.teams.keys) == Set(whole.schedule.teams.keys.filter { $0.rawValue.hasPrefix("women") }))
        #expect(alone.schedule.groups.allSatisfy { $0.id.hasPrefix("women-") })
        // No women's game on a court while an open game is there, changeover included.
        let slot = whole.venue.gameMinutes + whole.venue.changeoverMinutes
        for game in alone.schedule.games {
            let start = try #require(game.start.flatMap(TimeOfDay.init)).minutes
            for other in fixed where other.court == game.court {
                #expect(
                    start + slot <= other.start.minutes || other.start.minutes + slot <= start, "\(game.id) on \(other.court)")
            }
        }
        // A division the event does not have is named.
        #expect {
            _ = try EventPlanner.planned(division: "u18", of: event, teams: try Self.teams(event), seed: 7, around: [])
        } throws: { error in
            (error as? EventError)?.message.contains("no division u18 (it has open, women)") == true
        }
    }

    @Test("a venue around fixed games: each court's hours less a game's length and a changeover either side")
    func venueAround() {
        let venue = Venue(
            courts: [Court("Court 1"), Court("Court 2", from: TimeOfDay("11:00"), until: TimeOfDay("12:00"))],
            start: TimeOfDay(minutes: 540), end: TimeOfDay(minutes: 720), gameMinutes: 10, changeoverMinutes: 4, restMinutes: 20)
        let around = venue.around([
            FixedGame(court: "Court 1", start: TimeOfDay(minutes: 600)),
            FixedGame(court: "Court 2", start: TimeOfDay(minutes: 660)),
            FixedGame(court: "Court 3", start: TimeOfDay(minutes: 600)),
        ])
        let hours = around.courts.map { court in
            court.hours.map { "\($0.from?.description ?? "-")-\($0.until?.description ?? "-")" }
        }
        #expect(hours == [["09:00-09:56", "10:14-12:00"], ["11:14-12:00"]])
        // A court filled all day is left out.
        let full = Venue(
            courts: [Court("Court 1"), Court("Court 2", from: TimeOfDay("09:00"), until: TimeOfDay("09:10"))],
            start: TimeOfDay(minutes: 540), end: TimeOfDay(minutes: 720), gameMinutes: 10, changeoverMinutes: 4, restMinutes: 20)
        #expect(full.around([FixedGame(court: "Court 2", start: TimeOfDay(minutes: 540))]).courts.map(\.name) == ["Court 1"])
    }

    @Test("a single division's own tie-breakers become the tournament's; without them, the event's stand")
    func singleDivisionTieBreakers() throws {
        var event = Self.event()
        event.divisions.removeLast()
        event.tieBreakers = [.headToHead, .pointDifference]
        let eventOnly = try EventPlanner.draw(event, teams: try Self.teams(event), seed: 1).schedule
        #expect(eventOnly.tieBreakers == [.headToHead, .pointDifference])
        event.divisions[0].tieBreakers = [.averagePointsScored, .seed]
        let single = try EventPlanner.draw(event, teams: try Self.teams(event), seed: 1).schedule
        #expect(single.divisions.isEmpty)
        #expect(single.tieBreakers == [.averagePointsScored, .seed])
        #expect(single.groups.allSatisfy { single.tieBreakers(for: $0) == [.averagePointsScored, .seed] })
        // With two divisions, each keeps its own.
        var two = Self.event()
        two.divisions[0].tieBreakers = [.seed]
        let both = try EventPlanner.draw(two, teams: try Self.teams(two), seed: 1).schedule
        #expect(both.tieBreakers(for: try #require(both.groups.first { $0.id == "open-A" })) == [.seed])
        #expect(both.tieBreakers(for: try #require(both.groups.first { $0.id == "women-A" })) == both.tieBreakers)
    }

    @Test("a format decodes from its snake_case keys; every option but its type may be left out")
    func formatDecodes() throws {
        let decoder = JSONDecoder()
        let full =
            #"{"type": "pools_knockout", "pools": 4, "qualifiers": 2, "best_of_next": 4, "third_place": false, "fifth_to_eighth": true, "deal": "random", "separate_clubs": true, "legs": 2}"#
        #expect(
            try decoder.decode(FormatDescription.self, from: Data(full.utf8))
                == FormatDescription(
                    .poolsKnockout, pools: 4, qualifiers: 2, bestOfNext: 4, thirdPlace: false, fifthToEighth: true, deal: .random,
                    separateClubs: true, legs: 2))
        #expect(
            try decoder.decode(FormatDescription.self, from: Data(#"{"type": "round_robin"}"#.utf8))
                == FormatDescription(.roundRobin))
        #expect(throws: DecodingError.self) { try decoder.decode(FormatDescription.self, from: Data(#"{"pools": 4}"#.utf8)) }
        #expect(throws: DecodingError.self) {
            try decoder.decode(FormatDescription.self, from: Data(#"{"type": "ladder"}"#.utf8))
        }
    }

    @Test(
        "a description that cannot be drawn or planned is a clear error, with its code",
        arguments: [
            ("two courts until 11:00", "does_not_fit", "needs"),
            ("an unknown preset", "invalid_event", "rules: unknown preset fiba (known: fiba3x3"),
            ("a team in two divisions", "invalid_event", "team open-1 is in divisions open and women"),
            ("too many pools", "too_few_teams", "division women: 5 pools need at least 10 teams"),
            ("a division twice", "invalid_event", "divisions.1.id: division open is described twice"),
            ("a team without players", "invalid_event", "division women: team Women 1 has no players"),
            ("a time that is none", "invalid_event", "end: \"17h\" is not a time of day"),
        ])
    func mistakes(situation: String, code: String, expected: String) throws {
        var event = Self.event()
        var teams = try Self.teams(event)
        switch situation {
        case "two courts until 11:00": event = Self.event(courts: 2, end: "11:00")
        case "an unknown preset": event.rules = "fiba"
        case "a team in two divisions":
            let twice = try #require(teams["open"]?.first)
            teams["women"]?.append(twice)
        case "too many pools": event.divisions[1].format.pools = 5
        case "a division twice": event.divisions[1].id = "open"
        case "a team without players": teams["women"]?[0].team.players = []
        default: event.end = "17h"
        }
        do {
            let draft = try EventPlanner.draw(event, teams: teams, seed: 1)
            _ = try EventPlanner.plan(draft, venue: try EventPlanner.venue(event), effort: .quick)
            Issue.record("planned: \(situation)")
        } catch {
            #expect(error.code.rawValue == code, "\(error)")
            #expect(error.message.contains(expected), "\(error)")
        }
    }
}
