import CourtsideModel
import Testing

@testable import CourtsideFormats

@Suite("Swiss")
struct SwissTests {
    @Test("first round by seed: the top half against the bottom half; with an odd count the lowest seed has the bye")
    func firstRoundBySeed() throws {
        let even = try Formats.Swiss.firstRound(entrants: Self.seeded(8), prefix: "sw")
        #expect(even.games.map(\.id.rawValue) == ["sw-R1-1", "sw-R1-2", "sw-R1-3", "sw-R1-4"])
        #expect(Self.pairs(even) == [["s1", "s5"], ["s2", "s6"], ["s3", "s7"], ["s4", "s8"]])
        #expect(even.bye == nil)
        #expect(even.draw.rounds == ["Round 1"])
        #expect(even.games.allSatisfy { $0.round == "Round 1" })
        #expect(even.draw.seed == nil)
        let odd = try Formats.Swiss.firstRound(entrants: Self.seeded(7), prefix: "sw", roundName: "Swiss round")
        #expect(Self.pairs(odd) == [["s1", "s4"], ["s2", "s5"], ["s3", "s6"]])
        #expect(odd.bye == "s7")
        #expect(odd.draw.rounds == ["Swiss round 1"])
    }

    @Test("a random first round: the seed recorded, the same seed the same draw")
    func firstRoundRandom() throws {
        let first = try Formats.Swiss.firstRound(entrants: Self.seeded(15), prefix: "sw", pairing: .random(seed: 2024))
        let again = try Formats.Swiss.firstRound(entrants: Self.seeded(15), prefix: "sw", pairing: .random(seed: 2024))
        let other = try Formats.Swiss.firstRound(entrants: Self.seeded(15), prefix: "sw", pairing: .random(seed: 2025))
        #expect(first == again)
        #expect(first.draw.seed == 2024)
        #expect(first != other)
        let shuffled = Formats.shuffled(Self.seeded(15), seed: 2024).map(\.id)
        #expect(first.bye == shuffled.last)
        #expect(Self.pairs(first).first == [shuffled[0], shuffled[7]])
        Self.expectEveryoneOnce(first, teams: Self.seeded(15).map(\.id))
    }

    @Test("later rounds pair by wins, then points difference, then seed; fewer home games is at home")
    func byRecord() throws {
        let teams = Self.seeded(4)
        let results = [
            SwissResult(home: "s1", away: "s3", homeScore: 21, awayScore: 10),
            SwissResult(home: "s2", away: "s4", homeScore: 12, awayScore: 15),
        ]
        let table = Formats.Swiss.standings(entrants: teams, results: results, byes: [])
        #expect(table.map(\.team) == ["s1", "s4", "s2", "s3"])
        #expect(table.map(\.wins) == [1, 1, 0, 0])
        #expect(table.map(\.pointDifference) == [11, 3, -3, -11])
        let second = try Formats.Swiss.nextRound(entrants: teams, results: results, byes: [], round: 2, prefix: "sw")
        // s4 and s3 have played away only: they are at home.
        #expect(Self.pairs(second) == [["s4", "s1"], ["s3", "s2"]])
        #expect(second.games.map(\.id.rawValue) == ["sw-R2-1", "sw-R2-2"])
        #expect(second.draw.rounds == ["Round 2"])
        #expect(second.rematches.isEmpty)
    }

    @Test("a bye counts as a win with no points; forfeits leave the points difference alone")
    func byesAndForfeits() throws {
        let teams = Self.seeded(5)
        let results = [
            SwissResult(home: "s1", away: "s3", homeScore: 21, awayScore: 0, forfeit: true),
            SwissResult(home: "s2", away: "s4", homeScore: 14, awayScore: 12),
        ]
        let table = Formats.Swiss.standings(entrants: teams, results: results, byes: ["s5"])
        #expect(table.map(\.team) == ["s2", "s1", "s5", "s3", "s4"])
        #expect(table.first { $0.team == "s5" }.map { [$0.wins, $0.byes, $0.pointDifference] } == [1, 1, 0])
        #expect(table.first { $0.team == "s3" }.map { [$0.losses, $0.pointDifference] } == [1, 0])
        // Round 2: s5 has had its bye; the lowest-ranked without one, s4, has it now.
        let second = try Formats.Swiss.nextRound(entrants: teams, results: results, byes: ["s5"], round: 2, prefix: "sw")
        #expect(second.bye == "s4")
        #expect(Set(Self.pairs(second).map(Set.init)) == [["s2", "s1"], ["s5", "s3"]])
    }

