import CourtsideModel
import Foundation
import Testing

/// A draw published as one change: it replaces the divisions it names and adds the others,
/// refuses a division under way, ids another division has, and texts the rule refuses.
@Suite("Published draws")
struct PublishedDrawTests {
    /// The two-division tournament of ``DivisionTests``, divisions assigned.
    static var tournament: Schedule { DivisionTests.schedule.assigningDivisions() }

    /// One division of `schedule` alone: its teams, seeds, groups and games.
    static func only(_ division: String, of schedule: Schedule) -> Schedule {
        var draw = schedule
        let teams = Set(schedule.division(division)?.teams ?? [])
        draw.teams = schedule.teams.filter { teams.contains($0.key) }
        draw.seeds = schedule.seeds.filter { teams.contains($0.key) }
        draw.groups = schedule.groups.filter { $0.division == division }
        draw.games = schedule.games.filter { $0.division == division }
        draw.divisions = schedule.divisions.filter { $0.id == division }
        return draw
    }

    /// Women drawn again: w1 to w3 become w4 to w6, one game between two of them.
    static var newWomen: Schedule {
        var draw = only("women", of: tournament)
        draw.teams = Dictionary(uniqueKeysWithValues: ["w4", "w5", "w6"].map { (TeamID($0), DivisionTests.team($0)) })
        draw.groups = [Group(id: "W", teams: ["w4", "w5", "w6"], division: "women")]
        draw.games = [
            ScheduledGame(
                id: "w-new", home: .team("w4"), away: .team("w5"), court: "Court 3", group: "W", round: "Groups", start: "11:00",
                division: "women")
        ]
        draw.divisions = [Division(id: "women", name: "Women", teams: ["w4", "w5", "w6"])]
        draw.courts = ["Court 3"]
        return draw
    }

    func publish(_ draw: Schedule, over schedule: Schedule, started: Set<GameID> = []) throws(CourtsideError) -> Schedule {
        try schedule.applying(.drawPublished(PublishedDraw(schedule: draw, randomSeed: 7))) { started.contains($0) }
    }

    @Test("into an empty tournament, the draw is the tournament")
    func intoEmpty() throws {
        let empty = Schedule(teams: [:], games: [])
        let published = try publish(Self.tournament, over: empty)
        #expect(published.teams == Self.tournament.teams && published.games == Self.tournament.games)
        #expect(published.divisions == Self.tournament.divisions && published.groups == Self.tournament.groups)
        #expect(published.rounds == ["Groups", "Final"])
    }

    @Test("a redraw replaces its division, its teams, groups and games, and keeps the others as they are")
    func redraw() throws {
        let published = try publish(Self.newWomen, over: Self.tournament, started: ["oa1"])
        #expect(Set(published.teams.keys) == ["o1", "o2", "o3", "o4", "w4", "w5", "w6"])
        #expect(published.games.filter { $0.division == "women" }.map(\.id) == ["w-new"])
        #expect(published.games.filter { $0.division == "open" } == Self.tournament.games.filter { $0.division == "open" })
        #expect(published.division("women")?.teams == ["w4", "w5", "w6"] && published.division("open") != nil)
        #expect(published.groups.map(\.id) == ["OA", "OB", "W"])
        #expect(published.courts == ["Court 3"])
        #expect(published.problem == nil)
        // The same draw again changes nothing: the library answers it without a new change.
        #expect(try publish(Self.newWomen, over: published) == published)
    }

