import CourtsideFormats
import CourtsideModel
import Testing

@Suite("Single elimination")
struct SingleEliminationTests {
    @Test("the standard order: 1 v 16, 8 v 9, 5 v 12, 4 v 13, ...")
    func order() {
        #expect(Formats.bracketOrder(2) == [1, 2])
        #expect(Formats.bracketOrder(4) == [1, 4, 3, 2])
        #expect(Formats.bracketOrder(16) == [1, 16, 9, 8, 5, 12, 13, 4, 3, 14, 11, 6, 7, 10, 15, 2])
    }

    @Test("eight teams: quarter-finals, semi-finals, third place, final; the better seed at home")
    func eight() throws {
        let draw = try Formats.singleElimination(entrants(8), prefix: "women")
        #expect(draw.rounds == ["Quarter-finals", "Semi-finals", "Third place", "Final"])
        #expect(
            draw.games.map(\.id.rawValue) == [
                "women-qf1", "women-qf2", "women-qf3", "women-qf4", "women-sf1", "women-sf2", "women-3rd", "women-final",
            ])
        #expect(draw.games.prefix(4).map { namedTeams($0).map(seed) } == [[1, 8], [4, 5], [3, 6], [2, 7]])
        #expect(draw.games[4].home == .winner(of: "women-qf1") && draw.games[4].away == .winner(of: "women-qf2"))
        // Third place: the loser of 2 v 3's semi-final is expected to be 3, so it is at home.
        #expect(draw.games[6].home == .loser(of: "women-sf2") && draw.games[6].away == .loser(of: "women-sf1"))
        #expect(draw.games[7].home == .winner(of: "women-sf1") && draw.games[7].away == .winner(of: "women-sf2"))
        #expect(draw.groups.isEmpty)
        expectSound(draw, teams: entrants(8))
    }

    @Test("six teams: byes to seeds 1 and 2, who start in the semi-finals")
    func byes() throws {
        let draw = try Formats.singleElimination(entrants(6), prefix: "k", thirdPlace: false)
        #expect(draw.rounds == ["Quarter-finals", "Semi-finals", "Final"])
        #expect(draw.games.prefix(2).map { namedTeams($0).map(seed) } == [[4, 5], [3, 6]])
        #expect(draw.games[2].home == .team("t1") && draw.games[2].away == .winner(of: "k-qf1"))
        #expect(draw.games[3].home == .team("t2") && draw.games[3].away == .winner(of: "k-qf2"))
    }

    @Test("places 5 to 8 from the quarter-finals' losers")
    func placesFiveToEight() throws {
        let draw = try Formats.singleElimination(entrants(8), prefix: "o", fifthToEighth: true)
        #expect(draw.rounds == ["Quarter-finals", "Places 5-8", "Semi-finals", "Places 5 and 7", "Third place", "Final"])
        let byID = Dictionary(uniqueKeysWithValues: draw.games.map { ($0.id, $0) })
        // Seeds 8 and 5 are expected to lose qf1 and qf2: 5 at home.
        #expect(byID["o-5-8-1"]?.home == .loser(of: "o-qf2") && byID["o-5-8-1"]?.away == .loser(of: "o-qf1"))
        #expect(byID["o-5th"]?.home == .winner(of: "o-5-8-1") && byID["o-7th"]?.home == .loser(of: "o-5-8-2"))
        // Six teams: two quarter-finals, whose losers play for fifth.
        let six = try Formats.singleElimination(entrants(6), prefix: "o", fifthToEighth: true)
        #expect(six.games.first { $0.id == "o-5th" }?.home == .loser(of: "o-qf1"))
        expectSound(draw, teams: entrants(8))
        expectSound(six, teams: entrants(6))
    }

    @Test("every count 2...128: byes only to top seeds, 1 and 2 only in the final, every team plays, one champion")
    func properties() throws {
        for count in teamCounts {
            for (third, places) in [(true, true), (false, false)] {
                let teams = entrants(count)
                let draw = try Formats.singleElimination(teams, prefix: "open", thirdPlace: third, fifthToEighth: places)
                var size = 2
                while size < count { size *= 2 }
                let byes = size - count
                // Teams named directly: the first round's, and the byes' (in the second round).
                let firstRound = draw.games.filter { $0.round == draw.rounds[0] }
                let named = draw.games.flatMap(namedTeams)
                #expect(Set(named) == Set(teams.map(\.id)), "\(count): every team plays")
                #expect(named.count == count, "\(count): each team named once")
                let withBye = Set(named).subtracting(firstRound.flatMap(namedTeams))
                #expect(withBye == Set(teams.prefix(byes).map(\.id)), "\(count): byes to the top \(byes)")
                // Simulate: the better seed always wins; the final is 1 v 2; nobody plays twice a round.
                var winners: [GameID: TeamID] = [:]
                var losers: [GameID: TeamID] = [:]
                var seenIn: [String: Set<TeamID>] = [:]
                for game in draw.games {
                    func team(_ slot: Slot) -> TeamID? {
                        switch slot {
                        case .team(let team): team
                        case .winner(let other): winners[other]
                        case .loser(let other): losers[other]
                        default: nil
                        }
                    }
                    guard let home = team(game.home), let away = team(game.away) else {
                        Issue.record("\(count): \(game.id) has an undecided slot")
                        continue
                    }
                    if seed(home) > seed(away) { Issue.record("\(count): \(game.id) the worse seed is at home") }
                    for side in [home, away] where !seenIn[game.round ?? "", default: []].insert(side).inserted {
                        Issue.record("\(count): \(side) twice in \(game.round ?? "")")
                    }
                    (winners[game.id], losers[game.id]) = (home, away)
                    // Seeds 1 and 2 meet in the final only.
                    if Set([home, away]) == ["t1", "t2"], game.id != "open-final" {
                        Issue.record("\(count): 1 v 2 in \(game.id)")
                    }
                }
                #expect(winners["open-final"] == "t1")
                #expect(losers["open-final"] == "t2")
                let final = draw.games.last
                #expect(final?.id == "open-final" && final?.round == "Final")
                // A game fewer than teams, plus the placement games.
                let placement = draw.games.filter {
                    ["Third place", "Places 5-8", "Places 5 and 7", "Fifth place"].contains($0.round)
                }
                #expect(draw.games.count - placement.count == count - 1)
                if third && count >= 4 {
                    #expect(losers["open-3rd"] == "t4" && winners["open-3rd"] == "t3", "\(count): third place")
                }
                if places && count >= 8 {
                    #expect(winners["open-5th"] == "t5" && losers["open-7th"] == "t8", "\(count): places 5-8")
                }
                expectSound(draw, teams: teams)
            }
        }
    }

    @Test("bad input: one team, a team twice")
    func badInput() {
        #expect(code { () throws(FormatError) in try Formats.singleElimination(entrants(1), prefix: "p") } == .tooFewTeams)
        #expect(
            code { () throws(FormatError) in try Formats.singleElimination(entrants(2) + entrants(1), prefix: "p") }
                == .duplicateTeam)
    }
}
