import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import Foundation
import Testing

/// The sample event end to end: `courtside tournament plan` draws and plans config/event.yaml,
/// the real daemon starts from the config it writes, and `courtside simulate --schedule` plays
/// every game, round after round, as the results fill the bracket.
@Suite("a planned event played on the daemon", .serialized, .timeLimit(.minutes(4)))
struct PlannedEventTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let courtside = DaemonProcess.executable.deletingLastPathComponent().appendingPathComponent("courtside").path

    @Test(
        "config/event.yaml, planned with seed 7, is played to both finals: every knockout game's teams are those its slots name given the results"
    )
    func plannedEventPlaysToTheFinals() throws {
        // 1. Plan the sample event: Open (16 teams, 4 pools, quarter-finals, third place) and Women (8 teams, 2 pools, semis).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("planned-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let planned = folder.appendingPathComponent("planned.yaml").path
        let plan = try ChildProcess.run(
            Self.courtside,
            [
                "tournament", "plan", Self.repository.appendingPathComponent("config/event.yaml").path, "--output", planned,
                "--seed", "7", "--quick",
            ], mergeError: true, seconds: 120)
        #expect(plan.status == 0, "\(plan.output)")
        #expect(plan.output.contains("24 teams, 47 games"), "\(plan.output)")
        #expect(plan.output.contains("wrote \(planned)"), "\(plan.output)")
        // The file opens with comments saying how it was made; the config proper follows.
        let written = try String(contentsOfFile: planned, encoding: .utf8)
        let body = written.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { $0.hasPrefix("#") || $0.trimmingCharacters(in: .whitespaces).isEmpty }
            .joined(separator: "\n")
        #expect(body.hasPrefix("tournament: Courtside Summer 3x3\n"), "\(written.prefix(400))")

        // 2. The daemon starts from it; the simulator plays the schedule until every game is final.
        let daemon = try DaemonProcess(tournament: body)
        let client = CommandClient(endpoint: daemon.commandEndpoint, clientID: "checker", timeoutMilliseconds: 5000)
        let before = try client.command(.schedule).bracket ?? []
        #expect(before.count == 47)
        #expect(before.filter { $0.group != nil }.allSatisfy { $0.state == .ready })
        #expect(before.filter { $0.group == nil }.allSatisfy { $0.state == .pending })

        let bracket = try playOut(daemon, client, seconds: 180)

        // 3. The bracket and the standings, through the client.
        #expect(bracket.count == 47)
        let notFinal = bracket.filter { $0.state != .final }.map(\.game.rawValue)
        #expect(notFinal.isEmpty, "not final: \(notFinal)")
        let byGame = Dictionary(uniqueKeysWithValues: bracket.map { ($0.game, $0) })
        for id: GameID in ["open-final", "women-final", "open-3rd"] {
            let entry = try #require(byGame[id], "\(id) is not in the bracket")
            #expect(entry.state == .final)
            #expect(entry.winner != nil && (entry.winner == entry.homeTeam || entry.winner == entry.awayTeam), "\(entry)")
        }
        #expect(bracket.filter { $0.division == "open" }.count == 32)
        #expect(bracket.filter { $0.division == "women" }.count == 15)
        for entry in bracket {
            #expect(entry.division != nil && entry.game.rawValue.hasPrefix("\(entry.division ?? "?")-"), "\(entry)")
            if let group = entry.group { #expect(group.hasPrefix("\(entry.division ?? "?")-"), "\(entry)") }
            #expect(entry.winner != nil && entry.homeTeam != nil && entry.awayTeam != nil && entry.homeTeam != entry.awayTeam)
            if let score = entry.score, let winner = entry.winner {
                let (won, lost) = winner == entry.homeTeam ? (score.home, score.away) : (score.away, score.home)
                #expect(won > lost, "\(entry)")
            } else {
                Issue.record("\(entry.game) has no score or no winner")
            }
        }

        let standings = try client.command(.standings).standings ?? []
        #expect(
            standings.map { "\($0.division ?? "-")/\($0.group)" } == [
                "open/open-A", "open/open-B", "open/open-C", "open/open-D", "women/women-A", "women/women-B",
            ])
        let tables = Dictionary(uniqueKeysWithValues: standings.map { ($0.group, $0) })
        for table in standings {
            #expect(table.complete, "\(table.group) is not complete")
            #expect(table.rows.map(\.rank) == [1, 2, 3, 4], "\(table)")
            #expect(table.rows.map(\.won) == table.rows.map(\.won).sorted(by: >), "\(table)")
            // Each row is what the group's final games say.
            let games = bracket.filter { $0.group == table.group }
            #expect(games.count == 6)
            for row in table.rows {
                let played = games.filter { $0.homeTeam == row.team || $0.awayTeam == row.team }
                let pointsFor = played.reduce(0) { $0 + (($1.homeTeam == row.team ? $1.score?.home : $1.score?.away) ?? 0) }
                let pointsAgainst = played.reduce(0) { $0 + (($1.homeTeam == row.team ? $1.score?.away : $1.score?.home) ?? 0) }
                #expect(row.played == 3 && played.count == 3, "\(row)")
                #expect(row.won == played.filter { $0.winner == row.team }.count, "\(row)")
                #expect(row.lost == 3 - row.won, "\(row)")
                #expect(row.pointsFor == pointsFor && row.pointsAgainst == pointsAgainst, "\(row)")
            }
            // Two teams alone on a number of wins: the winner of their game (head to head, the first tie-breaker) ranks first.
            for wins in Set(table.rows.map(\.won)) {
                let tied = table.rows.filter { $0.won == wins }
                guard tied.count == 2 else { continue }
                let game = games.first { Set([$0.homeTeam, $0.awayTeam]) == Set([tied[0].team, tied[1].team]) }
                #expect(game?.winner == tied[0].team, "\(table.group): \(tied.map(\.team)) tied on \(wins) wins")
            }
        }

        // Every game's teams are what its slots name, given the standings and the results before it;
        // each table's order is the tie-breakers' as worked out here from the scores.
        let setup = try #require(try client.command(.tournament).tournament)
        #expect(setup.tieBreakers == [.headToHead, .averagePointsScored, .seed])
        let results = PlayedResults(
            try client.command(.snapshot(game: nil)), seeds: setup.seeds ?? [:], tieBreakers: setup.tieBreakers)
        expectSlotsHold(results)
        // The plan's knockout, as it printed it: A1 v B2 in open-qf1, the quarter-finals' winners in the semis.
        #expect(byGame["open-qf1"]?.home == .groupRank(group: "open-A", rank: 1))
        #expect(byGame["open-qf1"]?.homeTeam == tables["open-A"]?.rows.first?.team)
        #expect(byGame["open-qf1"]?.awayTeam == tables["open-B"]?.rows.dropFirst().first?.team)
        #expect(byGame["open-sf1"]?.homeTeam == byGame["open-qf1"]?.winner)
        #expect(byGame["open-sf1"]?.awayTeam == byGame["open-qf2"]?.winner)
        #expect(
            Set([byGame["open-final"]?.homeTeam, byGame["open-final"]?.awayTeam])
                == Set([byGame["open-sf1"]?.winner, byGame["open-sf2"]?.winner]))
        let thirdPlace = Set([byGame["open-3rd"]?.homeTeam, byGame["open-3rd"]?.awayTeam])
        let finalists = Set([byGame["open-final"]?.homeTeam, byGame["open-final"]?.awayTeam])
        #expect(thirdPlace.count == 2 && finalists.count == 2 && thirdPlace.intersection(finalists).isEmpty)
        #expect(byGame["women-sf1"]?.homeTeam == tables["women-A"]?.rows.first?.team)
        #expect(byGame["women-sf1"]?.awayTeam == tables["women-B"]?.rows.dropFirst().first?.team)
        #expect(
            Set([byGame["women-final"]?.homeTeam, byGame["women-final"]?.awayTeam])
                == Set([byGame["women-sf1"]?.winner, byGame["women-sf2"]?.winner]))
        #expect(setup.divisionNames == ["open": "Open", "women": "Women"])

        // 4. The command line names the divisions: in each game's line, and in each table's title.
        let schedule = try courtsideCLI(daemon, ["schedule"])
        #expect(schedule.status == 0, "\(schedule.output)")
        let lines = schedule.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        for entry in bracket {
            let line = lines.first { $0.contains(entry.game.rawValue) }
            let name = entry.division == "open" ? "Open" : "Women"
            #expect(line?.contains(name) == true, "\(entry.game) in:\n\(schedule.output)")
        }
        let standingsOutput = try courtsideCLI(daemon, ["standings"])
        #expect(standingsOutput.status == 0, "\(standingsOutput.output)")
        for title in ["Open · Pool A", "Open · Pool B", "Open · Pool C", "Open · Pool D", "Women · Pool A", "Women · Pool B"] {
            #expect(standingsOutput.output.contains(title), "\(title) in:\n\(standingsOutput.output)")
        }
    }

    /// Twelve teams listed in the event file, each with its ranking points: seeds 1 to 12 by
    /// points, not by the order listed.
    static let bestThirdsTeams: [(name: String, points: Double)] = [
        ("Alpine Aces", 412.0), ("Bay Bulls", 655.5), ("Canal Cats", 120.0), ("Dune Drifters", 733.0),
        ("Elm Eagles", 298.4), ("Fjord Foxes", 501.9), ("Glen Giants", 87.3), ("Harbour Herons", 350.0),
        ("Isle Ibis", 590.2), ("Jetty Jackals", 205.7), ("Keel Kites", 444.4), ("Lagoon Lynx", 150.1),
    ]

    @Test(
        "3 pools of 4, the top 2 and the 2 best third-placed teams into a knockout of 8: the best thirds are FIBA 3x3's order of the pools' thirds"
    )
    func bestThirdsQualifyByFIBAOrder() throws {
        // 1. The event, written here: one division, its teams listed inline.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("best-thirds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let teams = Self.bestThirdsTeams.map { team in
            let word = team.name.split(separator: " ")[0]
            let players = "[\(word) Ash, \(word) Birch, \(word) Cedar]"
            return "      - { name: \(team.name), players: \(players), ranking_points: \(team.points) }"
        }
        let description = """
            tournament: Best Thirds 3x3
            courts: [Court 1, Court 2, Court 3, Court 4]
            start: "09:00"
            end: "18:00"
            game_minutes: 10
            changeover_minutes: 4
            rest_minutes: 20
            rules: fiba3x3
            tie_breakers: [head_to_head, average_points_scored, seed]
            divisions:
              - id: men
                name: Men
                teams:
            \(teams.joined(separator: "\n"))
                format: { type: pools_knockout, pools: 3, qualifiers: 2, best_of_next: 2, third_place: true }

            """
        let event = folder.appendingPathComponent("event.yaml")
        try description.write(to: event, atomically: true, encoding: .utf8)
        let body = try plan(event.path, seed: 3, into: folder)
        #expect(body.hasPrefix("tournament: Best Thirds 3x3\n"), "\(body.prefix(400))")
        // 18 pool games, 4 quarter-finals, 2 semi-finals, the game for third place and the final.
        let gameCount = 18 + 4 + 2 + 1 + 1

        // 2. The daemon starts from the planned config; the seeds are the ranking points' order.
        let daemon = try DaemonProcess(tournament: body)
        let client = CommandClient(endpoint: daemon.commandEndpoint, clientID: "checker", timeoutMilliseconds: 5000)
        let setup = try #require(try client.command(.tournament).tournament)
        let byPoints = Self.bestThirdsTeams.sorted { $0.points > $1.points }
        let expectedSeeds = Dictionary(
            uniqueKeysWithValues: byPoints.enumerated().map {
                (TeamID($0.element.name.lowercased().replacingOccurrences(of: " ", with: "-")), $0.offset + 1)
            })
        #expect(setup.seeds == expectedSeeds)
        #expect(setup.tieBreakers == [.headToHead, .averagePointsScored, .seed])
        // Snake order: A 1 6 7 12, B 2 5 8 11, C 3 4 9 10.
        let seedsOf = setup.groups.map { group in group.teams.map { expectedSeeds[$0] ?? 0 } }
        #expect(setup.groups.map(\.id) == ["A", "B", "C"])
        #expect(seedsOf == [[1, 6, 7, 12], [2, 5, 8, 11], [3, 4, 9, 10]])

        let before = try client.command(.schedule).bracket ?? []
        #expect(before.count == gameCount)
        #expect(before.filter { $0.group != nil }.count == 18)
        #expect(before.filter { $0.group != nil }.allSatisfy { $0.state == .ready })
        #expect(before.filter { $0.group == nil }.allSatisfy { $0.state == .pending })
        // Exactly two slots name the best thirds, places 1 and 2 of rank 3 across the three pools.
        let bestOf = before.flatMap { [$0.home, $0.away] }.compactMap { slot -> (rank: Int, place: Int, groups: [String])? in
            if case .bestOfRank(let rank, let place, let groups) = slot { return (rank, place, groups) }
            return nil
        }
        #expect(bestOf.map(\.place).sorted() == [1, 2])
        #expect(bestOf.allSatisfy { $0.rank == 3 && $0.groups == ["A", "B", "C"] }, "\(bestOf)")

        // 3. Played to the end.
        let bracket = try playOut(daemon, client, seconds: 50)
        #expect(bracket.count == gameCount)
        let notFinal = bracket.filter { $0.state != .final }.map(\.game.rawValue)
        #expect(notFinal.isEmpty, "not final: \(notFinal)")

        // 4. Every game's teams are those its slots name, the best thirds by the order worked out here.
        let results = PlayedResults(
            try client.command(.snapshot(game: nil)), seeds: setup.seeds ?? [:], tieBreakers: setup.tieBreakers)
        #expect(results.games.count == gameCount)
        #expect(results.games.values.allSatisfy { $0.endReason != .forfeit }, "the simulator plays no forfeits")
        expectSlotsHold(results)

        let thirds = try #require(results.bestOfRank(3, groups: ["A", "B", "C"]), "the pools are not complete")
        #expect(thirds.count == 3)
        let withBestThirds = bracket.filter { entry in
            [entry.home, entry.away].contains { if case .bestOfRank = $0 { true } else { false } }
        }
        #expect(withBestThirds.count == 2 && withBestThirds.allSatisfy { $0.round == "Quarter-finals" })
        for entry in withBestThirds {
            for (slot, team) in [(entry.home, entry.homeTeam), (entry.away, entry.awayTeam)] {
                guard case .bestOfRank(_, let place, _) = slot else { continue }
                #expect(
                    team == thirds[place - 1],
                    "\(entry.game): \(slot) is \(team?.rawValue ?? "nobody"); thirds in order: \(thirds)")
            }
        }
        // The worst third is out: in no knockout game.
        let knockout = bracket.filter { $0.group == nil }
        #expect(!knockout.contains { $0.homeTeam == thirds[2] || $0.awayTeam == thirds[2] }, "\(thirds[2]) played on")
        // The quarter-finals hold the pools' top two and the two best thirds, each once.
        let quarterFinalists = bracket.filter { $0.round == "Quarter-finals" }.flatMap { [$0.homeTeam, $0.awayTeam] }
        let qualified = ["A", "B", "C"].flatMap { results.poolOrder($0)?.prefix(2) ?? [] } + thirds.prefix(2)
        #expect(quarterFinalists.count == 8 && Set(quarterFinalists.compactMap { $0 }) == Set(qualified))

        // 5. The final and the game for third place are decided.
        let byGame = results.byGame
        for id: GameID in ["men-final", "men-3rd"] {
            let entry = try #require(byGame[id], "\(id) is not in the bracket")
            #expect(entry.state == .final)
            #expect(entry.winner != nil && (entry.winner == entry.homeTeam || entry.winner == entry.awayTeam), "\(entry)")
            #expect(results.games[id]?.isFinished == true && results.games[id]?.winner != nil)
        }
        #expect(
            Set([byGame["men-final"]?.homeTeam, byGame["men-final"]?.awayTeam])
                == Set([byGame["men-sf1"]?.winner, byGame["men-sf2"]?.winner]))
        #expect(
            Set([byGame["men-3rd"]?.homeTeam, byGame["men-3rd"]?.awayTeam])
                == Set([results.team(.loser(of: "men-sf1")), results.team(.loser(of: "men-sf2"))]))
    }

    /// Plans an event file with `courtside tournament plan --quick` and this seed, written into
    /// `folder`; the config proper, without the comments that open the file.
    func plan(_ event: String, seed: Int, into folder: URL) throws -> String {
        let planned = folder.appendingPathComponent("planned.yaml").path
        let plan = try ChildProcess.run(
            Self.courtside, ["tournament", "plan", event, "--output", planned, "--seed", "\(seed)", "--quick"],
            mergeError: true, seconds: 120)
        #expect(plan.status == 0, "\(plan.output)")
        #expect(plan.output.contains("wrote \(planned)"), "\(plan.output)")
        let written = try String(contentsOfFile: planned, encoding: .utf8)
        return written.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { $0.hasPrefix("#") || $0.trimmingCharacters(in: .whitespaces).isEmpty }
            .joined(separator: "\n")
    }

    /// Runs `courtside simulate --schedule` against the daemon, again and again, until every
    /// game of the bracket is final or `seconds` have passed; the bracket then.
    func playOut(_ daemon: DaemonProcess, _ client: CommandClient, seconds limit: Int) throws -> [BracketEntry] {
        let deadline = ContinuousClock.now + .seconds(limit)
        var runs = 0
        var bracket = try client.command(.schedule).bracket ?? []
        while !bracket.allSatisfy({ $0.state == .final }) {
            let left = Int((deadline - ContinuousClock.now).components.seconds)
            guard left > 5 else {
                Issue.record(
                    "the schedule was not played out within \(limit) s (\(runs) simulate runs); daemon log:\n\(tail(daemon))")
                break
            }
            let seconds = min(60, left)
            let simulate = try ChildProcess.run(
                Self.courtside,
                [
                    "simulate", "--schedule", "--keepers", "8", "--rate", "0", "--duration", "\(seconds)", "--command-endpoint",
                    daemon.commandEndpoint, "--event-endpoint", daemon.eventEndpoint,
                ], mergeError: true, seconds: Double(seconds + 30))
            runs += 1
            #expect(simulate.status == 0, "\(simulate.output)\ndaemon log:\n\(tail(daemon))")
            #expect(simulate.output.contains("refused 0, unanswered 0"), "\(simulate.output)")
            #expect(simulate.output.contains("gaps detected (resyncs): 0"), "\(simulate.output)")
            bracket = try client.command(.schedule).bracket ?? []
            if simulate.status != 0 { break }
        }
        #expect(runs >= 1)
        return bracket
    }

    /// Each group's table is in the order its tie-breakers give from its scores, and every
    /// game's teams are those its slots name.
    func expectSlotsHold(_ results: PlayedResults) {
        for table in results.tables.values {
            #expect(table.rows.map(\.team) == results.poolOrder(table.group), "\(table.group): \(table.rows.map(\.team))")
        }
        for entry in results.byGame.values.sorted(by: { $0.game < $1.game }) {
            let (home, away) = (results.team(entry.home), results.team(entry.away))
            #expect(
                home != nil && entry.homeTeam == home, "\(entry.game): home \(entry.home) is \(home?.rawValue ?? "undecided")")
            #expect(
                away != nil && entry.awayTeam == away, "\(entry.game): away \(entry.away) is \(away?.rawValue ?? "undecided")")
            // The game itself was played by those teams.
            if let game = results.games[entry.game] {
                #expect(game.setup.home.id == entry.homeTeam && game.setup.away.id == entry.awayTeam, "\(entry.game)")
            } else {
                Issue.record("\(entry.game) is not in the snapshot")
            }
        }
    }

    /// The daemon log's last lines, for a failure's message.
    func tail(_ daemon: DaemonProcess) -> String {
        daemon.log().split(separator: "\n").suffix(40).joined(separator: "\n")
    }
}

