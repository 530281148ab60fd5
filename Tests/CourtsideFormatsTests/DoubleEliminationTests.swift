import CourtsideModel
import Testing

@testable import CourtsideFormats

@Suite("Double elimination")
struct DoubleEliminationTests {
    @Test("eight teams: the standard order, losers dropping crosswise, a grand final and its reset")
    func eightTeams() throws {
        let bracket = try Formats.doubleElimination(seeded(8), prefix: "open")
        let draw = bracket.draw
        #expect(draw.games.count == 15)
        #expect(
            draw.rounds == [
                "Winners' round 1", "Winners' round 2", "Losers' round 1", "Losers' round 2", "Winners' final",
                "Losers' round 3", "Losers' final", "Grand final", "Grand final reset",
            ])
        let first = draw.games.filter { $0.round == "Winners' round 1" }
        #expect(first.map(\.id.rawValue) == ["open-W1-1", "open-W1-2", "open-W1-3", "open-W1-4"])
        // The single elimination bracket's order (1 v 8, 4 v 5, 3 v 6, 2 v 7), the better seed at home.
        #expect(
            first.map { [$0.home, $0.away] }
                == [["s1", "s8"], ["s4", "s5"], ["s3", "s6"], ["s2", "s7"]].map { $0.map { .team(TeamID($0)) } })
        // Losers' round 1 pairs neighbours; round 2 takes winners' round 2's losers crosswise, so
        // the loser of W2-1 (whose half holds L1-1's teams) meets L1-2's winner.
        #expect(game(draw, "open-L1-1").map { [$0.home, $0.away] } == [.loser(of: "open-W1-1"), .loser(of: "open-W1-2")])
        #expect(game(draw, "open-L2-1").map { [$0.home, $0.away] } == [.loser(of: "open-W2-2"), .winner(of: "open-L1-1")])
        #expect(game(draw, "open-L2-2").map { [$0.home, $0.away] } == [.loser(of: "open-W2-1"), .winner(of: "open-L1-2")])
        #expect(game(draw, "open-L4-1").map { [$0.home, $0.away] } == [.loser(of: "open-W3-1"), .winner(of: "open-L3-1")])
        #expect(game(draw, "open-GF").map { [$0.home, $0.away] } == [.winner(of: "open-W3-1"), .winner(of: "open-L4-1")])
        #expect(game(draw, "open-GF2").map { [$0.home, $0.away] } == [.loser(of: "open-GF"), .winner(of: "open-GF")])
        #expect(bracket.grandFinal == "open-GF")
        #expect(bracket.reset == "open-GF2")
        #expect(bracket.conditionalGames == [ConditionalGame(game: "open-GF2", condition: .won(game: "open-GF", by: .away))])
        #expect(bracket.condition(of: "open-GF2")?.holds(winner: .away) == true)
        #expect(bracket.condition(of: "open-GF2")?.holds(winner: .home) == false)
        #expect(bracket.condition(of: "open-GF2")?.game == "open-GF")
        #expect(bracket.condition(of: "open-GF") == nil)
        #expect(bracket.winnersBracket.map(\.count) == [4, 2, 1])
        #expect(bracket.losersBracket.map(\.count) == [2, 2, 1, 1])
    }

    @Test("two teams: no losers' bracket, the grand final is the rematch; without a reset, no conditional game")
    func twoTeams() throws {
        let bracket = try Formats.doubleElimination(seeded(2), prefix: "d", reset: false)
        #expect(bracket.draw.games.map(\.id) == ["d-W1-1", "d-GF"])
        #expect(game(bracket.draw, "d-GF").map { [$0.home, $0.away] } == [.winner(of: "d-W1-1"), .loser(of: "d-W1-1")])
        #expect(bracket.conditionalGames.isEmpty)
        #expect(bracket.reset == nil)
        #expect(bracket.losersBracket.isEmpty)
        #expect(bracket.draw.rounds == ["Winners' final", "Grand final"])
    }

    @Test("five teams: byes to seeds 1 to 3, who play first in winners' round 2; the losers' rounds renumbered")
    func byes() throws {
        let draw = try Formats.doubleElimination(seeded(5), prefix: "d").draw
        let first = draw.games.filter { $0.round == "Winners' round 1" }
        #expect(first.map { [$0.home, $0.away] } == [[.team("s4"), .team("s5")]])
        let second = draw.games.filter { $0.round == "Winners' round 2" }
        #expect(second.map { [$0.home, $0.away] } == [[.team("s1"), .winner(of: "d-W1-1")], [.team("s2"), .team("s3")]])
        // 2 x 5 - 1 games with the reset; the losers' bracket starts where it has a game.
        #expect(draw.games.count == 9)
        #expect(draw.rounds.filter { $0.hasPrefix("Losers") } == ["Losers' round 1", "Losers' round 2", "Losers' final"])
        #expect(draw.games.filter { $0.round?.hasPrefix("Losers") == true }.map(\.id) == ["d-L1-1", "d-L2-1", "d-L3-1"])
        // The one first-round loser meets a second-round loser; the other waits a round.
        #expect(game(draw, "d-L1-1").map { [$0.home, $0.away] } == [.loser(of: "d-W2-2"), .loser(of: "d-W1-1")])
        #expect(game(draw, "d-L2-1").map { [$0.home, $0.away] } == [.winner(of: "d-L1-1"), .loser(of: "d-W2-1")])
    }

    @Test("the reset's condition read from the games: undecided, then held or not by the winner")
    func conditionFromGames() throws {
        let condition = PlayCondition.won(game: "GF", by: .away)
        let home = Team(id: "a", name: "A", players: [Player(id: "a1", name: "A1")])
        let away = Team(id: "b", name: "B", players: [Player(id: "b1", name: "B1")])
        var final = Game(setup: GameSetup(id: "GF", home: home, away: away))
        #expect(condition.holds(in: [GameID: Game]()) == nil)
        #expect(condition.holds(in: ["GF": final]) == nil)
        final.status = .finished
        final.winner = .away
        #expect(condition.holds(in: ["GF": final]) == true)
        final.winner = .home
        #expect(condition.holds(in: ["GF": final]) == false)
        #expect(condition.description == "the away team wins GF")
    }

    @Test("bad input: too few or too many teams, a team twice, a prefix no game id takes")
    func badInput() {
        #expect(throws: FormatError.self) { try Formats.doubleElimination(seeded(1), prefix: "d") }
        #expect(code { try Formats.doubleElimination(seeded(1), prefix: "d") } == .tooFewTeams)
        #expect(code { try Formats.doubleElimination(seeded(129), prefix: "d") } == .tooManyTeams)
        #expect(code { try Formats.doubleElimination(seeded(3) + seeded(1), prefix: "d") } == .duplicateTeam)
        #expect(code { try Formats.doubleElimination(seeded(4), prefix: "a b") } == .invalidPrefix)
        #expect(code { try Formats.doubleElimination(seeded(4), prefix: String(repeating: "x", count: 60)) } == .invalidPrefix)
    }

    @Test("2 to 128 teams: valid unique ids, slots naming earlier games, a schedule with no problem, every loser dropped once")
    func structure() throws {
        for count in 2...128 {
            for reset in [true, false] {
                let bracket = try Formats.doubleElimination(seeded(count), prefix: "de", reset: reset)
                let draw = bracket.draw
                #expect(draw.games.count == 2 * count - 2 + (reset ? 1 : 0), "\(count) teams")
                var seen: [GameID: Int] = [:]
                var roundOf: [GameID: Int] = [:]
                for (index, game) in draw.games.enumerated() {
                    #expect(GameSetup.problem(withID: game.id.rawValue) == nil)
                    #expect(seen.updateValue(index, forKey: game.id) == nil, "\(game.id) twice")
                    let round = try #require(draw.rounds.firstIndex(of: game.round ?? ""), "\(game.id)'s round")
                    roundOf[game.id] = round
                    for dependency in draw.dependencies(of: game) {
                        // Every slot names a game before it, of an earlier round: no cycle.
                        let before = try #require(roundOf[dependency], "\(game.id) waits on \(dependency), not before it")
                        #expect(before < round)
                    }
                }
                #expect(Set(roundOf.values).count == draw.rounds.count, "no empty round")
                // The checks every format's draw passes (Checks.swift), a schedule with no problem among them.
                expectSound(draw, teams: seeded(count))
                #expect(schedule(draw, teams: seeded(count)).problem == nil)
                // Each winners' game's loser drops into the losers' bracket exactly once (with
                // two teams, into the grand final); each game's winner goes on once.
                let slots = draw.games.flatMap { [$0.home, $0.away] }
                let losersGames = Set(bracket.losersBracket.joined())
                for id in bracket.winnersBracket.joined() {
                    let takers = draw.games.filter { $0.home == .loser(of: id) || $0.away == .loser(of: id) }
                    #expect(takers.count == 1, "\(count) teams: \(id)'s loser")
                    #expect(takers.allSatisfy { losersGames.contains($0.id) || (count == 2 && $0.id == bracket.grandFinal) })
                }
                for game in draw.games where game.id != bracket.grandFinal && game.id != bracket.reset {
                    #expect(slots.filter { $0 == .winner(of: game.id) }.count == 1, "\(count) teams: \(game.id)'s winner")
                }
                for id in losersGames { #expect(!slots.contains(.loser(of: id)), "\(id)'s loser is out") }
                #expect(bracket.winnersBracket.joined().count == count - 1)
                // The first round seats the better seed at home, as a single elimination bracket does.
                for game in draw.games where bracket.winnersBracket.first?.contains(game.id) == true {
                    if case .team(let home) = game.home, case .team(let away) = game.away {
                        #expect(seed(home) < seed(away), "\(count) teams: \(game.id)")
                    }
                }
                #expect(bracket.losersBracket.joined().count == count - 2)
            }
        }
    }

    @Test("2 to 128 teams played out: all but the champion lose twice, or once when the grand final has no reset")
    func playedOut() throws {
        var random = SeededRandom(seed: 38)
        for count in 2...128 {
            for reset in [true, false] {
                let bracket = try Formats.doubleElimination(seeded(count), prefix: "de", reset: reset)
                for _ in 0..<3 {
                    let played = Self.play(bracket, random: &random)
                    var losses: [TeamID: Int] = [:]
                    for (_, result) in played { losses[result.loser, default: 0] += 1 }
                    let final = try #require(played[bracket.grandFinal])
                    let last = bracket.reset.flatMap { played[$0] } ?? final
                    let champion = last.winner
                    // The reset is played exactly when the losers' champion won the first final.
                    if let reset = bracket.reset {
                        #expect((played[reset] != nil) == (final.winnerSide == .away))
                    }
                    for team in seeded(count).map(\.id) where team != champion {
                        // Without a reset, the winners' champion beaten in the final is out after one loss.
                        let expected = !reset && team == final.loser && final.winnerSide == .away ? 1 : 2
                        #expect(losses[team, default: 0] == expected, "\(count) teams: \(team)")
                    }
                    #expect(losses[champion, default: 0] <= 1)
                    #expect(losses.count == count - (losses[champion] == nil ? 1 : 0))
                }
            }
        }
    }

    @Test(
        "rematches: no loser of a winners' round before the quarter-finals can meet at once a team it beat; never more risks than alternation alone"
    )
    func rematches() throws {
        for count in 2...128 {
            let (builder, risky) = Self.riskyGames(count: count, alternationOnly: false)
            let (_, alternating) = Self.riskyGames(count: count, alternationOnly: true)
            #expect(risky.count <= alternating.count, "\(count) teams")
            // Winners' round r of k: the quarter-finals are round k - 2.
            let quarterFinals = builder.size.trailingZeroBitCount - 2
            for game in risky {
                if case .loser(let id) = game.home, let round = builder.winnersRounds.firstIndex(where: { $0.contains(id) }) {
                    #expect(round + 1 >= quarterFinals, "\(count) teams: \(game.id) can be a rematch of \(id)")
                }
            }
        }
        // The figures the documentation gives: for 128 teams, 10 losers' games of 126 where a team
        // can meet at once one it met before, against 32 with the drops alternating alone; for
        // 64 teams, 6 of 62 against 16.
        #expect(Self.riskyGames(count: 128, alternationOnly: false).risky.count == 10)
        #expect(Self.riskyGames(count: 128, alternationOnly: true).risky.count == 32)
        #expect(Self.riskyGames(count: 64, alternationOnly: false).risky.count == 6)
        #expect(Self.riskyGames(count: 64, alternationOnly: true).risky.count == 16)
    }

    // MARK: Helpers

    /// Entrants s1...sN in seed order.
    private func seeded(_ count: Int) -> [Entrant] { Self.seeded(count) }

    static func seeded(_ count: Int) -> [Entrant] {
        (0..<count).map { Entrant(id: TeamID("s\($0 + 1)"), seed: $0 + 1) }
    }

    private func game(_ draw: Draw, _ id: GameID) -> ScheduledGame? { draw.games.first { $0.id == id } }

    private func code(_ body: () throws -> DoubleEliminationDraw) -> FormatError.Code? {
        do {
            _ = try body()
            return nil
        } catch { return (error as? FormatError)?.code }
    }

    struct Result {
        var winner: TeamID
        var loser: TeamID
        var winnerSide: Side
    }

    /// The bracket played in order with random winners; a conditional game only if its
    /// condition holds.
    static func play(_ bracket: DoubleEliminationDraw, random: inout SeededRandom) -> [GameID: Result] {
        var played: [GameID: Result] = [:]
        func resolve(_ slot: Slot) -> TeamID? {
            switch slot {
            case .team(let team): team
            case .winner(let game): played[game]?.winner
            case .loser(let game): played[game]?.loser
            default: nil
            }
        }
        for game in bracket.draw.games {
            if let condition = bracket.condition(of: game.id) {
                guard let decided = played[condition.game], condition.holds(winner: decided.winnerSide) else { continue }
            }
            guard let home = resolve(game.home), let away = resolve(game.away) else {
                Issue.record("\(game.id): a slot is undecided when it is due")
                continue
            }
            #expect(home != away)
            let side: Side = random.next() % 2 == 0 ? .home : .away
            played[game.id] =
                side == .home
                ? Result(winner: home, loser: away, winnerSide: side) : Result(winner: away, loser: home, winnerSide: side)
        }
        return played
    }

    /// The losers' bracket games where a team can meet at once one it met in the winners' bracket.
    static func riskyGames(count: Int, alternationOnly: Bool) -> (builder: DoubleEliminationBuilder, risky: [ScheduledGame]) {
        var builder = DoubleEliminationBuilder(teams: seeded(count).map(\.id), prefix: "de")
        builder.alternationOnly = alternationOnly
        let draw = builder.build(reset: true).draw
        let arrivals = arrivals(draw, builder: builder)
        let losers = Set(builder.losersRounds.joined())
        let risky = draw.games.filter { game in
            guard losers.contains(game.id), let home = arrivals[game.home.description], let away = arrivals[game.away.description]
            else { return false }
            return builder.canRematch(home, away)
        }
        return (builder, risky)
    }

    /// Who can arrive through each slot of the draw, keyed by the slot's description.
    static func arrivals(_ draw: Draw, builder: DoubleEliminationBuilder) -> [String: DoubleEliminationBuilder.Feed] {
        let index = Dictionary(uniqueKeysWithValues: builder.teams.enumerated().map { ($1, $0) })
        var winners: [GameID: [DoubleEliminationBuilder.Arrival]] = [:]
        var losers: [GameID: [DoubleEliminationBuilder.Arrival]] = [:]
        var feeds: [String: DoubleEliminationBuilder.Feed] = [:]
        var winnersRound: [GameID: Int] = [:]
        for (round, ids) in builder.winnersRounds.enumerated() { for id in ids { winnersRound[id] = round + 1 } }
        func arrivals(_ slot: Slot) -> [DoubleEliminationBuilder.Arrival] {
            switch slot {
            case .team(let team): [.init(team: index[team]!, lostInRound: 0)]
            case .winner(let game): winners[game] ?? []
            case .loser(let game): losers[game] ?? []
            default: []
            }
        }
        for game in draw.games {
            let both = arrivals(game.home) + arrivals(game.away)
            for slot in [game.home, game.away] { feeds[slot.description] = .init(slot: slot, arrivals: arrivals(slot)) }
            winners[game.id] = both
            losers[game.id] = both.map {
                .init(team: $0.team, lostInRound: $0.lostInRound == 0 ? winnersRound[game.id] ?? 0 : $0.lostInRound)
            }
        }
        return feeds
    }
}
