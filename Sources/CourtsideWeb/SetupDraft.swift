import CourtsideEvent
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
    /// The plan's figures in words (``PlannedEvent/figureLines``).
    var figures: [String]
    /// The seed the draw was made with, shown so the same draw can be made again.
    var seed: UInt64
    /// "Publish the draw of Open and Women: 24 teams, 47 games on 4 courts, 09:00 to 12:22."
    var summary: String

    /// The form read as `courtside tournament plan` reads an event file, its teams from the
    /// pasted CSV, drawn with the form's seed (or `newSeed`) and planned; or the first problem,
    /// tied to its field where it has one.
    static func review(_ form: SetupForm, newSeed: UInt64, effort: Planning.Effort = .standard) -> Result<
        SetupDraft, SetupForm.Problem
    > {
        do throws(SetupForm.Problem) {
            let text = try form.eventFile()
            let event: EventDescription
            let teams: [String: [RegisteredTeam]]
            do {
                event = try EventDescription(yaml: text)
                teams = try EventPlanner.teams(of: event) { _ in form.csv }
            } catch let error as EventError {
                throw SetupForm.Problem(field: form.field(of: error), message: error.description)
            } catch {
                throw SetupForm.Problem(field: nil, message: "\(error)")
            }
            let seed = event.seed ?? newSeed
            let planned: PlannedEvent
            do {
                planned = try EventPlanner.planned(event, teams: teams, seed: seed, effort: effort)
            } catch {
                throw SetupForm.Problem(field: form.field(of: error), message: error.description)
            }
            var clubs: [TeamID: String] = [:]
            for registered in teams.values.joined() { clubs[registered.team.id] = registered.club }
            let schedule = planned.schedule
            let draw = PublishedDraw(schedule: schedule, randomSeed: planned.draft.randomSeed, event: text)
            let names = schedule.divisions.map(\.name)
            let named =
                names.count > 1
                ? names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "") : (names.first ?? "the tournament")
            let courts = event.courts.count
            let summary =
                "Publish the draw of \(named): \(schedule.teams.count) teams, \(schedule.games.count) games on \(courts) court\(courts == 1 ? "" : "s"), "
                + "\(planned.figures.start) to \(planned.figures.end)."
            return .success(
                SetupDraft(
                    form: form, draw: draw, preview: SetupPreview(schedule, clubs: clubs), figures: planned.figureLines,
                    seed: seed,
                    summary: summary))
        } catch {
            return .failure(error)
        }
    }
}
