import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import Foundation
import Testing

/// The text rule against the real daemon over ZeroMQ: a NUL, a bidirectional override, an
/// overlong court or a start that is no time of day is refused with `invalid_text` naming the
/// field, on the decoder's fast path and its slow one alike, and nothing is applied.
@Suite("the text rule over ZeroMQ", .serialized, .timeLimit(.minutes(3)))
struct TextRuleDaemonTests {
    @Test(
        "names, courts, rounds and start times that break the rule are refused with invalid_text, and the schedule is unchanged")
    func refused() throws {
        let daemon = try DaemonProcess(schedule: TournamentProtocolTests.schedule)
        let organiser = try Keeper(daemon.commandEndpoint, clientID: "organiser")
        let court5000 = String(repeating: "C", count: 5000)
        let refusals: [(Request.Operation, String)] = [
            (.changeTournament(.gameEdited(GameEdit(game: "g2", start: "25:99\u{0}")), reason: nil), "start: "),
            (.changeTournament(.gameEdited(GameEdit(game: "g2", start: "11:00\u{0}")), reason: nil), "start: "),
            (.changeTournament(.gameEdited(GameEdit(game: "g2", start: "25:99")), reason: nil), "start: "),
            (.changeTournament(.gameEdited(GameEdit(game: "g2", court: "Court\u{0}1")), reason: nil), "court: "),
            (.changeTournament(.gameEdited(GameEdit(game: "g2", court: court5000)), reason: nil), "court: is 5000 characters"),
            (
                .changeTournament(
                    .teamRegistered(
                        Team(id: "owls", name: "\u{202E}slwO", players: [Player(id: "ola", name: "Ola")]), group: nil),
                    reason: nil),
                "team owls name: contains U+202E"
            ),
            (
                .changeTournament(
                    .teamRegistered(
                        Team(id: "owls", name: "Owls", players: [Player(id: "ola", name: "Ola\u{2066}")]), group: "A"),
                    reason: nil),
                "player ola name: contains U+2066"
            ),
            (
                .changeTournament(.playerRenamed(team: "lions", player: "ann", name: "Ann\u{85}"), reason: nil),
                "player ann name: "
            ),
            (
                .changeTournament(
                    .playerAdded(team: "lions", player: Player(id: "dee", name: String(repeating: "D", count: 81))), reason: nil),
                "player dee name: is 81 characters"
            ),
            (
                .scheduleGame(
                    game: "g9", home: "lions", away: "bears", court: "Court 2", start: "abc", round: nil, group: nil, rules: nil,
                    reason: nil),
                "start: "
            ),
            (
                .scheduleGame(
                    game: "g9", home: "lions", away: "bears", court: "Court\u{7F}", start: nil, round: nil, group: nil,
                    rules: nil, reason: nil),
                "court: "
            ),
            (
                .scheduleGame(
                    game: "g9", home: "lions", away: "bears", court: nil, start: nil, round: "Friendlies\u{202D}", group: nil,
                    rules: nil, reason: nil),
                "round: "
            ),
            (.createGame(game: "g9", home: "lions", away: "bears", court: "\u{202E}2 truoC", rules: nil), "court: "),
        ]
        let before = try organiser.send(.tournament)
        let games = try organiser.send(.listGames)
        for (operation, message) in refusals {
            let reply = try organiser.send(operation)
            #expect(reply.error?.code == .invalidText, "\(operation): \(reply)")
            #expect(reply.error?.message.hasPrefix(message) == true, "\(reply.error?.message ?? "applied") for \(message)")
        }

        // The same rule on both of the decoder's paths: a raw U+202E (the fast path reads
        // create_game) and an escaped NUL (JSONDecoder's).
        let create = #"{"op":"create_game","client_id":"organiser","game":"g8","home":"lions","away":"bears","#
        for (body, field) in [
            (create + #""command_id":"raw-1","court":"Court "# + "\u{202E}" + #"2"}"#, "court: "),
            (create + #""command_id":"raw-2","court":"Court\u00002"}"#, "court: "),
            (#"{"op":"edit_game","client_id":"organiser","command_id":"raw-3","game":"g2","start":"11:00\u0000"}"#, "start: "),
        ] {
            let reply = try organiser.sendRaw([Array(body.utf8)])
            #expect(reply.error?.code == .invalidText && reply.error?.message.hasPrefix(field) == true, "\(body): \(reply)")
        }

        // Nothing was applied: the tournament, its sequence and its games are as they were.
        let after = try organiser.send(.tournament)
        #expect(after.tournament == before.tournament && after.sequence == before.sequence)
        #expect(try organiser.send(.listGames).games == games.games)
        #expect(after.tournament?.rounds.flatMap(\.games).first { $0.id == "g2" }?.start == "10:00")

        // The command line refuses before it sends anything, naming the option.
        let (status, output) = try courtsideCLI(daemon, ["game", "move", "g2", "--start", "25:99"])
        #expect(status != 0 && output.contains("--start: is not a time of day"), "\(output)")

        // Names in every script, and a time the schedule writes, are taken.
        let owls = Team(
            id: "owls", name: "فريق النسور 🦉", players: [Player(id: "ola", name: "山田 太郎"), Player(id: "pia", name: "김민준")])
        #expect(try organiser.send(.changeTournament(.teamRegistered(owls, group: "A"), reason: nil)).ok)
        #expect(
            try organiser.send(.changeTournament(.gameEdited(GameEdit(game: "g2", court: "コート 2", start: "9:05")), reason: nil))
                .ok)
        let moved = try #require(try organiser.send(.schedule).bracket?.first { $0.game == "g2" })
        #expect(moved.court == "コート 2" && moved.start == "9:05")
    }
}
