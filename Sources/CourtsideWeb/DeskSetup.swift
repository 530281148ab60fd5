import CourtsideLocalization
import CourtsideModel
import CourtsideProtocol
import CourtsideWebStore
import Dispatch
import Foundation
import Hummingbird
import Synchronization

/// The desk's Setup page, behind its sign-in: the teams pasted, each division's format, the
/// courts and hours; the pools, the knockout and the day's grid shown before anything is sent;
/// then one `publish_draw`, as `courtside tournament publish` sends it, after a confirmation in
/// words. Each post is refused from another site.
extension DeskGateway {
    /// Plans one review at a time, off Swift's cooperative pool: a plan is a second or two of
    /// one core's work.
    private static let planning = DispatchQueue(label: "courtside.desk.setup")

    /// Adds `/desk/setup`, `/static/desk-setup.js`, `POST /desk/setup/review` and `POST /desk/setup/confirm`.
    func addSetupRoutes(to router: RouteCollection<GatewayRequestContext>) {
        router.get("/static/desk-setup.js") { _, _ -> Response in
            WebGateway.file(PackageResources.desk_setup_js, type: "text/javascript; charset=utf-8")
        }
        router.get("/desk/setup") { request, context -> Response in
            let session = try context.requireDesk()
            let query = request.uri.queryParameters
            let words = context.words
            // Back to edit: the reviewed draft's form, as it was filled.
            if let token = query["draft"].map(String.init) {
                if let entry = self.setupDrafts.withLock({ $0.entry(token, now: .now) }) {
                    return WebGateway.html(Pages.render("desk-setup", DeskSetupPage(entry.draft.form, words: words)))
                }
                return WebGateway.html(
                    Pages.render(
                        "desk-setup", DeskSetupPage(await self.freshForm(session), problem: Self.gone(words), words: words)))
            }
            return WebGateway.html(
                Pages.render(
                    "desk-setup",
                    DeskSetupPage(await self.freshForm(session), notice: DeskNotice(query: query), words: words)))
        }
        router.post("/desk/setup/review") { request, context -> Response in
            _ = try context.requireDesk()
            let words = context.words
            let body = try await BodyReading.collect(request, upTo: GatewayServer.maxBodyBytes)
            guard let fields = FormFields.parse(Array(buffer: body)) else {
                return WebGateway.html(
                    Pages.render(
                        "desk-setup",
                        DeskSetupPage(SetupForm(), problem: .init(message: words(.deskSetupFormUnreadable)), words: words)))
            }
            let form = SetupForm(fields)
            let result = await withCheckedContinuation { continuation in
                Self.planning.async {
                    continuation.resume(returning: SetupDraft.review(form, newSeed: UInt64.random(in: 1...999_999)))
                }
            }
            switch result {
            case .failure(let problem):
                return WebGateway.html(Pages.render("desk-setup", DeskSetupPage(form, problem: problem, words: words)))
            case .success(let draft):
                let token = JoinCode.randomToken(bytes: 16)
                self.setupDrafts.withLock { $0.keep(draft, token: token, now: .now) }
                return WebGateway.html(
                    Pages.render("desk-setup-preview", DeskSetupPreviewPage(draft, token: token, words: words)))
            }
        }
        router.post("/desk/setup/confirm") { request, context -> Response in
            let session = try context.requireDesk()
            let words = context.words
            let body = try await BodyReading.collect(request, upTo: 4096)
            let fields = FormFields.parse(Array(buffer: body)) ?? [:]
            let token = fields["token"] ?? ""
            guard let entry = self.setupDrafts.withLock({ $0.entry(token, now: .now) }) else {
                return WebGateway.text(
                    Pages.render(
                        "desk-setup", DeskSetupPage(await self.freshForm(session), problem: Self.gone(words), words: words)),
                    status: .gone,
                    type: "text/html; charset=utf-8")
            }
            let reason = fields["reason"]?.trimmingCharacters(in: .whitespacesAndNewlines).nonEmpty
            if let reason, let problem = TextRule.problem(reason, as: .reason) {
                DeskRefusal.log(
                    CourtsideError(.invalidReason, "reason: \(problem)"), as: "the desk refused a form", logger: context.logger)
                let refusal = words(.deskSetupRefusalReason, ["problem": Refusals.text(.invalidReason, words: words)])
                return WebGateway.html(
                    Pages.render(
                        "desk-setup-preview", DeskSetupPreviewPage(entry.draft, token: token, refusal: refusal, words: words)))
            }
            let draw: PublishedDraw
            switch entry.stage {
            case .sent(let sent): draw = sent
            case .reviewed:
                // Games that exist outside the schedule (dropped by an earlier draw, or made
                // by create_game) keep their ids: this draw names its own games apart, as
                // `courtside tournament publish` does. Fixed now, before the first send: a
                // confirmation sent again is the very same command.
                switch await self.gamesOutsideSchedule(session) {
                case .failure(let error):
                    DeskRefusal.log(error, as: "the desk could not read the games", logger: context.logger)
                    let refusal = words(.deskSetupNotSent, ["reason": Refusals.text(error.code, words: words)])
                    return WebGateway.html(
                        Pages.render(
                            "desk-setup-preview", DeskSetupPreviewPage(entry.draft, token: token, refusal: refusal, words: words))
                    )
                case .success(let taken):
                    var renamed = entry.draft.draw
                    renamed.schedule = renamed.schedule.renamingGames(avoiding: taken)
                    draw = renamed
                    self.setupDrafts.withLock { $0.sent(token, as: renamed) }
                }
            }
            let origin = CommandOrigin(clientID: self.clientID(session), commandID: "setup-\(token)")
            let refusal: String
            do throws(CourtsideError) {
                let reply = try await self.relay.send(
                    .changeTournament(.drawPublished(draw), reason: reason), origin: origin, court: Self.lane)
                if let sequence = reply.sequence { await self.live.catchUp(to: sequence) }
                guard let error = reply.error else {
                    let message = words.plural(.deskSetupPublished, count: draw.schedule.games.count)
                    return WebGateway.html(Pages.render("desk-setup-done", DeskSetupDonePage(message: message, words: words)))
                }
                DeskRefusal.log(
                    CourtsideError(error.code, error.message), as: "the daemon refused the desk's draw", logger: context.logger)
                refusal = words(.deskSetupRefused, ["reason": Refusals.text(error.code, words: words)])
            } catch {
                refusal = DeskRefusal.notSent(error, words: words, logger: context.logger)
            }
            return WebGateway.html(
                Pages.render(
                    "desk-setup-preview", DeskSetupPreviewPage(entry.draft, token: token, refusal: refusal, words: words)))
        }
    }

    /// A draft no longer kept, in `words`' language.
    static func gone(_ words: Words = .english) -> SetupForm.Problem {
        SetupForm.Problem(message: words(.deskSetupGone, ["count": words.number(SetupDrafts.capacity)]))
    }

    /// The form as it starts: config/event.yaml's values, under the tournament's name.
    private func freshForm(_ session: DeskSession) async -> SetupForm {
        var form = SetupForm()
        if case .success(let setup) = await tournament(session), !setup.tournament.isEmpty { form.tournament = setup.tournament }
        return form
    }

    /// The games that exist and are not in the schedule, from the daemon.
    private func gamesOutsideSchedule(_ session: DeskSession) async -> Result<Set<GameID>, CourtsideError> {
        switch (await read(.listGames, session), await read(.schedule, session)) {
        case (.success(let games), .success(let schedule)):
            let existing = Set((games.games ?? []).map(\.game))
            return .success(existing.subtracting((schedule.bracket ?? []).map(\.game)))
        case (.failure(let error), _), (_, .failure(let error)):
            return .failure(error)
        }
    }
}

extension String {
    /// The string, or nil when it is empty.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