    @Test("a division with a game under way cannot be redrawn: stage_started, naming it and the game")
    func stageStarted() throws {
        #expect {
            try publish(Self.newWomen, over: Self.tournament, started: ["w2"])
        } throws: { error in
            let error = error as? CourtsideError
            return error?.code == .stageStarted && error?.message.contains("division Women has started (game w2)") == true
        }
        // A tournament of one under way cannot be replaced either.
        let single = Schedule(
            teams: ["o1": DivisionTests.team("o1"), "o2": DivisionTests.team("o2")],
            games: [
                ScheduledGame(id: "g1", home: .team("o1"), away: .team("o2"))
            ])
        #expect(
            throws: CourtsideError(
                .stageStarted, "game g1 has started: the draw can no longer be replaced, only its games edited")
        ) {
            try publish(single, over: single, started: ["g1"])
        }
        #expect(try publish(single, over: single) == single)
    }

    @Test("ids another division has, and a draw of the wrong kind, are refused with their codes")
    func collisions() {
        func code(_ draw: Schedule, over schedule: Schedule = Self.tournament) -> CourtsideError.Code? {
            do {
                _ = try publish(draw, over: schedule)
                return nil
            } catch {
                return error.code
            }
        }
        var team = Self.newWomen
        team.teams["o1"] = DivisionTests.team("o1")
        team.divisions[0].teams.append("o1")
        #expect(code(team) == .teamExists)
        var player = Self.newWomen
        player.teams["w4"]?.players = [Player(id: "o1-p", name: "Twin")]
        #expect(code(player) == .playerExists)
        var game = Self.newWomen
        game.games[0].id = "oa1"
        #expect(code(game) == .gameExists)
        var group = Self.newWomen
        group.groups[0].id = "OA"
        group.games[0].group = "OA"
        #expect(code(group) == .invalidGame)
        var itself = Self.newWomen
        itself.games[0].away = .team("w4")
        #expect(code(itself) == .invalidGame)
        // Without divisions over a tournament of divisions, and the other way round.
        let single = Schedule(
            teams: ["x": DivisionTests.team("x"), "y": DivisionTests.team("y")],
            games: [
                ScheduledGame(id: "g1", home: .team("x"), away: .team("y"))
            ])
        #expect(code(single) == .invalidGame)
        #expect(code(Self.newWomen, over: single) == .invalidGame)
    }

    @Test("a text the rule refuses is refused naming the field, before anything else")
    func texts() {
        var draw = Self.newWomen
        draw.teams["w4"]?.name = "W\u{0}4"
        #expect(throws: CourtsideError.self) { try publish(draw, over: Self.tournament) }
        do {
            _ = try publish(draw, over: Self.tournament)
        } catch {
            #expect(error.code == .invalidText && error.message.contains("team w4 name"), "\(error)")
        }
        var court = Self.newWomen
        court.games[0].start = "25:99"
        do {
            _ = try publish(court, over: Self.tournament)
            Issue.record("a start that is no time was taken")
        } catch {
            #expect(error.code == .invalidText && error.message.contains("game w-new start"), "\(error)")
        }
    }

    @Test("games renamed apart from taken ids, and the slots that name them follow")
    func renaming() {
        let renamed = Self.tournament.renamingGames(avoiding: ["osemi", "w1", "w1-2"])
        let ids = renamed.games.map(\.id)
        #expect(ids.contains("osemi-2") && ids.contains("w1-3") && !ids.contains("osemi") && !ids.contains("w1"))
        #expect(renamed.games.first { $0.id == "bronze" }?.home == .loser(of: "osemi-2"))
        #expect(renamed.problem == nil)
        #expect(Self.tournament.renamingGames(avoiding: ["nothing"]) == Self.tournament)
    }

    @Test("a team withdraws once: an unknown team or a second withdrawal is refused; a redraw forgets a team it drops")
    func withdrawal() throws {
        let withdrawn = try Self.tournament.applying(.teamWithdrawn("w1")) { _ in false }
        #expect(withdrawn.withdrawn == ["w1"])
        #expect(throws: CourtsideError(.invalidGame, "team w1 has withdrawn already")) {
            try withdrawn.applying(.teamWithdrawn("w1")) { _ in false }
        }
        #expect(throws: CourtsideError.self) { try Self.tournament.applying(.teamWithdrawn("nobody")) { _ in false } }
        let redrawn = try publish(Self.newWomen, over: withdrawn)
        #expect(redrawn.withdrawn.isEmpty)
        let change = TournamentChange.teamWithdrawn("w1")
        #expect(try JSONDecoder().decode(TournamentChange.self, from: JSONEncoder().encode(change)) == change)
        #expect(try JSONDecoder().decode(Schedule.self, from: JSONEncoder().encode(withdrawn)) == withdrawn)
    }

    @Test("as JSON: the random seed is a string, whole to 2^64-1; a broken one is refused")
    func json() throws {
        let draw = PublishedDraw(schedule: Self.newWomen, randomSeed: .max, event: "tournament: X\n")
        let data = try JSONEncoder().encode(draw)
        #expect(String(decoding: data, as: UTF8.self).contains("\"random_seed\":\"18446744073709551615\""))
        #expect(try JSONDecoder().decode(PublishedDraw.self, from: data) == draw)
        let change = TournamentChange.drawPublished(draw)
        #expect(try JSONDecoder().decode(TournamentChange.self, from: JSONEncoder().encode(change)) == change)
        #expect(change.typeName == "draw_published" && change.subject == "the draw of division women")
        let broken = Data(
            #"{"schedule": {"teams": {}, "courts": [], "groups": [], "rounds": [], "games": [], "tie_breakers": []}, "random_seed": "-1"}"#
                .utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PublishedDraw.self, from: broken) }
    }
}
