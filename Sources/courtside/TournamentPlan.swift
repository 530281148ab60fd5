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
        static func planned(_ path: String, seed: UInt64?, quick: Bool) throws -> (EventDescription, PlannedEvent) {
            let description = try read(path)
            let seed = seed ?? description.seed ?? UInt64.random(in: 1...999_999)
            let teams = try teams(of: description, beside: path)
            do {
                let draft = try EventPlanner.draw(description, teams: teams, seed: seed)
                let planned = try EventPlanner.plan(
                    draft, venue: try EventPlanner.venue(description), effort: quick ? .quick : .standard)
                return (description, planned)
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
            lines += [""] + figures(planned)
            if let random = planned.draft.randomSeed { lines.append("random draw seed: \(random) (--seed \(random) replays it)") }
            return lines
        }

        /// The event file, decoded; a broken file names what is wrong.
        static func read(_ path: String) throws -> EventDescription {
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw ValidationError("cannot read \(path): \(error.localizedDescription)")
            }
            // Yams ignores a key no type reads: a typo (`game_minute`, `third_places`) would
            // silently change the day, so every mapping's keys are checked first.
            if let node = try? Yams.compose(yaml: text), let unknown = unknownKey(in: node) {
                throw ValidationError("\(path): \(unknown)")
            }
            do {
                return try YAMLDecoder().decode(EventDescription.self, from: text)
            } catch let DecodingError.keyNotFound(key, context) {
                throw ValidationError("\(path): \(Self.path(context.codingPath + [key])): missing")
            } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context),
                let DecodingError.dataCorrupted(context)
            {
                throw ValidationError("\(path): \(Self.path(context.codingPath)): \(context.debugDescription)")
            } catch {
                throw ValidationError("\(path): \(error)")
            }
        }

        /// The first key of the event file that no level knows, with its path and the known
        /// ones; nil when every key is known.
        static func unknownKey(in root: Yams.Node) -> String? {
            func names<Key: CodingKey & CaseIterable>(_: Key.Type) -> [String] { Key.allCases.map(\.stringValue) }
            func check(_ node: Yams.Node?, _ known: [String], _ path: String) -> String? {
                guard let mapping = node?.mapping else { return nil }
                for key in mapping.keys.compactMap(\.string) where !known.contains(key) {
                    return
                        "\(path.isEmpty ? "" : path + ".")\(key): unknown key (known here: \(known.sorted().joined(separator: ", ")))"
                }
                return nil
            }
            if let found = check(root, names(EventDescription.CodingKeys.self), "") { return found }
            for (index, court) in (root["courts"]?.sequence ?? []).enumerated() {
                if let found = check(court, names(CourtDescription.CodingKeys.self), "courts.\(index)") { return found }
            }
            for (index, division) in (root["divisions"]?.sequence ?? []).enumerated() {
                let path = "divisions.\(index)"
                if let found = check(division, names(DivisionDescription.CodingKeys.self), path) { return found }
                if let found = check(division["format"], names(FormatDescription.CodingKeys.self), "\(path).format") {
                    return found
                }
                for (number, team) in (division["teams"]?.sequence ?? []).enumerated() {
                    if let found = check(team, names(ListedTeam.CodingKeys.self), "\(path).teams.\(number)") { return found }
                }
            }
            return nil
        }

        static func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }

        /// Each division's teams, by division id: read from its CSV (relative to the event
        /// file; the rows ``EventPlanner/teams(from:file:for:of:)`` gives it) or its list.
        static func teams(of event: EventDescription, beside path: String) throws -> [String: [RegisteredTeam]] {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            var teams: [String: [RegisteredTeam]] = [:]
            for division in event.divisions {
                switch division.teams {
                case .list(let listed):
                    do {
                        teams[division.id] = try EventPlanner.registered(listed)
                    } catch {
                        throw ValidationError("\(path): division \(division.id): \(error.description)")
                    }
                case .csv(let file):
                    let url = file.hasPrefix("/") ? URL(fileURLWithPath: file) : folder.appendingPathComponent(file)
                    let text: String
                    do {
                        text = try String(contentsOf: url, encoding: .utf8)
                    } catch {
                        throw ValidationError("cannot read \(url.path): \(error.localizedDescription)")
                    }
                    do {
                        let rows = try TeamsCSV.read(text, file: file)
                        teams[division.id] = try EventPlanner.teams(from: rows, file: file, for: division, of: event)
                    } catch {
                        throw ValidationError(error.description)
                    }
                }
            }
            return teams
        }

        static func figures(_ planned: PlannedEvent) -> [String] {
            let figures = planned.figures
            var lines = [
                "day: \(figures.start) to \(figures.end); no plan can end before \(figures.lowerBound) "
                    + "(courts' capacity \(figures.capacityBound), longest chain \(figures.chainBound)); "
                    + "ratio \(String(format: "%.3f", figures.ratio))"
            ]
            if let wait = figures.longestWait, let median = figures.medianLongestWait {
                lines.append("longest wait between games: \(wait) min (median team's longest: \(median) min)")
            }
            if let rest = figures.smallestRest {
                lines.append("smallest rest: \(rest) min (asked: \(planned.venue.restMinutes))")
            }
            lines.append(
                "most games of one team on one court: \(figures.mostGamesOnOneCourt); court repeats beyond need: \(figures.courtRepeats)"
            )
            for (division, end) in figures.divisionEnds.sorted(by: { $0.key < $1.key }) where figures.divisionEnds.count > 1 {
                let name = planned.schedule.division(division)?.name ?? division
                lines.append("\(name) ends at \(end)")
            }
            return lines
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
