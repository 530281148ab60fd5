import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import CourtsideWebStore
import Foundation
import Testing

/// The organiser's desk in courtside-web against the real daemon, read over HTTP as a browser
/// posts its forms.
@Suite("the organiser's desk", .serialized, .timeLimit(.minutes(3)))
struct DeskTests {
    static let passphrase = "correct horse battery staple"

    /// A passphrase file made as the README says.
    static func passphraseFile(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("desk.hash").path
        let process = try ChildProcess(WebProcess.executable, ["desk", "passphrase"], pipeInput: true, output: .capture)
        process.write(passphrase + "\n")
        let hash = process.readOutput(seconds: 20).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(hash.hasPrefix("$2"), "\(hash)")
        try hash.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The daemon (its schedule `schedule`) and courtside-web with the desk on, in sync.
    static func deskOn(schedule: String = DaemonProcess.twoGames) async throws -> (DaemonProcess, WebProcess) {
        let daemon = try DaemonProcess(schedule: schedule)
        let web = try WebProcess(daemon, arguments: ["--desk-passphrase-file", try passphraseFile(in: daemon.directory)])
        #expect(await web.waitInSync(), "\(web.log())")
        return (daemon, web)
    }

    /// A form posted as a browser posts it, answered with JSON or a redirect.
    static func post(_ phone: Phone, _ path: String, _ fields: [(String, String)], headers: [String: String] = [:])
        async throws -> (status: Int, json: [String: Any], headers: [AnyHashable: Any])
    {
        try await phone.send("POST", path, body: form(fields), headers: headers, contentType: "application/x-www-form-urlencoded")
    }

    static func form(_ fields: [(String, String)]) -> Data {
        Data(
            fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
                .joined(separator: "&").utf8)
    }

    @Test(
        "sign in, record a forfeit after confirming it (confirmed twice: applied once, origin organiser/<desk>), read it in the audit; a wrong passphrase and a cross-site post are refused"
    )
    func desk() async throws {
        let (daemon, web) = try await Self.deskOn()
        let desk = Phone(web.base)
        let post = { (path: String, fields: [(String, String)], headers: [String: String]) in
            try await Self.post(desk, path, fields, headers: headers)
        }
        // Not signed in: the sign-in page, and no decision.
        let (loginStatus, loginPage) = try await httpGet(web.base + "/desk")
        #expect(loginStatus == 200 && loginPage.contains("passphrase"))
        let early = try await post("/desk/review", [("action", "forfeit"), ("game", "g2"), ("side", "away")], [:])
        #expect(early.status == 401 && early.json.code == "not_signed_in")
        let wrong = try await post("/desk/login", [("passphrase", "not it at all")], [:])
        #expect(wrong.status == 303 && wrong.headers["Location"] as? String == "/desk?login=wrong")

        let signed = try await post("/desk/login", [("passphrase", Self.passphrase), ("name", "Main desk")], [:])
        #expect(signed.status == 303 && desk.jar["courtside_desk"] != nil, "\(signed)")
        let (_, deskPage) = try await Self.getHTML(desk, "/desk")
        #expect(deskPage.contains("data-game=\"g2\"") && deskPage.contains("/desk/review"), "\(deskPage.prefix(400))")

        // Review, then confirm: the confirmation carries the command's id, made once.
        let (_, confirm) = try await Self.postHTML(
            desk, "/desk/review", [("action", "forfeit"), ("game", "g2"), ("side", "away"), ("reason", "Wolves did not show up")])
        #expect(confirm.contains("Wolves forfeit g2"), "\(confirm)")
        let hidden = Self.hiddenFields(confirm)
        #expect(hidden.contains { $0.0 == "command_id" && !$0.1.isEmpty })
        for _ in 0..<2 {
            let done = try await post("/desk/confirm", hidden, [:])
            #expect(done.status == 303 && (done.headers["Location"] as? String ?? "").hasPrefix("/desk?done="), "\(done)")
        }
        let keeper = try Keeper(daemon.commandEndpoint)
        let g2 = try #require(try keeper.send(.snapshot(game: "g2")).snapshot?.first)
        #expect(g2.endReason == .forfeit && g2.winner == .home && g2.score == SideValues(home: 15, away: 0))
        let forfeits = try #require(try keeper.send(.log(game: "g2")).events).filter {
            if case .forfeit = $0.kind { true } else { false }
        }
        #expect(forfeits.count == 1)
        #expect(
            forfeits.first?.origin.clientID.hasPrefix("organiser/main-desk-") == true, "\(String(describing: forfeits.first))")