/// The results as the daemon holds them at one sequence (a snapshot of every game: the games,
/// the standings and the bracket), and the team each slot names given them, worked out here
/// from the games' scores, not by the model's ``Schedule/resolve(_:games:standings:)``.
struct PlayedResults {
    /// A team's pool record: its decided games and wins, and the points it scored in the games
    /// that count for its average (all its decided games but those it won by forfeit).
    struct Record {
        var team: TeamID
        var played = 0
        var won = 0
        var points = 0
        var averaged = 0
    }

    let games: [GameID: Game]
    let byGame: [GameID: BracketEntry]
    let tables: [String: GroupStandings]
    let seeds: [TeamID: Int]
    let tieBreakers: [TieBreaker]
    /// Each group's scheduled games, by the bracket.
    let groupGames: [String: [BracketEntry]]

    init(_ snapshot: Reply, seeds: [TeamID: Int], tieBreakers: [TieBreaker]) {
        games = Dictionary((snapshot.snapshot ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let bracket = snapshot.bracket ?? []
        byGame = Dictionary(bracket.map { ($0.game, $0) }, uniquingKeysWith: { first, _ in first })
        tables = Dictionary((snapshot.standings ?? []).map { ($0.group, $0) }, uniquingKeysWith: { first, _ in first })
        groupGames = Dictionary(grouping: bracket.filter { $0.group != nil }) { $0.group ?? "" }
        self.seeds = seeds
        self.tieBreakers = tieBreakers
    }

    /// Each team's record in a group, once every game of the group is final; nil before.
    func records(_ group: String) -> [TeamID: Record]? {
        guard let scheduled = groupGames[group], !scheduled.isEmpty else { return nil }
        var records: [TeamID: Record] = [:]
        for entry in scheduled {
            guard let game = games[entry.game], game.isFinished else { return nil }
            for side in Side.allCases {
                let team = game.setup.team(side).id
                var record = records[team] ?? Record(team: team)
                // A game with no winner (no result) counts for nobody.
                if let winner = game.winner {
                    record.played += 1
                    if winner == side { record.won += 1 }
                    if !(game.endReason == .forfeit && winner == side) {
                        record.points += game.score[side]
                        record.averaged += 1
                    }
                }
                records[team] = record
            }
        }
        return records
    }

    /// The sign of a/b - c/d, exactly; a fraction over 0 is 0.
    static func compare(_ a: (Int, Int), _ b: (Int, Int)) -> Int {
        let (x, y) = (a.1 == 0 ? (0, 1) : a, b.1 == 0 ? (0, 1) : b)
        let difference = x.0 * y.1 - y.0 * x.1
        return difference == 0 ? 0 : difference > 0 ? 1 : -1
    }

    /// A group's teams best first, once it is complete: by wins, then the tie-breakers in turn,
    /// each splitting the teams still level into levels (head to head counts the wins among
    /// the level's own teams), then team id.
    func poolOrder(_ group: String) -> [TeamID]? {
        guard let records = records(group) else { return nil }
        let decided = (groupGames[group] ?? []).compactMap { games[$0.game] }.filter { $0.winner != nil }
        func levels(_ teams: [Record], by compare: (Record, Record) -> Int) -> [[Record]] {
            var levels: [[Record]] = []
            for record in teams.sorted(by: { compare($0, $1) > 0 }) {
                if let last = levels.last?.first, compare(last, record) == 0 {
                    levels[levels.count - 1].append(record)
                } else {
                    levels.append([record])
                }
            }
            return levels
        }
        func order(_ level: [Record], _ breakers: ArraySlice<TieBreaker>) -> [Record] {
            guard level.count > 1, let breaker = breakers.first else { return level.sorted { $0.team < $1.team } }
            let members = Set(level.map(\.team))
            let compare: (Record, Record) -> Int
            switch breaker {
            case .headToHead:
                let wins = Dictionary(
                    decided.filter { members.contains($0.setup.home.id) && members.contains($0.setup.away.id) }
                        .compactMap { game in game.winner.map { game.setup.team($0).id } }.map { ($0, 1) },
                    uniquingKeysWith: +)
                compare = { a, b in Self.compare((wins[a.team] ?? 0, 1), (wins[b.team] ?? 0, 1)) }
            case .averagePointsScored: compare = { a, b in Self.compare((a.points, a.averaged), (b.points, b.averaged)) }
            // The lower seed first; a team without one after those with one.
            case .seed: compare = { a, b in Self.compare((seeds[b.team] ?? .max, 1), (seeds[a.team] ?? .max, 1)) }
            case .pointDifference, .pointsScored:
                Issue.record("the test works out no \(breaker)")
                compare = { _, _ in 0 }
            }
            return levels(level, by: compare).flatMap { order($0, breakers.dropFirst()) }
        }
        let byWins = levels(Array(records.values)) { a, b in Self.compare((a.won, 1), (b.won, 1)) }
        return byWins.flatMap { order($0, tieBreakers[...]) }.map(\.team)
    }

    /// The teams ranked `rank` in each of `groups`, best first by FIBA 3x3's order across pools:
    /// win ratio, then average points scored (leaving out games won by forfeit), then seed (the
    /// lower first), then team id. Nil until every one of the groups is complete.
    func bestOfRank(_ rank: Int, groups: [String]) -> [TeamID]? {
        var placed: [Record] = []
        for group in groups {
            guard let order = poolOrder(group), let records = records(group) else { return nil }
            guard rank >= 1, rank <= order.count, let record = records[order[rank - 1]] else { continue }
            placed.append(record)
        }
        return placed.sorted { a, b in
            let ratio = Self.compare((a.won, a.played), (b.won, b.played))
            if ratio != 0 { return ratio > 0 }
            let average = Self.compare((a.points, a.averaged), (b.points, b.averaged))
            if average != 0 { return average > 0 }
            let (seedA, seedB) = (seeds[a.team] ?? .max, seeds[b.team] ?? .max)
            if seedA != seedB { return seedA < seedB }
            return a.team < b.team
        }.map(\.team)
    }

    /// The team a slot names: known teams, the bracket's winners and losers, the standings'
    /// ranks, and the best of a rank by ``bestOfRank(_:groups:)``.
    func team(_ slot: Slot) -> TeamID? {
        switch slot {
        case .team(let team): return team
        case .winner(let game): return byGame[game]?.winner
        case .loser(let game):
            guard let entry = byGame[game], let winner = entry.winner else { return nil }
            return winner == entry.homeTeam ? entry.awayTeam : entry.homeTeam
        case .groupRank(let group, let rank):
            guard let table = tables[group], table.complete, rank >= 1, rank <= table.rows.count else { return nil }
            return table.rows[rank - 1].team
        case .bestOfRank(let rank, let place, let groups):
            guard let order = bestOfRank(rank, groups: groups), place >= 1, place <= order.count else { return nil }
            return order[place - 1]
        case .swissPairing:
            // The daemon's recorded pairing puts teams in the slots: an unpaired slot has none.
            return nil
        }
    }
}