    @Test("a game's result: a forfeit, a game with no result, a game not finished")
    func resultOfGame() throws {
        let lions = Team(id: "lions", name: "Lions", players: [Player(id: "ann", name: "Ann")])
        let tigers = Team(id: "tigers", name: "Tigers", players: [Player(id: "bo", name: "Bo")])
        let setup = GameSetup(id: "g1", home: lions, away: tigers)
        var game = Game(setup: setup)
        #expect(SwissResult(game) == nil)
        game.status = .finished
        game.endReason = .forfeit
        game.score = SideValues(home: 0, away: 21)
        #expect(SwissResult(game) == SwissResult(home: "lions", away: "tigers", homeScore: 0, awayScore: 21, forfeit: true))
        #expect(SwissResult(game)?.winner == "tigers")
        game.endReason = .noResult
        game.score = SideValues(home: 7, away: 5)
        #expect(SwissResult(game) == SwissResult(home: "lions", away: "tigers", homeScore: 0, awayScore: 0))
        #expect(SwissResult(game)?.winner == nil)
    }

    @Test("a team that withdraws is paired no more; its results still count for its opponents")
    func withdrawal() throws {
        let results = [
            SwissResult(home: "s1", away: "s4", homeScore: 21, awayScore: 9),
            SwissResult(home: "s2", away: "s5", homeScore: 21, awayScore: 19),
            SwissResult(home: "s3", away: "s6", homeScore: 16, awayScore: 18),
        ]
        let remaining = Self.seeded(6).filter { $0.id != "s2" }
        let second = try Formats.Swiss.nextRound(entrants: remaining, results: results, byes: [], round: 2, prefix: "sw")
        let table = Formats.Swiss.standings(entrants: remaining, results: results, byes: [])
        // s3 and s5 are level on wins and difference: s3 is the better seed.
        #expect(table.map(\.team) == ["s1", "s6", "s3", "s5", "s4"])
        #expect(second.bye == "s4")
        #expect(Set(Self.pairs(second).map(Set.init)) == [["s1", "s6"], ["s3", "s5"]])
    }

