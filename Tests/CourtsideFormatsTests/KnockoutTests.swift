import CourtsideFormats
import CourtsideModel
import Testing

@Suite("Pools into a knockout")
struct KnockoutTests {
    /// The schedule of a draw, with the entrants' seeds for the tie-breakers.
    func seededSchedule(_ draw: Draw, _ teams: [Entrant]) -> Schedule {
        var schedule = schedule(draw, teams: teams)
        schedule.seeds = Formats.seeds(teams)
        return schedule
    }

    @Test("the issue's Open: 4 pools of 4, the top 2 crossed into quarter-finals, a game for third, played out")
    func open() throws {
        let teams = entrants(16)
        let pools = try Formats.pools(teams, prefix: "open", count: 4)
        let draw = try Formats.knockout(after: pools, top: 2, prefix: "open")
        #expect(draw.rounds == ["Round 1", "Round 2", "Round 3", "Quarter-finals", "Semi-finals", "Third place", "Final"])
        let knockout = draw.games.filter { $0.group == nil }
        #expect(knockout.count == 8)
        func rank(_ group: String, _ rank: Int) -> Slot { .groupRank(group: group, rank: rank) }
        // A1 v B2, D1 v C2 | C1 v D2, B1 v A2: a pool's two meet in the final at the earliest.
        #expect(
            knockout.prefix(4).map { [$0.home, $0.away] } == [
                [rank("A", 1), rank("B", 2)], [rank("D", 1), rank("C", 2)], [rank("C", 1), rank("D", 2)],
                [rank("B", 1), rank("A", 2)],
            ])
        expectSound(draw, teams: teams)
        let games = playOut(seededSchedule(draw, teams), winner: { seed($0) < seed($1) ? $0 : $1 })
        #expect(games["open-final"]?.winner.map { games["open-final"]!.setup.team($0).id } == "t1")
        #expect(Set([games["open-final"]?.setup.home.id, games["open-final"]?.setup.away.id]) == ["t1", "t2"])
        #expect(Set([games["open-3rd"]?.setup.home.id, games["open-3rd"]?.setup.away.id]) == ["t3", "t4"])
    }

    @Test("the issue's Women: 2 pools of 4, then semi-finals A1 v B2 and B1 v A2, and a final")
    func women() throws {
        let teams = entrants(8)
        let draw = try Formats.knockout(
            after: try Formats.pools(teams, prefix: "women", count: 2), top: 2, prefix: "women", thirdPlace: false)
        let knockout = draw.games.filter { $0.group == nil }
        #expect(knockout.map(\.id.rawValue) == ["women-sf1", "women-sf2", "women-final"])
        #expect(knockout[0].home == .groupRank(group: "A", rank: 1) && knockout[0].away == .groupRank(group: "B", rank: 2))
        #expect(knockout[1].home == .groupRank(group: "B", rank: 1) && knockout[1].away == .groupRank(group: "A", rank: 2))
        expectSound(draw, teams: teams)
        let games = playOut(seededSchedule(draw, teams))
        #expect(Set([games["women-final"]?.setup.home.id, games["women-final"]?.setup.away.id]) == ["t1", "t2"])
    }

    @Test("the best four third-placed teams of six pools fill a round of 16, and the model fills them from results")
    func bestThirds() throws {
        let teams = entrants(24)
        let draw = try Formats.knockout(
            after: try Formats.pools(teams, prefix: "o", count: 6), top: 2, bestOfNextRank: 4, prefix: "o")
        let knockout = draw.games.filter { $0.group == nil }
        let groups = ["A", "B", "C", "D", "E", "F"]
        let thirds = knockout.flatMap { [$0.home, $0.away] }.filter { if case .bestOfRank = $0 { true } else { false } }
        #expect(Set(thirds) == Set((1...4).map { Slot.bestOfRank(rank: 3, place: $0, groups: groups) }))
        #expect(knockout.filter { $0.round == "Round of 16" }.count == 8)
        expectSound(draw, teams: teams)
        // Pools dealt 1-6, 12-7, 13-18, 24-19: the thirds are 13...18, each 1-2 with 35 points in
        // three games; the seeds split them, so 13...16 go through.
        let schedule = seededSchedule(draw, teams)
        let games = playOut(schedule)
        let standings = schedule.standings(games)
        #expect(
            schedule.bestOfRank(3, groups: groups, games: games, standings: standings).prefix(4) == ["t13", "t14", "t15", "t16"])
        let lineups = schedule.lineups(games)
        let placed = knockout.filter { $0.round == "Round of 16" }.flatMap { game in
            [game.home, game.away].enumerated().compactMap { side, slot -> TeamID? in
                guard case .bestOfRank = slot, let lineup = lineups[game.id] else { return nil }
                return side == 0 ? lineup.home.id : lineup.away.id
            }
        }
        #expect(Set(placed) == ["t13", "t14", "t15", "t16"])
        #expect(Set([games["o-final"]?.setup.home.id, games["o-final"]?.setup.away.id]) == ["t1", "t2"])
    }

    @Test(
        "every count 2...128: qualifiers of one pool never meet in the first round; with 2^k pools and the top 2, only in the final"
    )
    func properties() throws {
        for count in teamCounts {
            let teams = entrants(count)
            // Few big pools cost most to draw and add nothing to the knockout: on a sample only.
            let choices = sampledCounts.contains(count) ? [2, 4, 8, count / 4, count / 2] : [8, count / 4, count / 2]
            let poolCounts = Set(choices.filter { $0 >= 2 && 2 * $0 <= count })
            for pools in poolCounts.sorted() {
                let draw = try Formats.pools(teams, prefix: "d", count: pools)
                let smallest = draw.groups.map(\.teams.count).min() ?? 0
                let withThird = draw.groups.filter { $0.teams.count > 2 }.count
                for (top, best) in [(1, 0), (2, 0), (1, pools / 2), (2, min(withThird, pools / 2))] where top <= smallest {
                    if top == 2 && best > 0 && withThird == 0 { continue }
                    let knockout = try Formats.knockout(
                        after: draw, top: top, bestOfNextRank: best, prefix: "d", fifthToEighth: true)
                    check(
                        knockout, pools: pools, top: top, best: best,
                        label: "\(count) teams, \(pools) pools, top \(top) + \(best)")
                    if count <= 33 || count.nonzeroBitCount == 1 { expectSound(knockout, teams: teams) }
                }
            }
        }
    }

    /// The knockout's structural checks: the qualifiers are all there once, and a pool's named
    /// qualifiers are as far apart as the bracket lets them be.
    func check(_ draw: Draw, pools: Int, top: Int, best: Int, label: String) {
        var problems: [String] = []
        let knockout = draw.games.filter { $0.group == nil }
        // Each qualifier's slot appears once among the games' own slots.
        let entries = knockout.flatMap { [$0.home, $0.away] }.filter {
            switch $0 {
            case .groupRank, .bestOfRank: true
            default: false
            }
        }
        if Set(entries).count != entries.count || entries.count != pools * top + best {
            problems.append("\(entries.count) qualifier slots")
        }
        // The pools whose named qualifiers can reach each game; a pool on both sides of a
        // game is a pool whose qualifiers can meet there.
        var reach: [GameID: Set<String>] = [:]
        func feeding(_ slot: Slot) -> Set<String> {
            switch slot {
            case .winner(let game): reach[game] ?? []
            case .groupRank(let group, _): [group]
            default: []
            }
        }
        let firstRound = knockout.first?.round
        for game in knockout {
            let (home, away) = (feeding(game.home), feeding(game.away))
            reach[game.id] = home.union(away)
            let both = home.intersection(away)
            guard !both.isEmpty, pools >= 2 else { continue }
            if game.round == firstRound { problems.append("pools \(both.sorted()) meet in the first round, \(game.id)") }
            if top == 2 && best == 0 && pools.nonzeroBitCount == 1 && !game.id.rawValue.hasSuffix("-final") {
                problems.append("pools \(both.sorted()) can meet before the final, in \(game.id)")
            }
        }
        #expect(problems.isEmpty, "\(label): \(problems.prefix(5))")
    }

    @Test("bad input: no pools, a top bigger than the smallest pool, more best of a rank than pools with one, one qualifier")
    func badInput() throws {
        let pools = try Formats.pools(entrants(7), prefix: "p", count: 2)
        #expect(code { () throws(FormatError) in try Formats.knockout(after: Draw(), top: 1, prefix: "p") } == .invalidOption)
        #expect(code { () throws(FormatError) in try Formats.knockout(after: pools, top: 0, prefix: "p") } == .invalidOption)
        #expect(code { () throws(FormatError) in try Formats.knockout(after: pools, top: 4, prefix: "p") } == .invalidOption)
        // Pools of 4 and 3: only one has a fourth.
        #expect(
            code { () throws(FormatError) in try Formats.knockout(after: pools, top: 3, bestOfNextRank: 2, prefix: "p") }
                == .invalidOption)
        #expect(
            code { () throws(FormatError) in try Formats.knockout(after: pools, top: 3, bestOfNextRank: 1, prefix: "p") } == nil)
        let one = try Formats.pools(entrants(4), prefix: "p", count: 1)
        #expect(code { () throws(FormatError) in try Formats.knockout(after: one, top: 1, prefix: "p") } == .tooFewTeams)
        #expect(code { () throws(FormatError) in try Formats.knockout(after: one, top: 2, prefix: "p") } == nil)
    }
}