        // The audit shows who did it.
        let (_, audit) = try await Self.getHTML(desk, "/desk/audit?game=g2&kind=forfeit")
        #expect(audit.contains("forfeit by away: Wolves did not show up") && audit.contains("organiser/main-desk-"))
        #expect(!audit.contains("data-kind=\"game_created\""), "filtered by kind")

        // Another site's form is refused and changes nothing.
        let (_, review) = try await Self.postHTML(
            desk, "/desk/review", [("action", "end_game"), ("game", "g1"), ("result", "no_result"), ("reason", "x")])
        let forged = try await post("/desk/confirm", Self.hiddenFields(review), ["Origin": "http://evil.example"])
        #expect(forged.status == 403 && forged.json.code == "forbidden")
        #expect(try keeper.send(.snapshot(game: "g1")).snapshot?.first?.isFinished == false)

        // Wrong passphrases from one address, seven at once: five wrong in all are heard, the rest slowed down.
        let base = web.base
        let guesses = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<7 {
                group.addTask {
                    try await Phone(base).send(
                        "POST", "/desk/login", body: Self.form([("passphrase", "guess guess guess")]),
                        contentType: "application/x-www-form-urlencoded"
                    ).headers["Location"] as? String ?? ""
                }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        // The wrong one before the sign-in counts too: at most four more are heard; the rest wait
        // for this address's throttle, or are not checked at all while the gateway's few
        // passphrase checks a moment are spent ("busy": bcrypt never crowds out the keepers).
        let heard = guesses.filter { $0 == "/desk?login=wrong" }.count
        let slowed = guesses.filter { $0.hasPrefix("/desk?login=wait") || $0.hasPrefix("/desk?login=busy") }.count
        #expect(heard >= 1 && heard <= 4 && slowed >= 3 && heard + slowed == 7, "\(guesses)")
    }

    /// g1 then g3 on Court 1, at times around now in this machine's time zone (the venue's, for
    /// the gateway beside it); g2 on Court 2, at no time.
    static var courtSchedule: String {
        let format = DateFormatter()
        format.dateFormat = "HH:mm"
        let first = Date().addingTimeInterval(-600)
        return """
            games:
              - { id: g1, home: lions, away: tigers, court: Court 1, start: "\(format.string(from: first))" }
              - { id: g2, home: bears, away: wolves, court: Court 2 }
              - { id: g3, home: wolves, away: lions, court: Court 1, start: "\(format.string(from: first.addingTimeInterval(1200)))" }
            """
    }

    @Test(
        "in Chromium: a wrong passphrase refused, a forfeit recorded, and the desk, a court's TV and the big screen follow; the screens show each court's next game and follow it when a game starts; the desk makes a code, lists the phone that joined with it and revokes it; a late player added and a game moved to another court, which the box score, the court's TV and the big screen follow"
    )
    func browser() async throws {
        let (daemon, web) = try await Self.deskOn(schedule: Self.courtSchedule)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("python/desk_check.py")
        // The teams page's screenshot lands next to the build, for a person to look at after the run.
        let shots = DaemonProcess.executable.deletingLastPathComponent().appendingPathComponent("desk-screenshots")
        let check = try ChildProcess(
            "/usr/bin/python3", [script.path, "--web", web.base, "--passphrase", Self.passphrase, "--shots", shots.path],
            output: .capture, error: .capture)
        let output = await check.output(within: 120)
        #expect(await check.exited(within: 10) == 0, "\(output)")
        #expect(output.contains(" passed, 0 failed"), "\(output)")
        let keeper = try Keeper(daemon.commandEndpoint)
        let g2 = try #require(try keeper.send(.snapshot(game: "g2")).snapshot?.first)
        #expect(g2.endReason == .forfeit && g2.winner == .home)
        let g1 = try #require(try keeper.send(.snapshot(game: "g1")).snapshot?.first)
        #expect(g1.setup.court == "Court 2" && g1.setup.home.has("dee"), "\(g1.setup)")
    }