    @Test("bad input: too few teams, a team twice, a round 0, a team playing itself, a prefix no game id takes")
    func badInput() {
        #expect(Self.code { try Formats.Swiss.firstRound(entrants: Self.seeded(1), prefix: "sw") } == .tooFewTeams)
        #expect(
            Self.code { try Formats.Swiss.firstRound(entrants: Self.seeded(2) + Self.seeded(1), prefix: "sw") } == .duplicateTeam)
        #expect(Self.code { try Formats.Swiss.firstRound(entrants: Self.seeded(4), prefix: "s w") } == .invalidPrefix)
        #expect(
            Self.code { try Formats.Swiss.nextRound(entrants: Self.seeded(4), results: [], byes: [], round: 0, prefix: "sw") }
                == .invalidOption)
        let itself = SwissResult(home: "s1", away: "s1", homeScore: 1, awayScore: 0)
        #expect(
            Self.code {
                try Formats.Swiss.nextRound(entrants: Self.seeded(4), results: [itself], byes: [], round: 2, prefix: "sw")
            }
                == .invalidOption)
    }

    @Test(
        "the pairing on random graphs of who may meet: the preferred pairing when one avoids every rematch, else the fewest rematches"
    )
    func pairingAgainstBruteForce() {
        var random = SeededRandom(seed: 7)
        for trial in 0..<1500 {
            let count = 2 + trial % 11
            let density = [20, 45, 70, 90][trial % 4]
            var fresh = Array(repeating: Array(repeating: false, count: count), count: count)
            for a in 0..<count {
                for b in (a + 1)..<count where Int(random.next() % 100) < density {
                    fresh[a][b] = true
                    fresh[b][a] = true
                }
            }
            let byeCandidates = (0..<count).map { _ in random.next() % 3 != 0 }
            let candidates = byeCandidates.contains(true) ? byeCandidates : Array(repeating: true, count: count)
            let pairing = SwissPairing(fresh: fresh, byeCandidates: candidates)
            let (pairs, bye, rematches) = pairing.pair()
            // Everyone once; the bye to a candidate, with an odd count only.
            let players = pairs.flatMap { [$0.0, $0.1] } + (bye.map { [$0] } ?? [])
            #expect(players.sorted() == Array(0..<count), "trial \(trial)")
            #expect((bye != nil) == !count.isMultiple(of: 2))
            if let bye { #expect(candidates[bye]) }
            #expect(pairs.allSatisfy { $0.0 < $0.1 })
            let repeated = pairs.filter { !fresh[$0.0][$0.1] }
            #expect(
                repeated.map { [$0.0, $0.1] }.sorted { $0.lexicographicallyPrecedes($1) }
                    == rematches.map { [$0.0, $0.1] }.sorted { $0.lexicographicallyPrecedes($1) })
            if let expected = Self.preferredByBacktracking(fresh: fresh, byeCandidates: candidates) {
                #expect(rematches.isEmpty, "trial \(trial)")
                #expect(pairs.map { [$0.0, $0.1] } == expected.pairs.map { [$0.0, $0.1] }, "trial \(trial)")
                #expect(bye == expected.bye, "trial \(trial)")
            } else {
                #expect(rematches.count == Self.fewestRematches(fresh: fresh, byeCandidates: candidates), "trial \(trial)")
            }
        }
    }

    @Test(
        "2 to 128 teams over up to 7 rounds: everyone once a round or the bye, no rematch while one can be avoided, no second bye before everyone's first"
    )
    func rounds() throws {
        var random = SeededRandom(seed: 38)
        for count in 2...128 {
            let teams = Self.seeded(count)
            let rounds = min(count - 1, 7)
            let first = try Formats.Swiss.firstRound(
                entrants: teams, prefix: "sw", pairing: count.isMultiple(of: 3) ? .random(seed: UInt64(count)) : .bySeed)
            var (results, byes) = Self.play(first, random: &random)
            Self.expectEveryoneOnce(first, teams: teams.map(\.id))
            for number in stride(from: 2, through: rounds, by: 1) {
                let round = try Formats.Swiss.nextRound(
                    entrants: teams, results: results, byes: byes, round: number, prefix: "sw")
                Self.expectEveryoneOnce(round, teams: teams.map(\.id))
                let met = Set(results.map { Set([$0.home, $0.away]) })
                let repeated = round.games.filter { met.contains(Set([$0.home, $0.away].map(Self.team))) }
                #expect(repeated.map(\.id) == round.rematches)
                if number <= count / 2 {
                    // Each team has met fewer than half the others: Dirac's theorem leaves a
                    // pairing anew, whatever the earlier rounds were.
                    #expect(round.rematches.isEmpty, "\(count) teams, round \(number)")
                } else {
                    let pairing = SwissPairing(table: Formats.Swiss.standings(entrants: teams, results: results, byes: byes))
                    #expect(
                        round.rematches.count == Self.fewestRematches(fresh: pairing.fresh, byeCandidates: pairing.byeCandidates),
                        "\(count) teams, round \(number)")
                }
                for game in round.games { #expect(GameSetup.problem(withID: game.id.rawValue) == nil) }
                if let bye = round.bye {
                    #expect(byes.filter { $0 == bye }.count == teams.map { team in byes.filter { $0 == team.id }.count }.min())
                }
                let played = Self.play(round, random: &random)
                results += played.results
                byes += played.byes
            }
        }
    }

    @Test(
        "a stage played live, 2 to 64 teams: each round paired from the model's results once the last is final, no rematch, a different bye each round"
    )
    func liveStage() throws {
        var random = SeededRandom(seed: 31)
        for count in Array(2...24) + [31, 32, 47, 64] {
            let teams = Self.seeded(count)
            let rounds = min(count - (count.isMultiple(of: 2) ? 1 : 0), 5)
            let draw = try Formats.Swiss.stage(entrants: teams, rounds: rounds, prefix: "sw")
            expectSound(draw, teams: teams)
            var schedule = schedule(draw, teams: teams)
            var games: [GameID: Game] = [:]
            var met = Set<Set<TeamID>>()
            var paired = 1
            while true {
                // The round's games: none of the next round is known before the round is final.
                for scheduled in schedule.games where games[scheduled.id] == nil {
                    guard let lineup = schedule.lineup(for: scheduled, games) else { continue }
                    #expect(
                        met.insert([lineup.home.id, lineup.away.id]).inserted, "\(count) teams: a rematch in \(scheduled.id)")
                    let upset = Int.random(in: 0..<4, using: &random) == 0
                    games[scheduled.id] = played(scheduled, lineup) { a, b in (seed(a) < seed(b)) != upset ? a : b }
                }
                guard let pairing = try schedule.nextSwissPairing(of: "S", games: games) else { break }
                paired += 1
                #expect(pairing.round == paired && pairing.games.count == count / 2, "\(count) teams, round \(paired)")
                schedule = try schedule.applying(.swissRoundPaired(pairing), hasStarted: { _ in false })
            }
            #expect(paired == rounds, "\(count) teams")
            #expect(games.count == rounds * (count / 2), "\(count) teams: every game played")
            let byes = schedule.swissByes["S"] ?? []
            #expect(Set(byes).count == byes.count && byes.count == (count.isMultiple(of: 2) ? 0 : rounds - 1))
        }
        #expect(
            CourtsideFormatsTests.code { () throws(FormatError) -> Draw in
                try Formats.Swiss.stage(entrants: Self.seeded(8), rounds: 8, prefix: "sw")
            } == .invalidOption)
        #expect(
            CourtsideFormatsTests.code { () throws(FormatError) -> Draw in
                try Formats.Swiss.stage(entrants: Self.seeded(7), rounds: 0, prefix: "sw")
            } == .invalidOption)
    }

    @Test("a Swiss as long as a round robin (2 to 12 teams): a rematch only when no pairing of the round avoids one, byes fair")
    func longSwiss() throws {
        var random = SeededRandom(seed: 3)
        for count in 2...12 {
            for _ in 0..<4 {
                let teams = Self.seeded(count)
                let first = try Formats.Swiss.firstRound(entrants: teams, prefix: "sw")
                var (results, byes) = Self.play(first, random: &random)
                for number in stride(from: 2, through: count + 1, by: 1) {
                    let round = try Formats.Swiss.nextRound(
                        entrants: teams, results: results, byes: byes, round: number, prefix: "sw")
                    Self.expectEveryoneOnce(round, teams: teams.map(\.id))
                    let table = Formats.Swiss.standings(entrants: teams, results: results, byes: byes)
                    let pairing = SwissPairing(table: table)
                    let met = Set(results.map { Set([$0.home, $0.away]) })
                    let repeated = round.games.filter { met.contains(Set([$0.home, $0.away].map(Self.team))) }
                    #expect(repeated.map(\.id) == round.rematches)
                    #expect(
                        round.rematches.count == Self.fewestRematches(fresh: pairing.fresh, byeCandidates: pairing.byeCandidates),
                        "\(count) teams, round \(number)")
                    if let bye = round.bye {
                        #expect(
                            byes.filter { $0 == bye }.count == teams.map { team in byes.filter { $0 == team.id }.count }.min())
                    }
                    let played = Self.play(round, random: &random)
                    results += played.results
                    byes += played.byes
                }
            }
        }
    }

    // MARK: Helpers

    /// Entrants s1...sN in seed order.
    static func seeded(_ count: Int) -> [Entrant] {
        (0..<count).map { Entrant(id: TeamID("s\($0 + 1)"), seed: $0 + 1) }
    }

    static func team(_ slot: Slot) -> TeamID {
        guard case .team(let team) = slot else { preconditionFailure("a Swiss game names its teams") }
        return team
    }

    static func pairs(_ round: SwissRound) -> [[TeamID]] { round.games.map { [team($0.home), team($0.away)] } }

    static func expectEveryoneOnce(_ round: SwissRound, teams: [TeamID], sourceLocation: SourceLocation = #_sourceLocation) {
        let players = round.games.flatMap { [team($0.home), team($0.away)] } + (round.bye.map { [$0] } ?? [])
        #expect(players.sorted() == teams.sorted(), sourceLocation: sourceLocation)
        #expect((round.bye != nil) == !teams.count.isMultiple(of: 2), sourceLocation: sourceLocation)
    }

    static func code(_ body: () throws -> SwissRound) -> FormatError.Code? {
        do {
            _ = try body()
            return nil
        } catch { return (error as? FormatError)?.code }
    }

    /// Random results for a round's games (now and then a forfeit), and its bye.
    static func play(_ round: SwissRound, random: inout SeededRandom) -> (results: [SwissResult], byes: [TeamID]) {
        let results = round.games.map { game in
            let forfeit = random.next() % 20 == 0
            let (home, away) = (Int(random.next() % 22), Int(random.next() % 22))
            return SwissResult(
                home: team(game.home), away: team(game.away), homeScore: home == away ? home + 1 : home, awayScore: away,
                forfeit: forfeit)
        }
        return (results, round.bye.map { [$0] } ?? [])
    }

    /// The first pairing in the preferred order with no rematch, by plain backtracking: the bye
    /// from the lowest-ranked candidate up, then each best-ranked team with the next it may meet.
    static func preferredByBacktracking(fresh: [[Bool]], byeCandidates: [Bool]) -> (pairs: [(Int, Int)], bye: Int?)? {
        let count = fresh.count
        var used = Array(repeating: false, count: count)
        var pairs: [(Int, Int)] = []
        func solve() -> Bool {
            guard let top = used.firstIndex(of: false) else { return true }
            for other in (top + 1)..<count where !used[other] && fresh[top][other] {
                used[top] = true
                used[other] = true
                pairs.append((top, other))
                if solve() { return true }
                pairs.removeLast()
                used[top] = false
                used[other] = false
            }
            return false
        }
        if count.isMultiple(of: 2) { return solve() ? (pairs, nil) : nil }
        for bye in (0..<count).reversed() where byeCandidates[bye] {
            used[bye] = true
            if solve() { return (pairs, bye) }
            used[bye] = false
        }
        return nil
    }

    /// The fewest rematches any pairing (with a bye to a candidate) needs, by brute force.
    static func fewestRematches(fresh: [[Bool]], byeCandidates: [Bool]) -> Int {
        let count = fresh.count
        var used = Array(repeating: false, count: count)
        func fewest() -> Int {
            guard let top = used.firstIndex(of: false) else { return 0 }
            used[top] = true
            defer { used[top] = false }
            var best = Int.max
            for other in (top + 1)..<count where !used[other] {
                used[other] = true
                best = min(best, fewest() + (fresh[top][other] ? 0 : 1))
                used[other] = false
            }
            return best
        }
        if count.isMultiple(of: 2) { return fewest() }
        var best = Int.max
        for bye in 0..<count where byeCandidates[bye] {
            used[bye] = true
            best = min(best, fewest())
            used[bye] = false
        }
        return best
    }
}
