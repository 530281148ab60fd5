import Foundation
import Testing

@Suite("the knockout drawn on the pages, over the real daemon", .serialized)
struct BracketPictureWebTests {
    /// The sample tournament (config/tournament.yaml) without the keys the test's daemon writes
    /// itself (its data, endpoints and transport).
    static func sample() throws -> String {
        let text = try String(
            contentsOf: PlannedEventTests.repository.appendingPathComponent("config/tournament.yaml"), encoding: .utf8)
        var skipping = false
        var kept: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let first = line.first, first != " ", first != "#" {
                skipping = ["data_dir", "endpoints", "transport"].contains(line.prefix { $0 != ":" })
            }
            if !skipping { kept.append(line) }
        }
        return kept.joined(separator: "\n")
    }

    /// Each box of the page's pictures: its game and its SVG, in the page's order.
    static func boxes(_ page: String) -> [(game: String, svg: String)] {
        page.components(separatedBy: "<g class=\"box ").dropFirst().map { chunk in
            let svg = chunk.components(separatedBy: "</g>")[0]
            let game = svg.components(separatedBy: "data-game=\"").dropFirst().first?.prefix { $0 != "\"" } ?? ""
            return (String(game), svg)
        }
    }

    static func box(_ game: String, in page: String) -> String { boxes(page).first { $0.game == game }?.svg ?? "" }

    @Test(
        "/results and the big screen draw one box per knockout game of the sample; once group A's one game is final, the final's box names its winner"
    )
    func sampleTournament() async throws {
        let daemon = try DaemonProcess(tournament: try Self.sample())
        let web = try WebProcess(daemon)
        #expect(await web.waitInSync(), "\(web.log())")
        let before = String(decoding: try await web.get("/results").1, as: UTF8.self)
        #expect(before.contains("<svg"), "\(before)")
        // The sample's knockout: the final (the groups' winners) and, drawn apart, the game for third.
        #expect(Self.boxes(before).map(\.game) == ["final", "third"], "\(before)")
        #expect(before.contains("role=\"img\" aria-label=\"Knockout: 2 teams, final at 10:30\""), "\(before)")
        #expect(before.contains("<title>Knockout: 2 teams, final at 10:30</title>"))
        let final = Self.box("final", in: before)
        #expect(final.contains(">A1</text>") && final.contains(">B1</text>"), "\(final)")
        #expect(Self.box("third", in: before).contains(">Loser of g1</text>"))
        // The schedule's table names the open sides in the picture's words.
        let row = try #require(before.range(of: #"<tr data-game="final">"#)).upperBound
        let finalRow = before[row...].prefix { $0 != "\n" }
        #expect(finalRow.contains(">A1<") && finalRow.contains(">B1<"), "\(finalRow)")

        let keeper = try Keeper(daemon.commandEndpoint)
        for _ in 0..<8 { try keeper.send(.move(game: "g1", player: "ann", move: .twoPoints)) }
        let after = try await poll(seconds: 10) {
            String(decoding: try await web.get("/results").1, as: UTF8.self)
        } until: {
            Self.box("final", in: $0).contains(">Lions</text>")
        }
        let decided = Self.box("final", in: after)
        #expect(decided.contains("class=\"line team\" x=\"24\" y=\"") && decided.contains(">Lions</text>"), "\(decided)")
        #expect(decided.contains(">B1</text>"), "\(decided)")
        #expect(Self.box("third", in: after).contains(">Tigers</text>"), "\(after)")
        // The big screen draws the same picture.
        let big = String(decoding: try await web.get("/").1, as: UTF8.self)
        #expect(big.contains("<section id=\"live\" class=\"brackets\">"))
        #expect(Self.box("final", in: big).contains(">Lions</text>"), "\(big)")
    }
}