    @Test(
        "the teams and the schedule at the desk: a player added (confirmed twice: once), renamed, a team registered, a game moved and one added, each after a review; the daemon's refusals shown on the page; cross-site posts and no session refused"
    )
    func teamsAndSchedule() async throws {
        let (daemon, web) = try await Self.deskOn()
        let desk = Phone(web.base)
        let post = { (path: String, fields: [(String, String)], headers: [String: String]) in
            try await Self.post(desk, path, fields, headers: headers)
        }
        let keeper = try Keeper(daemon.commandEndpoint)
        let addDee = [("action", "add_player"), ("team", "lions"), ("player", "dee"), ("name", "Dee Dunn"), ("reason", "late")]
        for path in ["/desk/teams", "/desk/schedule"] {
            #expect(try await Self.getHTML(desk, path).0 == 401, "signed in first")
            #expect(try await post(path + "/confirm", addDee, [:]).json.code == "not_signed_in")
        }
        _ = try await post("/desk/login", [("passphrase", Self.passphrase)], [:])

        // Another site's forms are refused, before any review.
        for path in ["/desk/teams/review", "/desk/teams/confirm", "/desk/schedule/review", "/desk/schedule/confirm"] {
            let forged = try await post(path, addDee + [("command_id", "forged-1")], ["Origin": "http://evil.example"])
            #expect(forged.status == 403 && forged.json.code == "forbidden", "\(path)")
        }

        // A late player: reviewed, then confirmed twice, added once.
        let (_, teams) = try await Self.getHTML(desk, "/desk/teams")
        #expect(teams.contains(#"data-team="lions""#) && teams.contains(#"<tr data-player="ann">"#), "\(teams.prefix(600))")
        let (_, review) = try await Self.postHTML(desk, "/desk/teams/review", addDee)
        #expect(review.contains("Add Dee Dunn (dee) to team lions (late)") && review.contains(#"action="/desk/teams/confirm""#))
        #expect(try keeper.send(.tournament).tournament?.teams.first { $0.id == "lions" }?.has("dee") == false, "not before")
        // The second confirmation is the same command: a new one would be refused as player_exists.
        for _ in 0..<2 {
            let done = try await post("/desk/teams/confirm", Self.hiddenFields(review), [:])
            #expect((done.headers["Location"] as? String ?? "").hasPrefix("/desk/teams?done=Done"), "\(done)")
        }
        let lions = try #require(try keeper.send(.tournament).tournament?.teams.first { $0.id == "lions" })
        #expect(lions.players.filter { $0.id == "dee" }.count == 1)
        #expect(try await Self.getHTML(desk, "/desk/teams").1.contains(#"<tr data-player="dee">"#))

        // The daemon's refusal, with its code, on the page.
        let (_, taken) = try await Self.postHTML(
            desk, "/desk/teams/review", [("action", "add_player"), ("team", "tigers"), ("player", "bo"), ("name", "Bo Two")])
        let refused = try await post("/desk/teams/confirm", Self.hiddenFields(taken), [:])
        let location = try #require(refused.headers["Location"] as? String)
        #expect(location.hasPrefix("/desk/teams?refused="), "\(location)")
        let (_, shown) = try await Self.getHTML(desk, location)
        #expect(
            shown.contains(
                #"role="alert" id="teams-message">Not done: Add Bo Two (bo) to team tigers. A player with this id plays in the tournament already"#
            ) && !shown.contains("plays for lions"), "\(shown)")

        // A renamed player and a registered team.
        for fields in [
            [("action", "rename_player"), ("team", "lions"), ("player", "ann"), ("name", "Ann Avery")],
            [("action", "register_team"), ("team", "owls"), ("name", "Owls"), ("players", "ola Ola Olsen\npia Pia Park")],
        ] {
            let (_, review) = try await Self.postHTML(desk, "/desk/teams/review", fields)
            let done = try await post("/desk/teams/confirm", Self.hiddenFields(review), [:])
            #expect((done.headers["Location"] as? String ?? "").hasPrefix("/desk/teams?done="), "\(done)")
        }
        let setup = try #require(try keeper.send(.tournament).tournament)
        #expect(setup.teams.first { $0.id == "lions" }?.players.first?.name == "Ann Avery")
        #expect(setup.teams.first { $0.id == "owls" }?.players.map(\.name) == ["Ola Olsen", "Pia Park"])

