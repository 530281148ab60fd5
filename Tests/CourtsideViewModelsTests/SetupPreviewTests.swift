import CourtsideModel
import CourtsideViewModels
import Testing

@Suite("the desk's Setup preview: pools, knockout and the day's grid")
struct SetupPreviewTests {
    static func team(_ id: String, _ name: String) -> (TeamID, Team) {
        (TeamID(id), Team(id: TeamID(id), name: name, players: [Player(id: PlayerID("\(id)-1"), name: "P")]))
    }

    /// One division, Open: pool A (owls seed 3, lions seed 1, listed in that order by the draw),
    /// pool B (bears 2, wolves 4); two pool games at 09:00 on courts 1 and 2, one at 09:30 on
    /// court 2, and a final at 10:00 on court 1 between the pools' winners.
    static var schedule: Schedule {
        var schedule = Schedule(
            teams: Dictionary(
                uniqueKeysWithValues: [
                    team("lions", "Lions"), team("owls", "Owls"), team("bears", "Bears"), team("wolves", "Wolves"),
                ]),
            courts: ["Court 1", "Court 2"],
            groups: [
                Group(id: "open-A", name: "Pool A", teams: ["owls", "lions"], division: "open"),
                Group(id: "open-B", name: "Pool B", teams: ["bears", "wolves"], division: "open"),
            ],
            rounds: ["Open pools", "Open final"],
            games: [
                ScheduledGame(
                    id: "open-A-1", home: .team("owls"), away: .team("lions"), court: "Court 1", group: "open-A",
                    round: "Open pools", start: "09:00", division: "open"),
                ScheduledGame(
                    id: "open-B-1", home: .team("bears"), away: .team("wolves"), court: "Court 2", group: "open-B",
                    round: "Open pools", start: "09:00", division: "open"),
                ScheduledGame(
                    id: "open-B-2", home: .team("wolves"), away: .team("bears"), court: "Court 2", group: "open-B",
                    round: "Open pools", start: "09:30", division: "open"),
                ScheduledGame(
                    id: "open-final", home: .groupRank(group: "open-A", rank: 1), away: .groupRank(group: "open-B", rank: 1),
                    court: "Court 1", round: "Open final", start: "10:00", division: "open"),
            ])
        schedule.seeds = ["lions": 1, "bears": 2, "owls": 3, "wolves": 4]
        schedule.divisions = [Division(id: "open", name: "Open", teams: ["lions", "owls", "bears", "wolves"])]
        return schedule
    }

    @Test("each pool a table in the draw's order, with seeds and clubs; the division's knockout drawn; counts in words")
    func pools() throws {
        let preview = SetupPreview(Self.schedule, clubs: ["lions": "Lions BC", "bears": "Den 3x3"])
        let open = try #require(preview.divisions.first)
        #expect(preview.divisions.count == 1)
        #expect(open.id == "open" && open.name == "Open" && open.counts == "4 teams, 4 games")
        #expect(open.pools.map(\.name) == ["Pool A", "Pool B"])
        let poolA = try #require(open.pools.first)
        #expect(poolA.id == "open-A")
        #expect(poolA.rows.map(\.team) == ["Owls", "Lions"], "the draw's order, as dealt")
        #expect(poolA.rows.map(\.seed) == ["3", "1"])
        #expect(poolA.rows.map(\.club) == ["", "Lions BC"])
        let bracket = try #require(open.bracket)
        #expect(bracket.division == "open" && bracket.boxes.map(\.game) == ["open-final"])
    }

    @Test(
        "the grid: a row per start, earliest first, a column per court; each game in its court's cell at its start, a free cell empty"
    )
    func grid() {
        let preview = SetupPreview(Self.schedule)
        #expect(preview.courts == ["Court 1", "Court 2"])
        #expect(preview.rows.map(\.start) == ["09:00", "09:30", "10:00"])
        let cells = preview.rows.map { row in row.cells.map { $0.isFree ? "-" : "\($0.court): \($0.game) \($0.sides)" } }
        #expect(
            cells == [
                ["Court 1: open-A-1 Owls v Lions", "Court 2: open-B-1 Bears v Wolves"],
                ["-", "Court 2: open-B-2 Wolves v Bears"],
                ["Court 1: open-final A1 v B1", "-"],
            ])
        // The text grid reads the same cells.
        let text = PlanTables.grid(Self.schedule)
        #expect(text.count == 5 && text[2].hasPrefix("09:00 | open-A-1 owls v lions | open-B-1 bears v wolves"), "\(text)")
        #expect(text[3].hasPrefix("09:30 |") && text[3].hasSuffix("| open-B-2 wolves v bears"), "\(text)")
    }
}
