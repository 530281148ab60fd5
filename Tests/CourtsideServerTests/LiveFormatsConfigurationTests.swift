import CourtsideModel
import Testing

@testable import CourtsideServer

/// The config keys of formats decided live: a game's `played_if` and a Swiss group's byes,
/// read as the daemon keeps them, and refused where they name what is not there.
@Suite("the config's live-format keys")
struct LiveFormatsConfigurationTests {
    static let base =
        ConfigurationTests.teams + """
            groups: [{ id: S, name: Swiss, teams: [a, b, c] }]
            games:
              - { id: r1, home: a, away: b, group: S }
              - { id: r2, home: { swiss: S, round: 2, pairing: 1, side: home }, away: { swiss: S, round: 2, pairing: 1, side: away }, group: S }
              - { id: f2, home: { loser_of: r1 }, away: { winner_of: r1 }, played_if: { won: r1, by: away } }

            """

    @Test("a Swiss slot, its byes and a reset's condition load into the schedule")
    func loads() throws {
        let configuration = try DaemonConfiguration.parse(Self.base + "swiss_byes: { S: [c] }\n", file: "t.yaml")
        let schedule = configuration.tournament.schedule
        #expect(schedule.swissByes == ["S": ["c"]])
        #expect(schedule.game("r2")?.home == .swissPairing(group: "S", round: 2, pairing: 1, side: .home))
        #expect(schedule.game("f2")?.playedIf == .won(game: "r1", by: .away))
    }

    @Test(
        "byes of an unknown group or a team not in it, and a condition naming no game, are refused by key",
        arguments: [
            ("swiss_byes: { T: [a] }\n", "swiss_byes.T: unknown group"),
            ("swiss_byes: { S: [a, z] }\n", "swiss_byes.S.1: team \"z\" is not in group S"),
        ])
    func refused(extra: String, expected: String) {
        let message = ConfigurationTests().problem(Self.base + extra)
        #expect(message?.contains(expected) == true, "\(message ?? "accepted")")
        let condition = ConfigurationTests().problem(Self.base.replacingOccurrences(of: "won: r1", with: "won: nowhere"))
        #expect(condition?.contains("names no other scheduled game") == true, "\(condition ?? "accepted")")
    }
}
