import Testing

@testable import CourtsideWeb

@Suite("what a joining device sends, and where it comes from")
struct JoinFormTests {
    @Test("a join reads from JSON or a form; anything malformed is refused, never a crash")
    func forms() {
        let json = Array(#"{"pin": "k7m-4px", "name": "  Ann's phone  "}"#.utf8)
        #expect(JoinForm(body: json, form: false) == JoinForm(pin: "k7m-4px", name: "Ann's phone"))
        #expect(
            JoinForm(body: Array("pin=K7M+4PX&name=Ann%27s+phone&pin=other".utf8), form: true)
                == JoinForm(pin: "K7M 4PX", name: "Ann's phone"))
        #expect(JoinForm(body: Array("pin=K7M4PX&name=".utf8), form: true)?.name == nil)
        for body in ["pin=%zz", "pin=%E0%A4%A", "name=x", "", "pin=", "&&&", "pin=\(String(repeating: "x", count: 65))"] {
            #expect(JoinForm(body: Array(body.utf8), form: true) == nil, "\(body)")
        }
        for body in ["", "[]", "{\"pin\": 7}", "{\"pin\": \"\"}", "nul\u{0}l", "{"] {
            #expect(JoinForm(body: Array(body.utf8), form: false) == nil, "\(body)")
        }
        #expect(JoinForm(body: [0xff, 0xfe], form: true) == nil)
    }

    @Test("the page's own origin passes, however the host is written; another site's does not")
    func crossSite() {
        let check = CrossSiteCheck.isCrossSite
        #expect(!check("http://192.168.1.20:8080", nil, "192.168.1.20:8080"))
        #expect(!check("http://Score.Example.org", nil, "score.example.org"))
        #expect(!check("https://score.example.org", nil, "score.example.org:443"))
        #expect(!check("http://[::1]:8080", nil, "[::1]:8080"))
        #expect(!check(nil, nil, "anything"), "no Origin: not a browser's cross-site request")
        #expect(!check(nil, "same-origin", "anything"))
        #expect(check("http://evil.example", nil, "192.168.1.20:8080"))
        #expect(check("http://192.168.1.20:8081", nil, "192.168.1.20:8080"))
        #expect(check("null", nil, "192.168.1.20:8080"))
        #expect(check(nil, "cross-site", "192.168.1.20:8080"))
    }
}