        // The schedule: g1 started cannot move (refused on the page); g2 moves; g7 is added.
        #expect(try keeper.send(.clock(game: "g1", command: .startClock)).error == nil)
        // The gateway follows the daemon's event a moment after the reply.
        let schedule = await poll {
            (try? await Self.getHTML(desk, "/desk/schedule"))?.1 ?? ""
        } until: {
            $0.contains("LIVE")
        }
        #expect(schedule.contains(#"<tr data-game="g2">"#) && schedule.contains("LIVE"), "\(schedule.prefix(800))")
        let moveG1 = [("action", "edit_game"), ("game", "g1"), ("was_court", "Court 1"), ("court", "Court 2")]
        let (_, late) = try await Self.postHTML(desk, "/desk/schedule/review", moveG1)
        let started = try await post("/desk/schedule/confirm", Self.hiddenFields(late), [:])
        let startedAt = try #require(started.headers["Location"] as? String)
        #expect(
            startedAt.removingPercentEncoding?.contains("?refused=Not done: Move g1 to Court 2. The game has started") == true)
        for fields in [
            [("action", "edit_game"), ("game", "g2"), ("was_court", "Court 2"), ("court", "Court 1"), ("start", "11:30")],
            [
                ("action", "schedule_game"), ("game", "g7"), ("home", "owls"), ("away", "tigers"), ("court", "Court 2"),
                ("round", "Friendlies"),
            ],
        ] {
            let (_, review) = try await Self.postHTML(desk, "/desk/schedule/review", fields)
            let done = try await post("/desk/schedule/confirm", Self.hiddenFields(review), [:])
            #expect((done.headers["Location"] as? String ?? "").hasPrefix("/desk/schedule?done="), "\(done)")
        }
        let g2 = try #require(try keeper.send(.snapshot(game: "g2")).snapshot?.first)
        #expect(g2.setup.court == "Court 1")
        let g7 = try #require(try keeper.send(.snapshot(game: "g7")).snapshot?.first)
        #expect(g7.setup.home.id == "owls" && g7.setup.court == "Court 2")
        let (_, after) = try await Self.getHTML(desk, "/desk/schedule")
        #expect(after.contains(#"data-round="Friendlies""#) && after.contains(#"<tr data-game="g7">"#), "\(after)")
    }

    @Test(
        "the join codes at the desk: a first and a new code each made once however often confirmed, the sheet with the links' address, the device that joined listed and revoked (its next request refused), cross-site posts and no session refused"
    )
    func codes() async throws {
        let (daemon, web) = try await Self.deskOn()
        let desk = Phone(web.base)
        let post = { (path: String, fields: [(String, String)], headers: [String: String]) in
            try await Self.post(desk, path, fields, headers: headers)
        }
        let (status, _) = try await Self.getHTML(desk, "/desk/codes")
        #expect(status == 401, "signed in first")
        let early = try await post(
            "/desk/codes/confirm", [("action", "new_code"), ("court", "Court 1"), ("replacing", "0")], [:])
        #expect(early.status == 401 && early.json.code == "not_signed_in")
        _ = try await post("/desk/login", [("passphrase", Self.passphrase)], [:])
        let (_, empty) = try await Self.getHTML(desk, "/desk/codes")
        #expect(empty.contains(#"data-court="Court 1""#) && empty.contains(#"data-court="Court 2""#), "\(empty)")
        #expect(empty.contains("No code yet.") && empty.contains(#"value="\#(web.base)""#), "the desk's own address by default")

        // The first code: reviewed, then confirmed twice, made once.
        let (_, review) = try await Self.postHTML(
            desk, "/desk/codes/review", [("action", "new_code"), ("court", "Court 1"), ("replacing", "0")])
        #expect(review.contains("Give Court 1 its first code"), "\(review)")
        let store = try GatewayStore(directory: WebProcess.stateDirectory(daemon))
        #expect(try await store.codes().isEmpty, "nothing changes before the confirmation")
        var done: [String] = []
        for _ in 0..<2 {
            let answer = try await post("/desk/codes/confirm", Self.hiddenFields(review), [:])
            done.append((answer.headers["Location"] as? String ?? "").removingPercentEncoding ?? "")
        }
        let first = try #require(try await store.codes().first)
        #expect(first.court == "Court 1" && first.generation == 1)
        #expect(done[0].contains("new PIN \(first.printedPIN)") && done[1].contains("has another code already"), "\(done)")

        // The sheet: the links start with the desk's address, or the one typed.
        let (_, sheet) = try await Self.getHTML(desk, "/desk/codes/sheet")
        #expect(sheet.contains(first.printedPIN) && sheet.contains("\(web.base)/keep"), "\(sheet.prefix(300))")
        #expect(sheet.contains("<svg") && sheet.contains(#"data-court="Court 2""#), "every court, a QR code each")
        let (_, typed) = try await Self.getHTML(desk, "/desk/codes/sheet?base=http%3A%2F%2F192.168.1.20%3A8080")
        #expect(typed.contains("http://192.168.1.20:8080/keep"))
        let wrongBase = try await desk.send("GET", "/desk/codes/sheet?base=javascript%3Aalert(1)")
        #expect(wrongBase.status == 303)

        // A phone joins Court 1 with the PIN, and the desk lists it.
        let phone = Phone(web.base)
        let device = try #require(try await phone.join(pin: first.printedPIN, name: "Court 1 tablet"))
        #expect(try await phone.move("g1", "ann").status == 200)
        let (_, listed) = try await Self.getHTML(desk, "/desk/codes")
        #expect(listed.contains(#"<tr data-device="\#(device)">"#) && listed.contains("(just now)"), "\(listed)")

        // Another site's forms are refused and change nothing.
        let revoke = [("action", "revoke"), ("device", device)]
        for path in ["/desk/codes/review", "/desk/codes/confirm"] {
            let forged = try await post(path, revoke, ["Origin": "http://evil.example"])
            #expect(forged.status == 403 && forged.json.code == "forbidden")
        }
        #expect(try await phone.move("g1", "ann").status == 200, "still joined")

        // Revoked after a confirmation: its next request is refused as revoked.
        let (_, confirm) = try await Self.postHTML(desk, "/desk/codes/review", revoke)
        #expect(confirm.contains("Revoke \(device)") && Self.hiddenFields(confirm).contains { $0 == ("device", device) })
        let revoked = try await post("/desk/codes/confirm", Self.hiddenFields(confirm), [:])
        #expect((revoked.headers["Location"] as? String ?? "").removingPercentEncoding?.contains("\(device) revoked") == true)
        let refused = try await phone.move("g1", "ann")
        #expect(refused.status == 401 && refused.json.code == "device_revoked", "\(refused)")
        let (_, after) = try await Self.getHTML(desk, "/desk/codes")
        #expect(!after.contains(#"name="device" value="\#(device)""#), "a revoked device has no revoke form")

        // A new code for Court 1, confirmed twice: code 2 once.
        let (_, renew) = try await Self.postHTML(
            desk, "/desk/codes/review", [("action", "new_code"), ("court", "Court 1"), ("replacing", "1")])
        for _ in 0..<2 { _ = try await post("/desk/codes/confirm", Self.hiddenFields(renew), [:]) }
        #expect(try await store.codes().first?.generation == 2)
    }

    @Test("without --desk-passphrase-file the desk is off and says how to turn it on; a passphrase too short is refused")
    func off() async throws {
        let daemon = try DaemonProcess()
        let web = try WebProcess(daemon)
        #expect(await web.waitInSync())
        let (status, body) = try await httpGet(web.base + "/desk")
        #expect(status == 404 && body.contains("--desk-passphrase-file"))
        let short = try ChildProcess(
            WebProcess.executable, ["desk", "passphrase"], pipeInput: true, output: .capture, error: .capture)
        short.write("short\n")
        #expect(short.readOutput(seconds: 20).contains("at least 10 characters"))
    }

    static func getHTML(_ phone: Phone, _ path: String) async throws -> (Int, String) {
        try await phone.html("GET", path, body: nil)
    }

    static func postHTML(_ phone: Phone, _ path: String, _ fields: [(String, String)]) async throws -> (Int, String) {
        try await phone.html("POST", path, body: form(fields))
    }

    /// The hidden inputs of a form, as a browser would send them back.
    static func hiddenFields(_ html: String) -> [(String, String)] {
        let pattern = #/<input type="hidden" name="([^"]*)" value="([^"]*)">/#
        return html.matches(of: pattern).map { (String($0.output.1), Self.unescape(String($0.output.2))) }
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
