import CourtsideFormats
import CourtsideModel
import Testing

@Suite("Pools")
struct PoolsTests {
    @Test("sixteen teams in four pools, snake order: A gets 1, 8, 9, 16; each pool plays its round robin")
    func snake() throws {
        let draw = try Formats.pools(entrants(16), prefix: "open", count: 4)
        #expect(draw.groups.map(\.id) == ["A", "B", "C", "D"])
        #expect(draw.groups.map(\.name) == ["Pool A", "Pool B", "Pool C", "Pool D"])
        #expect(draw.groups.map { $0.teams.map(seed) } == [[1, 8, 9, 16], [2, 7, 10, 15], [3, 6, 11, 14], [4, 5, 12, 13]])
        #expect(draw.games.count == 24)
        #expect(draw.rounds == ["Round 1", "Round 2", "Round 3"])
        #expect(draw.games.prefix(2).map(\.id.rawValue) == ["open-A-1", "open-A-2"])
        #expect(draw.games.filter { $0.group == "C" }.map(\.id.rawValue) == (1...6).map { "open-C-\($0)" })
        expectSound(draw, teams: entrants(16))
    }

    @Test("a random deal replays from its seed, which the draw records")
    func random() throws {
        let teams = entrants(24)
        let one = try Formats.pools(teams, prefix: "open", count: 4, deal: .random(seed: 42))
        let again = try Formats.pools(teams, prefix: "open", count: 4, deal: .random(seed: 42))
        let other = try Formats.pools(teams, prefix: "open", count: 4, deal: .random(seed: 43))
        #expect(one == again)
        #expect(one.seed == 42)
        #expect(one.groups != other.groups)
        #expect(one.groups != (try Formats.pools(teams, prefix: "open", count: 4).groups))
        // Each pool lists its teams in seed order, whatever the deal.
        #expect(one.groups.allSatisfy { $0.teams.map(seed) == $0.teams.map(seed).sorted() })
    }

    @Test("clubs apart: the two teams of a club that snake order would pool together are split within their tier")
    func separation() throws {
        var teams = entrants(8)
        // Snake with 2 pools: A = 1, 4, 5, 8; B = 2, 3, 6, 7. Seeds 1 and 4 share a club.
        teams[0].club = "Riverside"
        teams[3].club = "Riverside"
        let plain = try Formats.pools(teams, prefix: "p", count: 2)
        #expect(plain.groups.map { $0.teams.map(seed) } == [[1, 4, 5, 8], [2, 3, 6, 7]])
        let apart = try Formats.pools(teams, prefix: "p", count: 2, separateClubs: true)
        // Seed 4 swaps with seed 3, its tier's other team.
        #expect(apart.groups.map { $0.teams.map(seed) } == [[1, 3, 5, 8], [2, 4, 6, 7]])
    }

    @Test("every count 2...128 and pool count: sizes within one, snake order, every pair of a pool once")
    func properties() throws {
        for count in teamCounts {
            // A single pool is the round robin, tested on its own; two and three big pools are
            // much the same, so they run on a sample of counts.
            let choices = sampledCounts.contains(count) ? [2, 3, 4, 8, count / 4, count / 2] : [4, 8, count / 4, count / 2]
            for pools in Set(choices.filter { $0 >= 2 && 2 * $0 <= count }).sorted() {
                let teams = entrants(count)
                let draw = try Formats.pools(teams, prefix: "open", count: pools)
                var problems: [String] = []
                if draw.groups.count != pools { problems.append("\(draw.groups.count) pools") }
                let sizes = draw.groups.map(\.teams.count)
                if (sizes.max() ?? 0) - (sizes.min() ?? 0) > 1 || sizes.reduce(0, +) != count {
                    problems.append("sizes \(sizes)")
                }
                let byGroup = Dictionary(grouping: draw.games) { $0.group ?? "" }
                for (index, group) in draw.groups.enumerated() {
                    // Snake: seed s goes to pool (tier even ? position : reversed).
                    for team in group.teams {
                        let (tier, position) = (seed(team) - 1).quotientAndRemainder(dividingBy: pools)
                        if (tier.isMultiple(of: 2) ? position : pools - 1 - position) != index {
                            problems.append("\(team) in pool \(group.id)")
                        }
                    }
                    let games = byGroup[group.id] ?? []
                    let pairs = Set(games.map { Set(namedTeams($0)) })
                    if pairs.count != games.count || games.count != group.teams.count * (group.teams.count - 1) / 2 {
                        problems.append("pool \(group.id): \(games.count) games, \(pairs.count) pairs")
                    }
                    if !games.allSatisfy({ namedTeams($0).allSatisfy(group.teams.contains) }) {
                        problems.append("pool \(group.id) plays a team of another pool")
                    }
                }
                for (round, games) in Dictionary(grouping: draw.games, by: { $0.round ?? "" }) {
                    let playing = games.flatMap(namedTeams)
                    if Set(playing).count != playing.count { problems.append("a team twice in \(round)") }
                }
                #expect(problems.isEmpty, "\(count) teams in \(pools) pools: \(problems.prefix(5))")
                expectSound(draw, teams: teams)
            }
        }
    }

