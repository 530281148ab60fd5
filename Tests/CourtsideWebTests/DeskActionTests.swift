import CourtsideModel
import CourtsideProtocol
import CourtsideViewModels
import Testing

@testable import CourtsideWeb

@Suite("the desk's decisions on a game: a forfeit, an early end, a correction")
struct DeskActionTests {
    @Test("a correction takes back a move by its version and always says why; its fields read back the same")
    func correction() throws {
        let fields = ["action": "retract", "game": "g1", "version": "5", "reason": " wrong player ", "command_id": "x1"]
        let action = try DeskAction.parse(fields).get()
        #expect(action.operation == .retract(game: "g1", version: 5, reason: "wrong player") && action.commandID == "x1")
        #expect(action.summary(home: "Lions", away: "Tigers") == "Take back the move at v5 of g1 (Lions v Tigers): wrong player")
        #expect(action.done == "Done: the move at v5 of g1 no longer counts.")
        let again = Dictionary(uniqueKeysWithValues: action.fields.map { ($0.name, $0.value) })
        #expect(try DeskAction.parse(again).get().operation == action.operation)
        for bad in [["version": "0"], ["version": "x"], ["reason": "  "], ["reason": ""]] {
            let refused = DeskAction.parse(fields.merging(bad) { _, new in new })
            #expect(throws: CourtsideError.self) { try refused.get() }
        }
    }

    @Test("the audit offers a correction for each move that still counts, not for a retracted one or another event")
    func correctable() {
        let origin = CommandOrigin(clientID: "court-1", commandID: "1")
        let setup = GameSetup(
            id: "g1", home: Team(id: "a", name: "A", players: [Player(id: "p", name: "P")]),
            away: Team(id: "b", name: "B", players: [Player(id: "q", name: "Q")]))
        let kinds: [GameEvent.Kind] = [
            .gameCreated(setup), .move(player: "p", move: .twoPoints), .move(player: "q", move: .onePoint),
            .retraction(targetVersion: 2, reason: "slip"),
        ]
        let events = kinds.enumerated().map { index, kind in
            GameEvent(gameID: "g1", version: index + 1, at: Timestamp(milliseconds: 0), origin: origin, kind: kind)
        }
        let trail = AuditTrail(events)
        #expect(trail.rows.map(\.correctable) == [false, false, true, false])
        #expect(trail.rows.last?.what == "retraction of v2: slip")
        let html = Pages.render("desk-audit", DeskGateway.AuditPage(games: [], origin: "", kind: "", rows: trail.rows))
        #expect(html.contains(#"<input type="hidden" name="version" value="3">"#))
        #expect(!html.contains(#"<input type="hidden" name="version" value="2">"#))
    }
}
