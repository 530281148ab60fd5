import CourtsideLocalization
import CourtsideWebStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import CourtsideWeb

/// The desk's routes through the gateway's own router, in process, once signed in: each page
/// drawn, each change reviewed then confirmed, and what each answers when the daemon does not
/// (the relay points at a closed port). The join codes are the gateway's own, so they change here.
@Suite("The desk's routes: signed in, each page and each change", .serialized)
struct DeskRoutesTests {
    typealias Gateway = RouteTestGateway

    /// Signs in as `name`; the desk's session cookie.
    static func signIn(_ client: some TestClientProtocol, name: String = "Front Desk") async throws -> String {
        let signed = try await client.post("/desk/login", ["passphrase": Gateway.passphrase, "name": name])
        #expect(signed.status == .seeOther && signed.headers[.location] == "/desk")
        return try #require(Gateway.cookies(signed)[DeskGateway.cookieName])
    }

    @Test("sign-in: a Strict cookie for /desk, then the desk page under the desk's name; signing out ends it")
    func signInAndOut() async throws {
        let gateway = try Gateway()
        defer { gateway.removeDirectory() }
        try await gateway.app.test(.router) { client in
            let signed = try await client.post("/desk/login", ["passphrase": Gateway.passphrase, "name": "Front Desk"])
            let line = try #require(Gateway.setCookie(signed, DeskGateway.cookieName))
            #expect(line.contains("Path=/desk") && line.contains("SameSite=Strict"), "\(line)")
            let cookie = try #require(Gateway.cookies(signed)[DeskGateway.cookieName])
            let desk = try await client.get("/desk?done=Done%3A%20g1%20is%20final.", cookie: cookie)
            let page = String(buffer: desk.body)
            #expect(desk.status == .ok && page.contains("front-desk-") && page.contains("Done: g1 is final."))
            #expect(!page.contains(#"name="passphrase""#))
            let out = try await client.post("/desk/logout", [:], cookie: cookie)
            #expect(out.status == .seeOther && out.headers[.location] == "/desk")
            #expect(Gateway.setCookie(out, DeskGateway.cookieName)?.contains("Expires=") == true)
            #expect(String(buffer: try await client.get("/desk", cookie: cookie).body).contains(#"name="passphrase""#))
            let codes = Gateway.refusal(try await client.get("/desk/codes", cookie: cookie))
            #expect(codes.status == 401 && codes.code == "not_signed_in")
        }
    }

