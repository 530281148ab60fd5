import CourtsideFormats
import CourtsideLibrary
import CourtsideModel
import Foundation
import Testing

/// A Swiss stage played live through the library: each round paired by the library once the
/// round before is final, as one durable tournament change, a withdrawal paired around, and
/// the pairing kept across a restart.
@Suite("A Swiss stage through the library", .timeLimit(.minutes(LibraryTestLimits.minutes)))
struct SwissTournamentTests {
    static func schedule(teams count: Int, rounds: Int) throws -> Schedule {
        let teams = (1...count).map { number in
            Team(
                id: TeamID("s\(number)"), name: "Swiss \(number)",
                players: (1...3).map { Player(id: PlayerID("s\(number)p\($0)"), name: "P\($0)") })
        }
        let draw = try Formats.Swiss.stage(entrants: teams.map { Entrant(id: $0.id) }, rounds: rounds, prefix: "sw")
        var schedule = Schedule(
            teams: Dictionary(uniqueKeysWithValues: teams.map { ($0.id, $0) }), courts: ["Court 1", "Court 2"],
            groups: draw.groups, rounds: draw.rounds, games: draw.games)
        for (index, team) in teams.enumerated() { schedule.seeds[team.id] = index + 1 }
        return schedule
    }

    /// Plays every created game not finished to a win for the better seed (the lower number),
    /// 15 to 5, and lets the bracket move on; returns the games played.
    @discardableResult
    func playRound(_ library: GameLibrary) async throws -> [GameID] {
        var played: [GameID] = []
        for game in library.snapshot().value.filter({ !$0.isFinished }).sorted(by: { $0.id < $1.id }) {
            let homeBetter =
                game.setup.home.id.rawValue.count < game.setup.away.id.rawValue.count
                || (game.setup.home.id.rawValue.count == game.setup.away.id.rawValue.count
                    && game.setup.home.id < game.setup.away.id)
            try await TournamentTests().play(library, game.id, homeBetter ? 15 : 5, homeBetter ? 5 : 15)
            played.append(game.id)
        }
        await library.advanceBracket()
        return played
    }

    /// The teams of each created game of a round, by the round's name.
    func pairs(_ library: GameLibrary, round: Int) -> [Set<TeamID>] {
        library.snapshot().value.filter { $0.id.rawValue.hasPrefix("sw-R\(round)-") }.map {
            Set([$0.setup.home.id, $0.setup.away.id])
        }
    }

    @Test("7 teams, 3 rounds: each round paired once the last is final, no rematch, a different bye each round")
    func oddCount() async throws {
        let directory = try TemporaryDirectory()
        let library = try Tournament.open(directory.url)
        let schedule = try Self.schedule(teams: 7, rounds: 3)
        await library.useSchedule(schedule)
        #expect(library.snapshot().value.count == 3, "round 1 is drawn with its teams")
        var met = Set<Set<TeamID>>()
        var byes: [TeamID] = []
        for round in 1...3 {
            let paired = pairs(library, round: round)
            #expect(paired.count == 3, "round \(round)")
            let playing = paired.reduce(into: Set<TeamID>()) { $0.formUnion($1) }
            #expect(playing.count == 6, "every team but the bye plays once in round \(round)")
            let bye = Set(schedule.teams.keys).subtracting(playing)
            byes += bye
            for pair in paired { #expect(met.insert(pair).inserted, "no rematch: \(pair)") }
            if round < 3 {
                // Not paired while a game of the round is still to play.
                #expect(pairs(library, round: round + 1).isEmpty)
            }
            try await playRound(library)
        }
        #expect(Set(byes).count == 3, "no team has a second bye: \(byes)")
        let paired = library.tournamentChanges.compactMap { change -> SwissRoundPairing? in
            if case .swissRoundPaired(let pairing) = change { return pairing }
            return nil
        }
        #expect(paired.map(\.round) == [2, 3])
        #expect(library.currentSchedule?.swissByes["S"] == Array(byes.dropFirst()))
        #expect(library.currentSchedule?.unpairedSwissRound(of: "S") == nil)
        // The best seed wins all three (round 1's bye went to the lowest seed).
        let table = try #require(library.standings().value.first)
        #expect(table.complete && table.rows.first?.team == "s1" && table.rows.first?.won == 3)
        await library.close()
    }

    @Test("a team withdrawn between rounds is paired no more; the round's spare game leaves the schedule")
    func withdrawal() async throws {
        let directory = try TemporaryDirectory()
        let library = try Tournament.open(directory.url)
        await library.useSchedule(try Self.schedule(teams: 8, rounds: 3))
        // The last game of round 1 is left to play, so round 2 waits while s8 withdraws.
        let round1 = library.snapshot().value.map(\.id).sorted()
        for game in round1.dropLast() { try await TournamentTests().play(library, game, 15, 5) }
        #expect(pairs(library, round: 2).isEmpty)
        try await library.change(.teamWithdrawn("s8"), origin: origin("desk"))
        await library.advanceBracket()
        let round2 = pairs(library, round: 2)
        #expect(round2.count == 3, "7 teams left: 3 games and a bye")
        #expect(!round2.contains { $0.contains("s8") })
        let schedule = try #require(library.currentSchedule)
        #expect(schedule.game("sw-R2-4") == nil, "the spare game is dropped")
        #expect(schedule.game("sw-R3-4") != nil, "later rounds are paired when they come")
        #expect(schedule.swissByes["S"]?.count == 1)
        try await playRound(library)
        let round3 = pairs(library, round: 3)
        #expect(round3.count == 3 && !round3.contains { $0.contains("s8") })
        #expect(library.currentSchedule?.game("sw-R3-4") == nil)
        await library.close()
    }

    @Test("a round's pairing is read back from the log after a restart, never paired again")
    func restart() async throws {
        let directory = try TemporaryDirectory()
        var library = try Tournament.open(directory.url)
        let schedule = try Self.schedule(teams: 6, rounds: 3)
        await library.useSchedule(schedule)
        try await playRound(library)
        let round2 = pairs(library, round: 2)
        #expect(round2.count == 3)
        let changes = library.tournamentChanges.count
        await library.close()
        library = try Tournament.open(directory.url)
        await library.useSchedule(schedule)
        #expect(pairs(library, round: 2) == round2)
        #expect(library.tournamentChanges.count == changes, "no second pairing recorded")
        #expect(library.currentSchedule?.unpairedSwissRound(of: "S")?.round == 3)
        await library.close()
    }
}
