import CourtsideExport
import CourtsideLibrary
import CourtsideModel
import CourtsideStorage
import Foundation
import Testing

/// A small tournament played through the library to its end: 8 teams in two groups, then
/// semi-finals and a final, with the bracket filling itself from the results.
@Suite("A tournament through the library", .timeLimit(.minutes(LibraryTestLimits.minutes)))
struct TournamentTests {
    static let teams: [TeamID: Team] = Dictionary(
        uniqueKeysWithValues: (1...8).map { number in
            let id = TeamID("t\(number)")
            return (
                id,
                Team(
                    id: id, name: "Team \(number)",
                    players: (1...3).map { Player(id: PlayerID("t\(number)p\($0)"), name: "P\($0)") })
            )
        })

    static var schedule: Schedule {
        func roundRobin(_ group: String, _ members: [Int]) -> [ScheduledGame] {
            var games: [ScheduledGame] = []
            for (i, home) in members.enumerated() {
                for away in members[(i + 1)...] {
                    games.append(
                        ScheduledGame(
                            id: GameID("\(group.lowercased())\(home)\(away)"), home: .team(TeamID("t\(home)")),
                            away: .team(TeamID("t\(away)")), court: "Court \(games.count % 2 + 1)", group: group, round: "Groups")
                    )
                }
            }
            return games
        }
        return Schedule(
            teams: teams, courts: ["Court 1", "Court 2"],
            groups: [Group(id: "A", teams: ["t1", "t2", "t3", "t4"]), Group(id: "B", teams: ["t5", "t6", "t7", "t8"])],
            rounds: ["Groups", "Semi-finals", "Final"],
            games: roundRobin("A", [1, 2, 3, 4]) + roundRobin("B", [5, 6, 7, 8]) + [
                ScheduledGame(
                    id: "sf1", home: .groupRank(group: "A", rank: 1), away: .groupRank(group: "B", rank: 2), round: "Semi-finals"),
                ScheduledGame(
                    id: "sf2", home: .groupRank(group: "B", rank: 1), away: .groupRank(group: "A", rank: 2), round: "Semi-finals"),
                ScheduledGame(id: "final", home: .winner(of: "sf1"), away: .winner(of: "sf2"), court: "Center", round: "Final"),
            ])
    }

    /// Plays a game to `home`-`away`, the loser's points first so it ends on the winner's last.
    func play(_ library: GameLibrary, _ game: GameID, _ home: Int, _ away: Int) async throws {
        let setup = try library.snapshot(of: game).value.setup
        try await library.apply(.startClock, to: game, origin: origin())
        func score(_ side: Side, _ points: Int) async throws {
            let player = setup.team(side).players[0].id
            for _ in 0..<(points / 2) {
                try await library.apply(.move(player: player, move: .twoPoints), to: game, origin: origin())
            }
            if points % 2 == 1 { try await library.apply(.move(player: player, move: .onePoint), to: game, origin: origin()) }
        }
        if home > away {
            try await score(.away, away)
            try await score(.home, home)
        } else {
            try await score(.home, home)
            try await score(.away, away)
        }
        let result = try library.snapshot(of: game).value
        #expect(result.isFinished && result.score == SideValues(home: home, away: away), "game \(game)")
    }