    @Test("separation over counts and seeds: fewer club-mates together, and no swap within a tier leaves fewer still")
    func separationProperties() throws {
        var random = SeededRandom(seed: 38)
        for count in teamCounts {
            for trial in 0..<3 {
                let pools = max(1, min(count / 2, [2, 4, 8][trial]))
                let clubs = ["a", "b", "c", "d", "e"].prefix(1 + Int(random.next() % 5))
                let teams = entrants(count).map { entrant in
                    var entrant = entrant
                    // About half the teams in a club.
                    if random.next() % 2 == 0 { entrant.club = clubs.randomElement(using: &random) }
                    return entrant
                }
                let deal: PoolDeal = trial == 2 ? .random(seed: random.next()) : .snake
                let plain = try Formats.pools(teams, prefix: "p", count: pools, deal: deal)
                let draw = try Formats.pools(teams, prefix: "p", count: pools, deal: deal, separateClubs: true)
                let clubOf = Dictionary(uniqueKeysWithValues: teams.map { ($0.id, $0.club) })
                func together(_ groups: [[TeamID]]) -> Int {
                    groups.reduce(0) { sum, group in
                        let byClub = Dictionary(grouping: group.compactMap { clubOf[$0] ?? nil }, by: { $0 })
                        return sum + byClub.values.reduce(0) { $0 + $1.count * ($1.count - 1) / 2 }
                    }
                }
                let groups = draw.groups.map(\.teams)
                let pairs = together(groups)
                #expect(pairs <= together(plain.groups.map(\.teams)), "\(count)/\(pools)")
                // Pool sizes are the deal's.
                #expect(groups.map(\.count) == plain.groups.map { $0.teams.count }, "\(count)/\(pools)")
                // Each team stays in its tier: the pools hold the same tiers' teams.
                guard deal == .snake else { continue }
                let poolOf = Dictionary(
                    uniqueKeysWithValues: groups.enumerated().flatMap { index, group in group.map { ($0, index) } })
                for tierStart in stride(from: 0, to: count, by: pools) {
                    let tier = teams[tierStart..<min(tierStart + pools, count)].map(\.id)
                    let tierPools = Set(tier.compactMap { poolOf[$0] })
                    if tierPools.count != tier.count { Issue.record("\(count)/\(pools): a tier's teams share a pool") }
                    for a in tier {
                        for b in tier where a < b {
                            var swapped = groups
                            let (pa, pb) = (poolOf[a] ?? 0, poolOf[b] ?? 0)
                            swapped[pa] = swapped[pa].map { $0 == a ? b : $0 }
                            swapped[pb] = swapped[pb].map { $0 == b ? a : $0 }
                            if together(swapped) < pairs { Issue.record("\(count)/\(pools): swapping \(a) and \(b) helps") }
                        }
                    }
                }
            }
        }
    }

    @Test("bad input: more pools than pairs of teams, no pools, a team twice")
    func badInput() {
        #expect(code { () throws(FormatError) in try Formats.pools(entrants(7), prefix: "p", count: 4) } == .tooFewTeams)
        #expect(code { () throws(FormatError) in try Formats.pools(entrants(7), prefix: "p", count: 0) } == .invalidOption)
        #expect(
            code { () throws(FormatError) in try Formats.pools(entrants(4) + entrants(2), prefix: "p", count: 2) }
                == .duplicateTeam)
        #expect(code { () throws(FormatError) in try Formats.pools(entrants(1), prefix: "p", count: 1) } == .tooFewTeams)
    }

    @Test("pool ids run A...Z, then AA, AB, ...")
    func poolIDs() {
        #expect(Formats.poolID(0) == "A")
        #expect(Formats.poolID(25) == "Z")
        #expect(Formats.poolID(26) == "AA")
        #expect(Formats.poolID(27) == "AB")
        #expect(Formats.poolID(52) == "BA")
    }
}
