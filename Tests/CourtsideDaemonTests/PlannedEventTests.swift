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

        let deadline = ContinuousClock.now + .seconds(180)
        var runs = 0
        var bracket = before
        while !bracket.allSatisfy({ $0.state == .final }) {
            let left = Int((deadline - ContinuousClock.now).components.seconds)
            guard left > 5 else {
                Issue.record(
                    "the schedule was not played out within 3 minutes (\(runs) simulate runs); daemon log:\n\(tail(daemon))")
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

        // Every game's teams are what its slots name, given the standings and the results before it.
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
            case .bestOfRank: return nil
            }
        }
        for entry in bracket {
            #expect(team(entry.home) != nil && entry.homeTeam == team(entry.home), "\(entry.game): home \(entry.home)")
            #expect(team(entry.away) != nil && entry.awayTeam == team(entry.away), "\(entry.game): away \(entry.away)")
        }
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
        let setup = try client.command(.tournament).tournament
        #expect(setup?.divisionNames == ["open": "Open", "women": "Women"])

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

    /// The daemon log's last lines, for a failure's message.
    func tail(_ daemon: DaemonProcess) -> String {
        daemon.log().split(separator: "\n").suffix(40).joined(separator: "\n")
    }
}
