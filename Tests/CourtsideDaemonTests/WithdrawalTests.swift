import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import Foundation
import Testing

/// `courtside team withdraw` on the real daemon: the team's games not over are forfeited, the
/// one it plays now and the one the results bring it into later, its results so far stand, and
/// the log keeps the change with its reason.
@Suite("a team withdraws, on the real daemon", .serialized, .timeLimit(.minutes(2)))
struct WithdrawalTests {
    static let schedule = """
        games:
          - { id: g1, home: lions, away: tigers, court: Court 1 }
          - { id: g2, home: bears, away: wolves, court: Court 2 }
          - { id: final, home: { winner_of: g1 }, away: { winner_of: g2 }, court: Court 1 }
        """

    static func cli(_ daemon: DaemonProcess, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try ChildProcess.run(
            PlannedEventTests.courtside, arguments + ["--command-endpoint", daemon.commandEndpoint], mergeError: true)
    }

    @Test("withdrawn before its game, a team forfeits it; withdrawn after reaching the final, it forfeits that too")
    func withdrawal() throws {
        let daemon = try DaemonProcess(schedule: Self.schedule)
        let keeper = try Keeper(daemon.commandEndpoint)
        func game(_ id: GameID) throws -> Game { try #require(try keeper.send(.snapshot(game: id)).snapshot?.first) }

        // Tigers withdraw before g1: Lions win it by forfeit.
        let tigers = try Self.cli(daemon, ["team", "withdraw", "tigers", "--reason", "no fourth player"])
        #expect(tigers.status == 0 && tigers.output.contains("tigers withdrawn"), "\(tigers.output)")
        let g1 = try game("g1")
        #expect(
            g1.isFinished && g1.endReason == .forfeit && g1.winner == .home, "\(g1.status) \(String(describing: g1.endReason))")
        // Twice, or an unknown team: refused, nothing changes.
        let again = try Self.cli(daemon, ["team", "withdraw", "tigers", "--reason", "again"])
        #expect(again.status != 0 && again.output.contains("has withdrawn already [invalid_game]"), "\(again.output)")
        let nobody = try Self.cli(daemon, ["team", "withdraw", "owls", "--reason", "?"])
        #expect(nobody.status != 0 && nobody.output.contains("[unknown_team]"), "\(nobody.output)")

        // Bears win g2 on the court; the final is Lions v Bears.
        _ = try keeper.send(.move(game: "g2", player: "gus", move: .twoPoints))
        _ = try keeper.send(.endGame(game: "g2", result: .asItStands, reason: "time"))
        let final = try #require(
            try poll(
                seconds: 10, { try keeper.send(.snapshot(game: "final")).snapshot?.first },
                until: { $0?.setup.away.id == "bears" }))
        #expect(final.setup.home.id == "lions" && !final.isFinished)

        // Bears withdraw with a game in the final: Lions win it by forfeit; g2 stands as played.
        #expect(try Self.cli(daemon, ["team", "withdraw", "bears", "--reason", "injury"]).status == 0)
        let forfeited = try game("final")
        #expect(forfeited.isFinished && forfeited.endReason == .forfeit && forfeited.winner == .home)
        #expect(try game("g2").winner == .home && (try game("g2").endReason) != .forfeit)

        // The log: both withdrawals, with their reasons; the tournament read names them.
        let log = try keeper.send(.log(game: .tournament)).events ?? []
        let withdrawn = log.compactMap { event -> (TeamID, String?)? in
            guard case .tournamentChanged(.teamWithdrawn(let team), let reason) = event.kind else { return nil }
            return (team, reason)
        }
        #expect(withdrawn.map(\.0) == ["tigers", "bears"] && withdrawn.first?.1 == "no fourth player")
        #expect(try keeper.send(.tournament).tournament?.withdrawn == ["bears", "tigers"])

        // After a restart, nothing is forfeited twice.
        daemon.stop()
        try daemon.start()
        let events = try keeper.send(.log(game: "final")).events ?? []
        #expect(events.filter { if case .forfeit = $0.kind { true } else { false } }.count == 1)
    }
}

/// Polls `read` until `done` holds or `seconds` pass, on this thread.
private func poll<Value>(seconds: Double, _ read: () throws -> Value, until done: (Value) -> Bool) rethrows -> Value {
    let deadline = Date().addingTimeInterval(seconds)
    var value = try read()
    while !done(value), Date() < deadline {
        Thread.sleep(forTimeInterval: 0.05)
        value = try read()
    }
    return value
}
