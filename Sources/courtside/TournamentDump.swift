import ArgumentParser
import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import Foundation
import Yams

/// `courtside tournament`: the tournament's setup as the daemon holds it.
struct TournamentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tournament",
        abstract: "The tournament's setup: plan one from an event's description, publish it, or dump the one the daemon holds.",
        subcommands: [Dump.self, Plan.self, Publish.self])

    struct Dump: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the tournament as it stands as a config file that starts an equal tournament.",
            discussion: """
                Teams and players, courts, groups, rounds and games (those created at run time too), \
                each game with its rules written out whole, and the tie-breakers: what the config seeded \
                and what changed since. Results are not in it: they are the log's. The file has no \
                data_dir, endpoints or security: add them, or pass --data-dir to courtsided.

                Examples:
                  courtside tournament dump --output tournament-now.yaml
                  courtsided --config tournament-now.yaml --data-dir data-copy
                """)
        @Option(help: ArgumentHelp("Where to write it; - for standard output.", valueName: "file"))
        var output = "-"
        @OptionGroup var connection: ConnectionOptions

        func run() throws {
            let reply = try reporting { () throws(CourtsideError) in try connection.client().command(.tournament) }
            guard let setup = reply.tournament else {
                throw ValidationError("courtsided answered without a tournament: is it older than this courtside?")
            }
            let yaml: String
            do {
                yaml = try YAMLEncoder().encode(setup)
            } catch {
                throw ValidationError("the tournament could not be written as YAML: \(error)")
            }
            let header = """
                # The tournament as courtsided held it at sequence \(reply.sequence ?? 0), written by
                # `courtside tournament dump`. Start an equal tournament with: courtsided --config FILE
                # (results are not here: they are the log's).

                """
            if output == "-" {
                print(header + yaml, terminator: "")
                return
            }
            do {
                try (header + yaml).write(toFile: output, atomically: true, encoding: .utf8)
            } catch {
                throw ValidationError("cannot write \(output): \(error.localizedDescription)")
            }
            print("wrote \(output): \(setup.teams.count) teams, \(setup.rounds.flatMap(\.games).count + setup.games.count) games")
        }
    }
}
