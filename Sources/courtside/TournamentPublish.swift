import ArgumentParser
import CourtsideClient
import CourtsideEvent
import CourtsideModel
import CourtsidePlanning
import CourtsideProtocol
import CourtsideViewModels
import Foundation

extension TournamentCommand {
    /// `courtside tournament publish`: an event drawn and planned as `plan` does, then sent to the
    /// running daemon as one change (`publish_draw`).
    struct Publish: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw and plan an event as plan does, and publish it to the running daemon as one change.",
            discussion: """
                The draw replaces the divisions it names (a redraw) and adds the others, in one \
                change the log keeps with the draw's random seed and the event's description. A \
                division with a game under way can no longer be redrawn (stage_started): edit its \
                games instead. A draw equal to the one in force changes nothing. Check it first with \
                courtside tournament plan; on a secured daemon only an organiser key may publish. \
                With --division, that division alone is drawn, planned into the time the courts have \
                left around the other divisions' games (which do not move), and published: a late \
                registration redrawn without touching the rest of the day.

                Examples:
                  courtside tournament plan config/event.yaml --seed 7
                  courtside tournament publish config/event.yaml --seed 7 --reason "draw at 08:30"
                  courtside tournament publish config/event.yaml --division women --reason "two late teams"
                """)

        @Argument(help: ArgumentHelp("The event's description (YAML).", valueName: "event.yaml"))
        var event: String
        @Option(help: "The seed of random draws (overrides the file's); a new one is printed when neither gives one.")
        var seed: UInt64?
        @Flag(help: "Try fewer plans: faster, and the day may end later.")
        var quick = false
        @Option(help: "Publish this division alone, planned around the other divisions' games in force.")
        var division: String?
        @Option(help: "Why, for the log (optional).") var reason: String?
        @OptionGroup var connection: ConnectionOptions

        func validate() throws {
            if let reason, let problem = TextRule.problem(reason, as: .reason) { throw ValidationError("--reason: \(problem)") }
        }

        func run() throws {
            let client = try reporting { () throws(CourtsideError) in try connection.client() }
            var fixed: [FixedGame] = []
            if let division {
                // The other divisions' games, as the daemon has them now: their courts and starts stay.
                let setup = try reporting { () throws(CourtsideError) in try client.command(.tournament).tournament }
                let games = (setup?.rounds.flatMap(\.games) ?? []) + (setup?.games ?? [])
                fixed = games.compactMap { game in
                    guard game.division != division, let court = game.court, let start = game.start.flatMap(TimeOfDay.init)
                    else { return nil }
                    return FixedGame(court: court, start: start)
                }
            }
            var (description, planned) = try Plan.planned(event, seed: seed, quick: quick, division: division, around: fixed)
            // Games that exist outside the schedule (dropped by an earlier draw, or made by
            // create_game) keep their ids: this draw names its own games apart.
            let taken = try reporting { () throws(CourtsideError) in
                let existing = Set((try client.command(.listGames).games ?? []).map(\.game))
                return existing.subtracting((try client.command(.schedule).bracket ?? []).map(\.game))
            }
            planned.schedule = planned.schedule.renamingGames(avoiding: taken)
            let text: String
            do {
                text = try String(contentsOfFile: event, encoding: .utf8)
            } catch {
                throw ValidationError("cannot read \(event): \(error.localizedDescription)")
            }
            let draw = PublishedDraw(schedule: planned.schedule, randomSeed: planned.draft.randomSeed, event: text)
            print(Plan.lines(description, planned).joined(separator: "\n"))
            let reply = try reporting { () throws(CourtsideError) in
                try client.command(.changeTournament(.drawPublished(draw), reason: reason))
            }
            print(
                "\npublished the draw of \(draw.subject) (the tournament's change \(reply.version ?? 0), sequence \(reply.sequence ?? 0))"
            )
        }
    }
}