    @Test("groups, semi-finals and a final: standings, bracket, retraction rules and exports")
    func fullTournament() async throws {
        let directory = try TemporaryDirectory()
        let library = try Tournament.open(directory.url)
        let created = await library.useSchedule(Self.schedule)
        #expect(created.count == 12)  // the group games; the knock-out waits for results
        #expect(library.bracket().value.filter { $0.state == .pending }.map(\.game) == ["sf1", "sf2", "final"])

        // Group A: t1 wins all; t2, t3, t4 beat each other once, point difference ranks them.
        for (game, home, away) in [
            ("a12", 15, 13), ("a13", 15, 10), ("a14", 15, 0), ("a23", 15, 5), ("a24", 12, 15), ("a34", 15, 13),
        ] {
            try await play(library, GameID(game), home, away)
        }
        // Group B: the lower number always wins.
        for game in ["b56", "b57", "b58", "b67", "b68", "b78"] { try await play(library, GameID(game), 15, 10) }
        await library.advanceBracket()

        let standings = library.standings().value
        #expect(standings.map(\.group) == ["A", "B"])
        #expect(standings[0].rows.map(\.team) == ["t1", "t2", "t3", "t4"])
        #expect(standings[0].rows.map(\.won) == [3, 1, 1, 1])
        #expect(standings[1].rows.map(\.team) == ["t5", "t6", "t7", "t8"])
        #expect(standings.allSatisfy { $0.complete })

        // The semi-finals filled themselves: 1st A v 2nd B, 1st B v 2nd A.
        let sf1 = try library.snapshot(of: "sf1").value.setup
        let sf2 = try library.snapshot(of: "sf2").value.setup
        #expect((sf1.home.id, sf1.away.id) == ("t1", "t6"))
        #expect((sf2.home.id, sf2.away.id) == ("t5", "t2"))
        try await play(library, "sf1", 15, 11)
        try await play(library, "sf2", 13, 15)
        await library.advanceBracket()
        var final = try library.snapshot(of: "final").value
        #expect((final.setup.home.id, final.setup.away.id) == ("t1", "t2"))

        // Before the final starts, undoing sf2's winning basket reopens it and, played the other
        // way, sends t5 to the final instead.
        let winning = try #require(try library.snapshot(of: "sf2").value.plays.last)
        let undo = try await library.retract(version: winning.version, in: "sf2", origin: origin())
        #expect(try library.snapshot(of: "sf2").value.status == .paused)
        // While sf2 is open again, the final's teams are not settled: it cannot start.
        await expectCode(.bracketPending) { try await library.apply(.startClock, to: "final", origin: origin()) }
        #expect(try library.snapshot(of: "final").value.hasStarted == false)
        let t5 = try library.snapshot(of: "sf2").value.setup.home.players[0].id
        // 13 - 14 after the retraction; three singles make it 16 - 14.
        for _ in 0..<3 { try await library.apply(.move(player: t5, move: .onePoint), to: "sf2", origin: origin()) }
        #expect(try library.snapshot(of: "sf2").value.winner == .home)
        await library.advanceBracket()
        final = try library.snapshot(of: "final").value
        #expect((final.setup.home.id, final.setup.away.id) == ("t1", "t5"))
        #expect(library.bracket().value.first { $0.game == "final" }?.state == .ready)

        // Once the final has started, a retraction that would change its teams is refused.
        try await library.apply(.startClock, to: "final", origin: origin())
        let sf1Winner = try #require(try library.snapshot(of: "sf1").value.plays.last)
        await expectCode(.bracketLocked) { try await library.retract(version: sf1Winner.version, in: "sf1", origin: origin()) }
        #expect(try library.snapshot(of: "sf1").value.isFinished)
        // A retraction that leaves the result alone is still fine.
        let sf1Loser = try #require(try library.snapshot(of: "sf1").value.plays.first { $0.side == .away })
        try await library.retract(version: sf1Loser.version, in: "sf1", origin: origin())

        try await library.apply(.pauseClock, to: "final", origin: origin())
        let finalPlayers = try library.snapshot(of: "final").value.setup
        for _ in 0..<8 {
            try await library.apply(
                .move(player: finalPlayers.away.players[1].id, move: .twoPoints), to: "final", origin: origin())
        }
        let bracket = library.bracket().value
        let champion = bracket.first { $0.game == "final" }
        #expect(champion?.state == .final && champion?.winner == "t5")
        #expect(bracket.allSatisfy { entry in entry.state == .final })

        // Exports, from the library's state and each game's trail in the log.
        var trails: [GameID: [GameEvent]] = [:]
        for id in library.gameIDs() { trails[id] = try await library.log(of: id) }
        let record = TournamentRecord(
            games: library.snapshot().value, standings: library.standings().value, bracket: bracket, trails: trails)
        let files = Exporter.csvFiles(record)
        #expect(Set(files.keys) == ["results.csv", "standings.csv", "box_scores.csv", "play_by_play.csv"])
        let results = try #require(files["results.csv"]).split(separator: "\n")
        #expect(results.count == 1 + 15)
        #expect(results.contains("final,Final,,Center,t1,t5,0,16,finished,t5,score"))
        #expect(results.contains("sf2,Semi-finals,,,t5,t2,16,14,finished,t5,score"))
        let table = try #require(files["standings.csv"]).split(separator: "\n")
        #expect(table[1] == "A,1,t1,Team 1,3,3,0,45,23,22")
        let box = try #require(files["box_scores.csv"])
        #expect(box.contains("final,t5,t5p2,P2,0,8,0,0,0,0,16"))
        let trail = try #require(files["play_by_play.csv"]).split(separator: "\n").filter { $0.hasPrefix("sf2,") }
        #expect(trail.contains { $0.contains(",retraction,,,\(winning.version),") })
        #expect(
            trail.contains {
                $0.hasPrefix("sf2,\(winning.version),") && $0.hasSuffix(",move,t2p1,\(winning.move.rawValue),,\(undo.version)")
            })
        let json = try JSONSerialization.jsonObject(with: Exporter.json(record)) as? [String: [[String: String]]]
        #expect(json?["results"]?.count == 15)
        #expect(json?["standings"]?.first?["team"] == "t1")
        await library.close()
    }

    @Test(
        "a retraction that reopens a result and the start of the game it feeds, sent at once: exactly one goes through",
        arguments: 0..<25)
    func retractionRacesStart(round: Int) async throws {
        let directory = try TemporaryDirectory()
        let library = try Tournament.open(directory.url)
        await library.useSchedule(
            Schedule(
                teams: Self.teams,
                games: [
                    ScheduledGame(id: "semi", home: .team("t1"), away: .team("t2")),
                    ScheduledGame(id: "final", home: .winner(of: "semi"), away: .team("t3")),
                ]))
        try await play(library, "semi", 15, 13)
        await library.advanceBracket()
        let winning = try #require(try library.snapshot(of: "semi").value.plays.last)
        // Two keepers at once: decided concurrently on the two games' actors.
        async let retraction = library.submit(.retract(version: winning.version), to: "semi", origin: origin())
        async let start = library.submit(.startClock, to: "final", origin: origin())
        var outcomes: [CourtsideError.Code?] = []
        for pending in await [retraction, start] {
            do {
                _ = try await pending.value()
                outcomes.append(nil)
            } catch {
                outcomes.append(error.code)
            }
        }
        // Whichever was decided first stands; the other is refused with its code.
        #expect(outcomes == [nil, .bracketPending] || outcomes == [.bracketLocked, nil], "round \(round): \(outcomes)")
        await library.close()
    }

    @Test("the bracket moves on by itself, with results landing together in commits and during its advances")
    func bracketFollowsResults() async throws {
        let directory = try TemporaryDirectory()
        let library = try Tournament.open(directory.url)
        await library.useSchedule(Self.schedule)
        // Every group game at once: results share commits, and some land while an advance runs.
        // Nothing here asks the library to advance: the bracket's watcher alone must see them all.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (game, home, away) in [
                ("a12", 15, 13), ("a13", 15, 10), ("a14", 15, 0), ("a23", 15, 5), ("a24", 12, 15), ("a34", 15, 13),
                ("b56", 15, 10), ("b57", 15, 10), ("b58", 15, 10), ("b67", 15, 10), ("b68", 15, 10), ("b78", 15, 10),
            ] {
                group.addTask { try await play(library, GameID(game), home, away) }
            }
            try await group.waitForAll()
        }
        func teams(_ game: GameID) async -> (TeamID, TeamID)? {
            // The watcher runs beside this test: give it up to 10 s.
            for _ in 0..<1000 {
                if let setup = try? library.snapshot(of: game).value.setup, !setup.home.players.isEmpty {
                    return (setup.home.id, setup.away.id)
                }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return nil
        }
        #expect(await teams("sf1").map { [$0.0, $0.1] } == ["t1", "t6"])
        #expect(await teams("sf2").map { [$0.0, $0.1] } == ["t5", "t2"])
        async let first: Void = play(library, "sf1", 15, 11)
        async let second: Void = play(library, "sf2", 13, 15)
        _ = try await (first, second)
        #expect(await teams("final").map { [$0.0, $0.1] } == ["t1", "t2"])
        await library.close()
    }

    @Test("the schedule survives a restart: games are not created twice, the bracket goes on")
    func restart() async throws {
        let directory = try TemporaryDirectory()
        var library = try Tournament.open(directory.url)
        await library.useSchedule(Self.schedule)
        try await play(library, "a12", 15, 3)
        let sequence = library.snapshot().sequence
        await library.close()
        library = try Tournament.open(directory.url)
        #expect(await library.useSchedule(Self.schedule).isEmpty)
        #expect(library.snapshot().sequence == sequence)
        #expect(library.standings().value[0].rows[0].team == "t1")
        await library.close()
    }
}
