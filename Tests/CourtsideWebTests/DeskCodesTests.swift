import CourtsideModel
import CourtsideWebStore
import Foundation
import Testing

@testable import CourtsideWeb

@Suite("The desk's join codes: its forms, its page and the address of the links")
struct DeskCodesTests {
    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    @Test("a form reads as a new code (naming the code it replaces) or a revoke, and its fields read back the same")
    func actions() throws {
        let renew = try DeskCodeAction.parse(["action": "new_code", "court": "Court 1", "replacing": "2"]).get()
        #expect(renew == .newCode(court: "Court 1", replacing: 2))
        let revoke = try DeskCodeAction.parse(["action": "revoke", "device": "ann-s-phone-3f9a"]).get()
        #expect(revoke == .revoke(device: "ann-s-phone-3f9a"))
        for action in [renew, revoke, .newCode(court: "Court 2", replacing: 0)] {
            let fields = Dictionary(uniqueKeysWithValues: action.fields.map { ($0.name, $0.value) })
            #expect(try DeskCodeAction.parse(fields).get() == action)
        }
        #expect(revoke.summary.hasPrefix("Revoke ann-s-phone-3f9a"))
        #expect(renew.summary.contains("every device that joined with them must join again"))
        #expect(DeskCodeAction.newCode(court: "Court 2", replacing: 0).summary == "Give Court 2 its first code")
        for broken: [String: String] in [
            [:], ["action": "forfeit"], ["action": "new_code", "court": "Court 1"],
            ["action": "new_code", "court": "", "replacing": "1"], ["action": "new_code", "court": "C", "replacing": "-1"],
            ["action": "revoke"], ["action": "revoke", "device": ""],
        ] {
            guard case .failure(let error) = DeskCodeAction.parse(broken) else {
                Issue.record("\(broken) was read as an action")
                continue
            }
            #expect(error.code == .badRequest)
        }
    }

    @Test("the links start with the address typed, if it is http or https, else with the one the desk was reached at")
    func baseURL() {
        #expect(DeskCodesPage.baseURL(typed: nil, host: "192.168.1.20:8080", secure: false) == "http://192.168.1.20:8080")
        #expect(DeskCodesPage.baseURL(typed: " ", host: "gym.example", secure: true) == "https://gym.example")
        #expect(DeskCodesPage.baseURL(typed: "http://10.0.0.5:8080/", host: "x", secure: false) == "http://10.0.0.5:8080")
        for wrong in ["javascript:alert(1)", "ftp://x", "nope", "http://", "http://x/?a=1"] {
            #expect(DeskCodesPage.baseURL(typed: wrong, host: "x", secure: false) == nil, "\(wrong)")
        }
    }

    @Test("a time in the venue's zone and how long ago")
    func time() {
        let at = { (seconds: Double) in
            DeskCodesPage.time(Self.now.addingTimeInterval(-seconds), now: Self.now, calendar: Self.utc)
        }
        #expect(at(5).hasSuffix("(just now)") && at(185).hasSuffix("(3 min ago)") && at(7300).hasSuffix("(2 h ago)"))
        #expect(at(3 * 86_400).hasSuffix("(3 d ago)"))
        #expect(
            DeskCodesPage.time(Date(timeIntervalSince1970: 9 * 3600 + 5 * 60), now: Self.now, calendar: Self.utc).hasPrefix(
                "9:05 "))
    }

    @Test(
        "each court of the daemon's in its order, then the store's others; its PIN, link and devices; revoked ones without a form"
    )
    func page() {
        let code = JoinCode(court: "Court 2", generation: 3, token: "TOKEN", pin: "ACDEFH")
        let phone = KeeperDevice(
            id: "secret-id", court: "Court 2", generation: 3, name: "ann-s-phone-3f9a",
            joinedAt: Self.now.addingTimeInterval(-600),
            lastSeen: Self.now.addingTimeInterval(-120))
        var lost = phone
        (lost.id, lost.name) = ("other-id", "lost-phone-aaaa")
        let page = DeskCodesPage(
            courts: ["Court 2", "Court 1"], codes: [code, JoinCode(court: "Annex", generation: 1, token: "T2", pin: "KMNPQR")],
            devices: [(phone, false), (lost, true)],
            expiries: [
                DeviceExpiry(
                    court: "Court 2", name: "device-17", joinedAt: Self.now.addingTimeInterval(-900),
                    lastSeen: Self.now.addingTimeInterval(-900), commanded: false, expiredAt: Self.now.addingTimeInterval(-60),
                    reason: .courtFull)
            ], baseURL: "http://10.0.0.5:8080", message: "Done", now: Self.now, calendar: Self.utc)
        #expect(page.courts.map(\.name) == ["Court 2", "Court 1", "Annex"])
        #expect(page.courts[0].pin == "ACD-EFH" && page.courts[0].link == "http://10.0.0.5:8080/keep/join/TOKEN")
        #expect(page.courts[0].devices.map(\.name) == ["ann-s-phone-3f9a", "lost-phone-aaaa"])
        #expect(page.courts[0].devices[0].lastSeen.hasSuffix("(2 min ago)"))
        #expect(page.courts[1].pin == nil && page.courts[1].generation == 0 && page.courts[1].devices.isEmpty)

        let html = Pages.render("desk-codes", page)
        #expect(html.contains(#"<strong class="pin">ACD-EFH</strong> (code 3)"#), "\(html)")
        #expect(html.contains(#"<input type="hidden" name="device" value="ann-s-phone-3f9a">"#))
        #expect(!html.contains(#"value="lost-phone-aaaa""#), "a revoked device has no revoke form")
        #expect(!html.contains("secret-id"), "a device's id never reaches the page")
        #expect(
            html.contains(#"<input type="hidden" name="replacing" value="0">"#) && html.contains("No device has joined Court 1."))
        #expect(html.contains(#"value="http://10.0.0.5:8080""#) && !html.contains(#"id="confirm""#))
        // The organiser sees a flood of joins push the court's unused devices out.
        #expect(html.contains(#"<li data-expired="device-17">device-17: "#) && html.contains("the court had its most devices"))
        // Only the court with expired devices lists them; the other has no empty list.
        #expect(page.courts[1].expired.isEmpty && html.components(separatedBy: #"<details class="expired">"#).count == 2)
        #expect(html.contains(#"<td data-label="joined">"#) && html.contains("Devices expired lately"))

        var review = page
        review.confirm = DeskCodesPage.Confirm(
            summary: DeskCodeAction.revoke(device: "ann-s-phone-3f9a").summary,
            fields: DeskCodeAction.revoke(device: "ann-s-phone-3f9a").fields.map { .init(name: $0.name, value: $0.value) })
        let confirm = Pages.render("desk-codes", review)
        #expect(confirm.contains(#"<form method="post" action="/desk/codes/confirm">"#) && confirm.contains(#"id="confirm""#))
        #expect(confirm.contains(#"<input type="hidden" name="action" value="revoke">"#) && !confirm.contains("ACD-EFH"))
    }
}