    @Test("a forfeit reviewed and confirmed: each form read, a game the view lacks named, a confirmation sent to the daemon")
    func decisions() async throws {
        let gateway = try Gateway()
        defer { gateway.removeDirectory() }
        try await gateway.app.test(.router) { client in
            let cookie = try await Self.signIn(client)
            let forfeit = ["action": "forfeit", "game": "g1", "side": "home", "reason": "no show"]
            let review = try await client.post("/desk/review", forfeit, cookie: cookie)
            #expect(review.status == .seeOther && review.headers[.location] == "/desk?done=no%20game%20has%20id%20g1")
            let unread = try await client.post("/desk/review", ["action": "forfeit"], cookie: cookie)
            #expect(
                unread.headers[.location]?.removingPercentEncoding
                    == "/desk?done=A field the form needs is empty: fill it in, then review again.")
            let bare = try await client.post("/desk/confirm", forfeit, cookie: cookie)
            #expect(bare.headers[.location] == "/desk?done=confirm%20from%20the%20desk%27s%20own%20page")
            let sent = try await client.post("/desk/confirm", forfeit.merging(["command_id": "f1"]) { $1 }, cookie: cookie)
            #expect(
                sent.status == .seeOther
                    && sent.headers[.location]?.removingPercentEncoding?.hasPrefix(
                        "/desk?done=Not sent: The scoring server did not answer in time: try again.") == true
            )
        }
    }

    @Test("the audit page: the tournament and the games to pick from; a game's log asked of the daemon, or why not")
    func audit() async throws {
        let gateway = try Gateway()
        defer { gateway.removeDirectory() }
        try await gateway.app.test(.router) { client in
            let cookie = try await Self.signIn(client)
            let page = try await client.get("/desk/audit", cookie: cookie)
            #expect(
                page.status == .ok && String(buffer: page.body).contains(#"value="_tournament""#), "\(String(buffer: page.body))")
            let asked = try await client.get("/desk/audit?game=g1", cookie: cookie)
            let body = String(buffer: asked.body)
            // The relay's code in words; its English (the address it tried) only in the log.
            #expect(
                asked.status == .ok && body.contains("The scoring server did not answer in time: try again.")
                    && !body.contains("tcp://"), "\(body)")
        }
    }

    @Test("the join codes: each court's PIN, the sheet, a new code reviewed then made once, a device revoked")
    func codes() async throws {
        let gateway = try Gateway()
        defer { gateway.removeDirectory() }
        let code = try await gateway.store.code(for: "Court 1")
        try await gateway.app.test(.router) { client in
            let cookie = try await Self.signIn(client)
            let page = try await client.get("/desk/codes", cookie: cookie)
            #expect(page.status == .ok && String(buffer: page.body).contains(code.printedPIN))
            let sheet = try await client.get("/desk/codes/sheet?base=http%3A%2F%2F192.168.1.20%3A8080", cookie: cookie)
            #expect(sheet.status == .ok && String(buffer: sheet.body).contains(code.printedPIN))
            // Printed in the desk's language.
            let japanese = try await client.get("/desk/codes/sheet?base=http%3A%2F%2F192.168.1.20%3A8080&lang=ja", cookie: cookie)
            #expect(String(buffer: japanese.body).contains(#"<html lang="ja">"#))
            let wrongBase = try await client.get("/desk/codes/sheet?base=ftp%3A%2F%2Fx", cookie: cookie)
            #expect(wrongBase.status == .seeOther && wrongBase.headers[.location]?.hasPrefix("/desk/codes?done=") == true)
            let renew = ["action": "new_code", "court": "Court 1", "replacing": "\(code.generation)"]
            let review = try await client.post("/desk/codes/review", renew, cookie: cookie)
            #expect(review.status == .ok && String(buffer: review.body).contains("Give Court 1 a new code"))
            #expect(try await gateway.store.codes().map(\.generation) == [code.generation], "a review changes nothing")
            let made = try await client.post("/desk/codes/confirm", renew, cookie: cookie)
            #expect(made.headers[.location]?.hasPrefix("/desk/codes?done=Court%201%3A%20new%20PIN") == true)
            let again = try await client.post("/desk/codes/confirm", renew, cookie: cookie)
            #expect(again.headers[.location]?.contains("has%20another%20code%20already") == true, "confirmed twice, made once")
            let renewed = try #require(try await gateway.store.codes().first)
            #expect(renewed.generation == code.generation + 1)
            // A device joins with the new code; the desk revokes it by name.
            let (device, keeper) = try await KeeperRoutesTests.join(client, pin: renewed.pin)
            let revoke = try await client.post("/desk/codes/confirm", ["action": "revoke", "device": device], cookie: cookie)
            #expect(revoke.headers[.location]?.hasPrefix("/desk/codes?done=\(DeskGateway.query(device))%20revoked") == true)
            #expect(Gateway.refusal(try await client.get("/api/keep/session", cookie: keeper)).code == "device_revoked")
            let nobody = try await client.post("/desk/codes/confirm", ["action": "revoke", "device": "nobody"], cookie: cookie)
            #expect(nobody.headers[.location] == "/desk/codes?done=No%20device%20is%20named%20nobody%2E")
        }
    }

    /// A small draw: one division of four teams, round robin, on one court.
    static let setupForm = [
        "tournament": "Route Cup", "start": "09:00", "end": "17:00", "courts": "Court 1\r\n", "game_minutes": "10",
        "changeover_minutes": "4", "rest_minutes": "20", "rules": "fiba3x3",
        "tie_breakers": "head_to_head, average_points_scored, seed", "seed": "7",
        "csv":
            "division,team name,player 1,player 2,player 3,player 4,ranking points,club\r\nopen,Hawks,Ned,Xan,Cy,,10,\r\nopen,Rockets,Tia,Flo,Lu,,9,\r\nopen,Owls,Kai,Pia,Wyn,,8,\r\nopen,Knights,Hal,Bo,Di,,7,\r\n",
        "division-0-id": "open", "division-0-name": "Open", "division-0-format": "round_robin", "division-0-legs": "1",
    ]

    @Test("the Setup page: the form, a draft reviewed and kept under its token, edited again, and confirmed to the daemon")
    func setup() async throws {
        let gateway = try Gateway()
        defer { gateway.removeDirectory() }
        try await gateway.app.test(.router) { client in
            let cookie = try await Self.signIn(client)
            let form = try await client.get("/desk/setup", cookie: cookie)
            #expect(form.status == .ok && String(buffer: form.body).contains(#"name="csv""#))
            let preview = try await client.post("/desk/setup/review", Self.setupForm, cookie: cookie)
            let previewPage = String(buffer: preview.body)
            #expect(preview.status == .ok, "\(previewPage)")
            let token = try #require(Gateway.hidden(previewPage, "token"), "\(previewPage)")
            #expect(previewPage.contains("Hawks") && previewPage.contains("Knights"))
            let edit = try await client.get("/desk/setup?draft=\(token)", cookie: cookie)
            #expect(edit.status == .ok && String(buffer: edit.body).contains("Route Cup"))
            let gone = try await client.get("/desk/setup?draft=nope", cookie: cookie)
            #expect(String(buffer: gone.body).contains("That preview is no longer kept"))
            let sent = try await client.post("/desk/setup/confirm", ["token": token], cookie: cookie)
            #expect(
                sent.status == .ok
                    && String(buffer: sent.body).contains("Not sent: The scoring server did not answer in time: try again."))
            let lost = try await client.post("/desk/setup/confirm", ["token": "nope"], cookie: cookie)
            #expect(lost.status == .gone)
        }
    }

    @Test("the teams and schedule pages: drawn, a change reviewed with its command id, then confirmed to the daemon")
    func changes() async throws {
        let gateway = try Gateway()
        defer { gateway.removeDirectory() }
        try await gateway.app.test(.router) { client in
            let cookie = try await Self.signIn(client)
            let changes: [(String, [String: String], String)] = [
                (
                    "/desk/teams", ["action": "set_player_active", "team": "lions", "player": "bo", "active": "false"],
                    "player bo of team lions"
                ),
                (
                    "/desk/schedule",
                    [
                        "action": "edit_game", "game": "g1", "was_court": "Court 1", "was_start": "10:00", "was_home": "lions",
                        "was_away": "tigers", "court": "Court 2", "start": "10:00", "home": "lions", "away": "tigers",
                    ], "Move g1 to Court 2"
                ),
            ]
            for (path, fields, summary) in changes {
                let page = try await client.get(path, cookie: cookie)
                #expect(
                    page.status == .ok && String(buffer: page.body).contains("The scoring server did not answer in time"),
                    "\(path)")
                let review = try await client.post("\(path)/review", fields, cookie: cookie)
                let confirm = String(buffer: review.body)
                #expect(
                    review.status == .ok && confirm.contains(summary) && confirm.contains(#"action="\#(path)/confirm""#),
                    "\(confirm)")
                let id = try #require(Gateway.hidden(confirm, "command_id"))
                let sent = try await client.post("\(path)/confirm", fields.merging(["command_id": id]) { $1 }, cookie: cookie)
                #expect(
                    sent.headers[.location]?.removingPercentEncoding?.hasPrefix(
                        "\(path)?refused=Not sent: The scoring server did not answer in time") == true, "\(path)")
                let bare = try await client.post("\(path)/confirm", fields, cookie: cookie)
                #expect(bare.headers[.location] == "\(path)?refused=confirm%20from%20the%20desk%27s%20own%20page")
                let unread = try await client.post("\(path)/review", ["action": "nothing"], cookie: cookie)
                #expect(unread.headers[.location]?.hasPrefix("\(path)?refused=") == true)
            }
        }
    }

    @Test("the language picker keeps a device's choice in a cookie and goes back to the page")
    func languagePicker() async throws {
        let gateway = try Gateway()
        defer { gateway.removeDirectory() }
        try await gateway.app.test(.router) { client in
            let language = try #require(Catalogs.languages.last)
            let picked = try await client.post("/lang", ["lang": language.code, "back": "/desk"])
            #expect(picked.status == .seeOther && picked.headers[.location] == "/desk")
            #expect(Gateway.cookies(picked)[LanguageChoice.cookie] == "\(LanguageChoice.cookie)=\(language.code)")
            let wrong = try await client.post("/lang", ["lang": "xx-nope"])
            #expect(wrong.status == .badRequest)
        }
    }
}
