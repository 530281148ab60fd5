import CourtsideEvent
import CourtsideLocalization
import CourtsideModel
import CourtsidePlanning
import CourtsideViewModels

/// A Setup form reviewed: the draw planned from it (the one confirming publishes: it is never
/// planned again), what the preview shows of it, and the sentence that asks to publish it.
struct SetupDraft: Sendable {
    var form: SetupForm
    /// The draw as planned, its event file's text (with the CSV) for the audit.
    var draw: PublishedDraw
    var preview: SetupPreview
    /// The teams' clubs as registered, for the preview in another language.
    var clubs: [TeamID: String]
    /// The plan's figures, worded per request (``figures(_:)``), with the rest the venue asked
    /// for and each division's name.
    var plan: PlanFigures
    var restMinutes: Int
    var divisionNames: [String: String]
    /// The seed the draw was made with, shown so the same draw can be made again.
    var seed: UInt64
    /// What the sentence that asks to publish counts: the divisions' names, the teams, the
    /// games and the courts, and the day's first start and last end.
    var divisions: [String]
    var teams: Int
    var games: Int
    var courts: Int
    var start: String
    var end: String

    /// "Publish the draw of Open and Women: 24 teams, 47 games on 4 courts, 09:00 to 12:22."
    var summary: String { summary(.english) }

    /// The sentence that asks to publish the draw, in `words`' language.
    func summary(_ words: Words) -> String {
        let named =
            divisions.count > 1
            ? words(
                .deskSetupListAnd,
                ["list": divisions.dropLast().joined(separator: words(.deskSetupListSeparator)), "last": divisions.last ?? ""])
            : (divisions.first ?? words(.deskSetupWholeTournament))
        return words(
            .deskSetupSummary,
            [
                "divisions": named, "teams": words.plural(.deskSetupTeamsCount, count: teams),
                "games": words.plural(.deskSetupGamesCount, count: games),
                "courts": words.plural(.deskSetupCourtsCount, count: courts), "start": start, "end": end,
            ])
    }

    /// The form read as `courtside tournament plan` reads an event file, its teams from the
    /// pasted CSV, drawn with the form's seed (or `newSeed`) and planned; or the first problem,
    /// tied to its field where it has one.
    static func review(_ form: SetupForm, newSeed: UInt64, effort: Planning.Effort = .standard) -> Result<
        SetupDraft, SetupForm.Problem
    > {
        // Its English for the log and the tests; its values, when it has them, to word per request.
        func problem(_ error: EventError) -> SetupForm.Problem {
            var problem = SetupForm.Problem(field: form.field(of: error), message: error.description)
            problem.event = error.problem
            return problem
        }
        do throws(SetupForm.Problem) {
            let text = try form.eventFile()
            let event: EventDescription
            let teams: [String: [RegisteredTeam]]
            do {
                event = try EventDescription(yaml: text)
                teams = try EventPlanner.teams(of: event) { _ in form.csv }
            } catch let error as EventError {
                throw problem(error)
            } catch {
                throw SetupForm.Problem(field: nil, message: "\(error)")
            }
            let seed = event.seed ?? newSeed
            let planned: PlannedEvent
            do {
                planned = try EventPlanner.planned(event, teams: teams, seed: seed, effort: effort)
            } catch {
                throw problem(error)
            }
            var clubs: [TeamID: String] = [:]
            for registered in teams.values.joined() { clubs[registered.team.id] = registered.club }
            let schedule = planned.schedule
            let draw = PublishedDraw(schedule: schedule, randomSeed: planned.draft.randomSeed, event: text)
            return .success(
                SetupDraft(
                    form: form, draw: draw, preview: SetupPreview(schedule, clubs: clubs), clubs: clubs,
                    plan: planned.figures, restMinutes: planned.venue.restMinutes,
                    divisionNames: Dictionary(
                        schedule.divisions.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first }),
                    seed: seed, divisions: schedule.divisions.map(\.name), teams: schedule.teams.count,
                    games: schedule.games.count, courts: event.courts.count, start: "\(planned.figures.start)",
                    end: "\(planned.figures.end)"))
        } catch {
            return .failure(error)
        }
    }
}
