import CourtsideLocalization
import CourtsideModel
import CourtsideProtocol
import CourtsideWebStore
import Hummingbird

/// What the desk's teams and schedule pages share: the tournament read under the organiser's
/// key, and a change reviewed, then confirmed (each refused from another site), whose outcome,
/// the daemon's refusal included, the page shows after a redirect.
extension DeskGateway {
    /// Adds `page` (`/desk/<page>`), which `draw` makes from the tournament as it stands (or why
    /// it could not be read) and the notice of its address, and `POST /desk/<page>/review` and
    /// `POST /desk/<page>/confirm` for its changes.
    func addChangePage(
        _ page: DeskChange.Page, to router: RouteCollection<GatewayRequestContext>,
        draw: @escaping @Sendable (Result<TournamentSetup, CourtsideError>, DeskNotice?, Words) -> String
    ) {
        router.get(RouterPath(page.path)) { request, context -> Response in
            let session = try context.requireDesk()
            let tournament = await self.tournament(session)
            if case .failure(let error) = tournament {
                DeskRefusal.log(error, as: "the desk could not read the tournament", logger: context.logger)
            }
            return WebGateway.html(draw(tournament, DeskNotice(query: request.uri.queryParameters), context.words))
        }
        router.post(RouterPath("\(page.path)/review")) { request, context -> Response in
            _ = try context.requireDesk()
            let change: DeskChange
            switch try await Self.change(request, on: page, words: context.words) {
            case .success(let found): change = found
            case .failure(let error):
                return Self.refused(DeskRefusal.form(error, words: context.words, logger: context.logger), on: page)
            }
            // The id is made now, once: a confirmation sent twice is one command to the daemon.
            let confirm = ConfirmPage(
                summary: change.summary(context.words),
                fields: change.fields.map { ConfirmPage.Field(name: $0.name, value: $0.value) }
                    + [ConfirmPage.Field(name: "command_id", value: JoinCode.randomToken(bytes: 12))],
                action: "\(page.path)/confirm", back: page.path, note: context.words(.deskConfirmNoteChange), words: context.words
            )
            return WebGateway.html(Pages.render("desk-confirm", confirm))
        }
        router.post(RouterPath("\(page.path)/confirm")) { request, context -> Response in
            let session = try context.requireDesk()
            let change: DeskChange
            switch try await Self.change(request, on: page, words: context.words) {
            case .success(let found): change = found
            case .failure(let error):
                return Self.refused(DeskRefusal.form(error, words: context.words, logger: context.logger), on: page)
            }
            let words = context.words
            guard let commandID = change.commandID else { return Self.refused(words(.deskOwnPage), on: page) }
            let origin = CommandOrigin(clientID: self.clientID(session), commandID: commandID)
            let notice: DeskNotice
            do throws(CourtsideError) {
                let reply = try await self.relay.send(change.operation, origin: origin, court: Self.lane)
                // The schedule page shows which games have started from the gateway's view: let it see this change.
                if let sequence = reply.sequence { await self.live.catchUp(to: sequence) }
                notice =
                    reply.error.map {
                        DeskNotice(
                            text: DeskRefusal.refused(
                                CourtsideError($0.code, $0.message), summary: change.summary(words), words: words,
                                logger: context.logger),
                            refused: true)
                    } ?? DeskNotice(text: words(.deskDone, ["summary": change.summary(words)]), refused: false)
            } catch {
                notice = DeskNotice(text: DeskRefusal.notSent(error, words: words, logger: context.logger), refused: true)
            }
            return KeeperGateway.redirect(to: notice.location(page.path))
        }
    }

    /// The tournament as it stands, read from the daemon under the organiser's key.
    func tournament(_ session: DeskSession) async -> Result<TournamentSetup, CourtsideError> {
        switch await read(.tournament, session) {
        case .success(let reply):
            guard let setup = reply.tournament else {
                return .failure(CourtsideError(.internalError, "the daemon sent no tournament"))
            }
            return .success(setup)
        case .failure(let error): return .failure(error)
        }
    }

    /// A read of the daemon's under the organiser's key: its reply, or its refusal or why it
    /// went unanswered, as an error.
    func read(_ operation: CourtsideProtocol.Request.Operation, _ session: DeskSession) async -> Result<Reply, CourtsideError> {
        let origin = CommandOrigin(clientID: clientID(session), commandID: "read-\(JoinCode.randomToken(bytes: 6))")
        do throws(CourtsideError) {
            let reply = try await relay.send(operation, origin: origin, court: Self.lane)
            if let error = reply.error { return .failure(CourtsideError(error.code, error.message)) }
            return .success(reply)
        } catch {
            return .failure(error)
        }
    }

    private static func change(
        _ request: Request, on page: DeskChange.Page, words: Words = .english
    ) async throws -> Result<DeskChange, CourtsideError> {
        let body = try await BodyReading.collect(request, upTo: 16_384)
        guard let fields = FormFields.parse(Array(buffer: body)) else {
            return .failure(CourtsideError(.badRequest, words(.deskFormUnreadable)))
        }
        return DeskChange.parse(fields, on: page, words: words)
    }

    private static func refused(_ message: String, on page: DeskChange.Page) -> Response {
        KeeperGateway.redirect(to: DeskNotice(text: message, refused: true).location(page.path))
    }
}

extension Result<TournamentSetup, CourtsideError> {
    /// Why the tournament could not be read, in `words`' language (its refusal's words by its
    /// code: the daemon's English is in the log); nil when it was.
    func unreadable(_ words: Words) -> String? {
        if case .failure(let error) = self { Refusals.text(error.code, words: words) } else { nil }
    }
}
