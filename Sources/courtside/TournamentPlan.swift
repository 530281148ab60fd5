import ArgumentParser
import CourtsideEvent
import CourtsideModel
import CourtsidePlanning
import CourtsideProtocol
import CourtsideViewModels
import Foundation
import Yams

extension TournamentCommand {
    /// `courtside tournament plan`: an event described in a few lines, drawn and fitted to the
    /// courts, printed, and written as the config that starts it.
    struct Plan: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw an event's divisions and fit its games to the courts; write the config that starts it.",
            discussion: """
                The event file names the tournament, its courts (and their hours), the day, a game's \
                length, the changeover and a team's rest, and its divisions, each with its teams (a \
                registration CSV, or a list) and its format: round_robin, pools, pools_knockout, \
                single_elimination or double_elimination. See README.md, "Set up a tournament".

                It prints each division's draw, the day as a court-by-time grid, and the plan's \
                figures beside what no plan can beat. With --output it writes the config: start it \
                with courtsided --config FILE. Random draws use --seed (or the file's seed, or a \
                new one, printed): the same seed replays the same draw.

                Examples:
                  courtside tournament plan config/event.yaml
                  courtside tournament plan config/event.yaml --output tournament.yaml --seed 7
                """)

        @Argument(help: ArgumentHelp("The event's description (YAML).", valueName: "event.yaml"))
        var event: String
        @Option(help: ArgumentHelp("Write the tournament's config here; - for standard output.", valueName: "file"))
        var output: String?
        @Option(help: "The seed of random draws (overrides the file's).")
        var seed: UInt64?
        @Flag(help: "Try fewer plans: faster, and the day may end later.")
        var quick = false

        func run() throws {
            let (description, planned) = try Self.planned(event, seed: seed, quick: quick)
            let lines = Self.lines(description, planned)
            if output == "-" {
                print(try Self.config(planned, seed: planned.draft.randomSeed), terminator: "")
                return
            }
            print(lines.joined(separator: "\n"))
            guard let output else { return }
            do {
                try Self.config(planned, seed: planned.draft.randomSeed).write(toFile: output, atomically: true, encoding: .utf8)
            } catch let error as ValidationError {
                throw error
            } catch {
                throw ValidationError("cannot write \(output): \(error.localizedDescription)")
            }
            print("\nwrote \(output): start it with courtsided --config \(output)")
        }

        /// The event at `path`, drawn with `seed` (or the file's, or a new one) and fitted to its
        /// courts; a broken file or a format that does not fit names what is wrong.
        /// The event at `path` drawn and planned; with `division`, that division alone, planned
        /// around the `fixed` games (``EventPlanner/planned(division:of:teams:seed:around:effort:)``).
        static func planned(
            _ path: String, seed: UInt64?, quick: Bool, division: String? = nil, around fixed: [FixedGame] = []
        ) throws -> (EventDescription, PlannedEvent) {
            let description = try read(path)
            let seed = seed ?? description.seed ?? UInt64.random(in: 1...999_999)
            let teams = try teams(of: description, beside: path)
            let effort: Planning.Effort = quick ? .quick : .standard
            do {
                if let division {
                    return (
                        description,
                        try EventPlanner.planned(
                            division: division, of: description, teams: teams, seed: seed, around: fixed, effort: effort)
                    )
                }
                return (description, try EventPlanner.planned(description, teams: teams, seed: seed, effort: effort))
            } catch {
                throw ValidationError("\(path): \(error.code.rawValue): \(error.message)")
            }
        }

        /// The planned event as printed: the draw, the court-by-time grid, the figures and the seed.
        static func lines(_ description: EventDescription, _ planned: PlannedEvent) -> [String] {
            let schedule = planned.schedule
            var lines = ["\(description.tournament): \(schedule.teams.count) teams, \(schedule.games.count) games"]
            lines += [""] + PlanTables.draw(schedule)
            lines += [""] + PlanTables.grid(schedule)
            lines += [""] + planned.figureLines
            if let random = planned.draft.randomSeed { lines.append("random draw seed: \(random) (--seed \(random) replays it)") }
            return lines
        }

        /// The event file, decoded as ``EventDescription/init(yaml:)`` reads it; a broken file
        /// names what is wrong.
        static func read(_ path: String) throws -> EventDescription {
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw ValidationError("cannot read \(path): \(error.localizedDescription)")
            }
            do {
                return try EventDescription(yaml: text)
            } catch {
                throw ValidationError("\(path): \(error.message)")
            }
        }

        /// Each division's teams, by division id (``EventPlanner/teams(of:readCSV:)``): a CSV
        /// is read relative to the event file.
        static func teams(of event: EventDescription, beside path: String) throws -> [String: [RegisteredTeam]] {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            do {
                return try EventPlanner.teams(of: event) { file in
                    let url = file.hasPrefix("/") ? URL(fileURLWithPath: file) : folder.appendingPathComponent(file)
                    do {
                        return try String(contentsOf: url, encoding: .utf8)
                    } catch {
                        throw ValidationError("cannot read \(url.path): \(error.localizedDescription)")
                    }
                }
            } catch let error as EventError where error.code == .invalidCSV {
                throw ValidationError(error.description)
            } catch let error as EventError {
                throw ValidationError("\(path): \(error.description)")
            }
        }

        /// The config that starts the planned tournament, with a header saying how it was made.
        static func config(_ planned: PlannedEvent, seed: UInt64?) throws -> String {
            let setup = TournamentSetup(name: planned.draft.name, schedule: planned.schedule, otherGames: [])
            let yaml: String
            do {
                yaml = try YAMLEncoder().encode(setup)
            } catch {
                throw ValidationError("the tournament could not be written as YAML: \(error)")
            }
            let header = """
                # \(planned.draft.name), drawn and planned by `courtside tournament plan`\(seed.map { " (random draw seed \($0))" } ?? "").
                # Start it with: courtsided --config FILE (add data_dir, endpoints and security as the
                # README's "The config file" says, or pass them as flags).

                """
            return header + yaml
        }
    }
}
