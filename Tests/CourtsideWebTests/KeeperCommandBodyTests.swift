import CourtsideModel
import CourtsideProtocol
import Testing

@testable import CourtsideWeb

/// A keeper's command body read under the device's client id, whatever the body says.
@Suite("A keeper's command body under the device's client id")
struct KeeperCommandBodyTests {
    static func read(_ body: String) throws -> Request {
        try KeeperCommandBody.request(Array(body.utf8), clientID: "court-1/ann-s-phone-3")
    }

    @Test("a move, a retraction and the clock, spaced or not, read under the device's id, as the daemon reads them")
    func commands() throws {
        let move = try Self.read(#"{"op":"move","command_id":"c1","game":"g1","player":"ann","move":"rebound"}"#)
        #expect(move.origin == CommandOrigin(clientID: "court-1/ann-s-phone-3", commandID: "c1"))
        #expect(move.operation == .move(game: "g1", player: "ann", move: .rebound))
        let spaced = try Self.read(" \n{ \"op\": \"retract\", \"command_id\": \"c2\", \"game\": \"g1\", \"version\": 4 } ")
        #expect(spaced.origin.clientID == "court-1/ann-s-phone-3")
        #expect(spaced.operation == .retract(game: "g1", version: 4))
        let clock = try Self.read(#"{"op":"clock","command_id":"c3","game":"g1","action":"start"}"#)
        #expect(clock.operation == .clock(game: "g1", command: .startClock))
    }

    @Test("a client id of the body's own is replaced, spelt plainly or with an escape")
    func ownClientID() throws {
        for body in [
            #"{"client_id":"court-2/someone","op":"move","command_id":"c1","game":"g1","player":"ann","move":"rebound"}"#,
            #"{"op":"move","command_id":"c1","game":"g1","player":"ann","move":"rebound","client\u005fid":"court-2/someone"}"#,
        ] {
            #expect(KeeperCommandBody.withClientID(Array(body.utf8), "court-1/ann-s-phone-3") == nil)
            #expect(try Self.read(body).origin.clientID == "court-1/ann-s-phone-3", "\(body)")
        }
    }

    @Test("what is no object with members is refused as bad_request")
    func refused() {
        for body in ["", "{}", " { } ", "[1]", "\"move\"", "{\"op\": ", "{\"op\":\"move\",}", "null"] {
            let error = #expect(throws: CourtsideError.self, "\(body)") { try Self.read(body) }
            #expect(error?.code == .badRequest, "\(body): \(String(describing: error))")
        }
    }
}
