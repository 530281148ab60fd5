import CourtsideLocalization
import CourtsideModel
import CourtsideWebStore
import Foundation
import Hummingbird

/// The desk's join codes, behind its sign-in: each court's PIN and link and the devices that
/// joined it, the printable sheet, and a new code or a revoked device, each confirmed first
/// (review, then confirm) and refused from another site, as `courtside-web codes` does from a shell.
extension DeskGateway {
    /// Adds `/desk/codes`, `/desk/codes/sheet`, `POST /desk/codes/review` and `POST /desk/codes/confirm`.
    func addCodeRoutes(to router: RouteCollection<GatewayRequestContext>) {
        router.get("/desk/codes") { request, context -> Response in
            _ = try context.requireDesk()
            let query = request.uri.queryParameters
            guard let base = self.baseURL(request) else { return Self.codesDone(context.words(.deskCodesWrongBase)) }
            return WebGateway.html(
                Pages.render(
                    "desk-codes",
                    try await self.codesPage(baseURL: base, message: query["done"].map(String.init), words: context.words)))
        }
        router.get("/desk/codes/sheet") { request, context -> Response in
            _ = try context.requireDesk()
            guard let base = self.baseURL(request) else { return Self.codesDone(context.words(.deskCodesWrongBase)) }
            // As `courtside-web codes sheet`: every court of the daemon's, each given a code if it has none.
            var codes: [JoinCode] = []
            for court in self.live.current.courts { codes.append(try await self.store.code(for: court)) }
            for code in try await self.store.codes() where !codes.contains(where: { $0.court == code.court }) {
                codes.append(code)
            }
            return WebGateway.html(try JoinSheet.html(codes, baseURL: base, tournament: "Courtside", words: context.words))
        }
        router.post("/desk/codes/review") { request, context -> Response in
            _ = try context.requireDesk()
            let action: DeskCodeAction
            switch try await Self.codeAction(request, words: context.words) {
            case .success(let found): action = found
            case .failure(let error): return Self.codesDone(DeskRefusal.form(error, words: context.words, logger: context.logger))
            }
            // The page shows the confirmation alone.
            var page = DeskCodesPage(
                courts: [], codes: [], devices: [], baseURL: "", message: nil, now: Date(), words: context.words)
            page.confirm = DeskCodesPage.Confirm(
                summary: action.summary(context.words),
                fields: action.fields.map { DeskGateway.ConfirmPage.Field(name: $0.name, value: $0.value) })
            return WebGateway.html(Pages.render("desk-codes", page))
        }
        router.post("/desk/codes/confirm") { request, context -> Response in
            _ = try context.requireDesk()
            switch try await Self.codeAction(request, words: context.words) {
            case .success(let action): return Self.codesDone(try await self.perform(action, words: context.words))
            case .failure(let error): return Self.codesDone(DeskRefusal.form(error, words: context.words, logger: context.logger))
            }
        }
    }

    /// Does what the organiser confirmed; what came of it, in words.
    private func perform(_ action: DeskCodeAction, words: Words) async throws -> String {
        switch action {
        case .newCode(let court, let generation):
            guard let code = try await store.renewCode(for: court, replacing: generation) else {
                return words(.deskCodesOtherCode, ["court": court])
            }
            return words(
                .deskCodesRenewed, ["court": court, "pin": code.printedPIN, "generation": words.number(code.generation)])
        case .revoke(let name):
            guard let found = try await store.devices().first(where: { $0.device.name == name }) else {
                return words(.deskCodesNoDevice, ["device": name])
            }
            _ = try await store.revoke(device: found.device.id)
            return words(.deskCodesRevokedDone, ["device": name, "court": found.device.court])
        }
    }

    private func codesPage(baseURL: String, message: String?, words: Words) async throws -> DeskCodesPage {
        let courts = live.current.courts
        // Each court's own latest: a flood of joins on one court cannot push another's off the page.
        var expiries: [DeviceExpiry] = []
        for court in courts { expiries += try await store.recentExpiries(court: court, limit: 20) }
        return DeskCodesPage(
            courts: courts, codes: try await store.codes(), devices: try await store.devices(), expiries: expiries,
            baseURL: baseURL, message: message, now: Date(), words: words)
    }

    /// The address the links start with: the page's `base` field, or the address the desk was reached at.
    private func baseURL(_ request: Request) -> String? {
        DeskCodesPage.baseURL(
            typed: request.uri.queryParameters["base"].map(String.init), host: request.head.authority, secure: secureCookies)
    }

    private static func codeAction(_ request: Request, words: Words) async throws -> Result<DeskCodeAction, CourtsideError> {
        let body = try await BodyReading.collect(request, upTo: 4096)
        guard let fields = FormFields.parse(Array(buffer: body)) else {
            return .failure(CourtsideError(.badRequest, words(.deskFormUnreadable)))
        }
        return DeskCodeAction.parse(fields, words: words)
    }

    private static func codesDone(_ message: String) -> Response {
        KeeperGateway.redirect(to: "/desk/codes?done=\(query(message))")
    }
}
