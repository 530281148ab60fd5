import CourtsideModel
import Foundation
import Testing

@testable import CourtsideProtocol

/// The fast reader of flat requests must agree with JSONDecoder on everything it accepts.
@Suite("flat requests read without JSONDecoder")
struct FlatRequestReaderTests {
    static let origin = CommandOrigin(clientID: "court-1", commandID: "17")

    /// What JSONDecoder alone makes of a body: the request, or the error's code and message.
    static func slow(_ body: [UInt8]) -> String {
        do {
            let wire = try JSONDecoder().decode(WireRequest.self, from: Data(body))
            return describe(try wire.checked())
        } catch let error as ProtocolError {
            return "\(error.code.rawValue): \(error.message)"
        } catch {
            return "undecodable"
        }
    }

    static func fast(_ body: [UInt8]) -> String? {
        guard let wire = FlatRequestReader.read(body) else { return nil }
        do {
            return describe(try wire.checked())
        } catch {
            return "\(error.code.rawValue): \(error.message)"
        }
    }

    /// What `Request.decode` makes of a body, which reads a move without the wire request.
    static func decoded(_ body: [UInt8]) -> String {
        do {
            return describe(try Request.decode(body))
        } catch {
            return "\(error.code.rawValue): \(error.message)"
        }
    }

    static func describe(_ request: Request) -> String { "\(request.origin) \(request.operation)" }

    static let common: [Request.Operation] = [
        .move(game: "g1", player: "ann", move: .twoPoints), .move(game: "g-ü", player: "ß", move: .onePoint),
        .retract(game: "g1", version: 5), .retract(game: "g1", version: -3), .clock(game: "g1", command: .startClock),
        .clock(game: "g1", command: .pauseClock), .timeout(game: "g1", side: .away),
        .createGame(game: "g9", home: "lions", away: "tigers", court: "Court 1", rules: nil), .listGames,
        .snapshot(game: nil), .snapshot(game: "g2"), .schedule, .standings, .log(game: "g1"),
    ]

    @Test("every request a client sends without rules is read the fast way, to the same request", arguments: common)
    func commonRequests(_ operation: Request.Operation) throws {
        let body = Request(origin: Self.origin, operation: operation).encoded()
        let fast = try #require(Self.fast(body), "\(String(decoding: body, as: UTF8.self)) was left to JSONDecoder")
        #expect(fast == Self.slow(body))
        #expect(fast == Self.describe(try Request.decode(body)))
    }

    /// Foundation's bytes for what `body` says, as `encoded()` wrote them before JSONWriter did.
    static func foundationJSON(_ body: [UInt8]) throws -> [UInt8] {
        let wire = try JSONDecoder().decode(WireRequest.self, from: Data(body))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(wire))
    }

    @Test(
        "a client writes every request as Foundation's encoder did, rules and awkward strings included",
        arguments: common + [
            .createGame(game: "g/\\\"ü\u{2028}", home: "h\n", away: "a\u{1}", court: "Court \"1\"", rules: RulePresets.fiba3x3),
            .createGame(
                game: "g", home: "h", away: "a", court: nil,
                rules: RuleSet(targetScore: 11, winBy: 2, hardCap: 15, timeLimit: TimeLimit(milliseconds: 600_000))),
            .move(game: "", player: "p\u{7f}", move: .freeThrow), .retract(game: "g", version: .min),
        ])
    func clientEncoding(_ operation: Request.Operation) throws {
        for origin in [Self.origin, CommandOrigin(clientID: "k\"/\\é", commandID: "7 ü/\u{7f}")] {
            let request = Request(origin: origin, operation: operation)
            let body = request.encoded()
            #expect(try Self.foundationJSON(body) == body, "\(String(decoding: body, as: UTF8.self))")
            #expect(Self.describe(try Request.decode(body)) == Self.describe(request))
        }
    }

    @Test(
        "a control character in client_id or command_id, escaped as JSON allows, is a bad request",
        arguments: [#"k\u0000x"#, #"k\n"#, #"\u001f"#, #"a\tb"#])
    func controlCharactersInIDs(_ id: String) {
        for body in [
            #"{"op":"list_games","client_id":"\#(id)","command_id":"1"}"#,
            #"{"op":"list_games","client_id":"k","command_id":"\#(id)"}"#,
        ] {
            #expect(Self.slow(Array(body.utf8)).hasPrefix("bad_request: client_id and command_id must not contain"), "\(body)")
            #expect(throws: ProtocolError.self) { try Request.decode(Array(body.utf8)) }
        }
    }

    static let edges: [String] = [
        #" { "op" : "move", "client_id":"k", "command_id":"1", "game":"g1", "player":"ann", "move":"foul" } "#,
        #"{"op":"move","client_id":"k","command_id":"1","game":"g1","player":"ann","move":"dunk"}"#,
        #"{"op":"move","client_id":"k","command_id":"1","game":"g1","player":"ann"}"#,
        #"{"op":"move","client_id":"","command_id":"1","game":"g1","player":"ann","move":"foul"}"#,
        #"{"op":"move","client_id":"courtside","command_id":"1","game":"g1","player":"ann","move":"foul"}"#,
        #"{"op":"move","client_id":"courtside.bracket","command_id":"1","game":"g1","player":"ann","move":"foul"}"#,
        #"{"op":"move","client_id":"k","command_id":"","game":"g1","player":"ann","move":"foul"}"#,
        #"{"op":"move","client_id":"k","command_id":"1","game":"g1","player":"ann","move":"foul","court":"c"}"#,
        #"{"op":"move","client_id":"k","command_id":"1","game":"g1","player":"ann","move":"foul","version":3}"#,
        #"{"op":"move","client_id":"k","command_id":"1","game":"g1","move":"foul","side":"home"}"#,
        #"{"op":"fly","client_id":"k","command_id":"1"}"#,
        #"{"op":"retract","client_id":"k","command_id":"1","game":"g1","version":"5"}"#,
        #"{"op":"retract","client_id":"k","command_id":"1","game":"g1","version":5.0}"#,
        #"{"op":"retract","client_id":"k","command_id":"1","game":"g1","version":5e0}"#,
        #"{"op":"retract","client_id":"k","command_id":"1","game":"g1","version":05}"#,
        #"{"op":"retract","client_id":"k","command_id":"1","game":"g1","version":-0}"#,
        #"{"op":"retract","client_id":"k","command_id":"1","game":"g1","version":9223372036854775807}"#,
        #"{"op":"retract","client_id":"k","command_id":"1","game":"g1","version":-9223372036854775808}"#,
        #"{"op":"retract","client_id":"k","command_id":"1","game":"g1","version":9223372036854775808}"#,
        #"{"op":"retract","client_id":"k","command_id":"1","game":"g1","version":-}"#,
        #"{"op":"snapshot","client_id":"k","command_id":"1","game":null}"#,
        #"{"op":"snapshot","client_id":"k","command_id":"1","game":7}"#,
        #"{"op":"snapshot","client_id":"k","command_id":"1","extra":"x"}"#,
        #"{"op":"snapshot","client_id":"k","command_id":"1","op":"log"}"#,
        #"{"op":"snap\u0073hot","client_id":"k","command_id":"1"}"#,
        #"{"op":"snapshot","client_id":"k\"","command_id":"1"}"#,
        #"{"op":"snapshot","client_id":"k","command_id":"1"} x"#,
        #"{"op":"snapshot","client_id":"k","command_id":"1",}"#,
        #"{"op":"snapshot" "client_id":"k","command_id":"1"}"#,
        #"{"op":"timeout","client_id":"k","command_id":"1","game":"g1","side":"middle"}"#,
        #"{"op":"clock","client_id":"k","command_id":"1","game":"g1","action":"rewind"}"#,
        #"{}"#, #"[]"#, #""#, #"{"#, #"{"op""#, "{\"op\":\"list_games\",\"client_id\":\"k\t\",\"command_id\":\"1\"}",
        "\u{FEFF}{\"op\":\"list_games\",\"client_id\":\"k\",\"command_id\":\"1\"}",
    ]

    @Test("on edge cases, the fast reader gives up or agrees with JSONDecoder", arguments: edges)
    func edgeCases(_ text: String) {
        let body = Array(text.utf8)
        if let fast = Self.fast(body) {
            #expect(fast == Self.slow(body), "\(text)")
            #expect(Self.decoded(body) == fast, "\(text)")
        }
    }

    @Test(
        "invalid UTF-8 inside a string is left to JSONDecoder; valid UTF-8, a replacement character included, is read",
        arguments: [
            // A bad continuation, a lone continuation, a sequence cut short (one replacement
            // character for three bytes: as long as the input), an overlong form, a surrogate, beyond U+10FFFF.
            [0xC3, 0x28], [0x80], [0xF0, 0x9F, 0x98], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
            [0xEF, 0xBF, 0xBD], [0xF0, 0x9F, 0x98, 0x80], [0xC3, 0xA9],
        ] as [[UInt8]])
    func utf8(_ inside: [UInt8]) throws {
        let body = Array(#"{"op":"list_games","client_id":"k"#.utf8) + inside + Array(#"","command_id":"1"}"#.utf8)
        if let valid = String(validating: inside, as: UTF8.self) {
            let wire = try #require(FlatRequestReader.read(body))
            #expect(wire.clientID == "k" + valid)
        } else {
            #expect(FlatRequestReader.read(body) == nil)
        }
    }

    @Test("on every fuzz corpus and regression input, the fast reader gives up or agrees with JSONDecoder")
    func fuzzInputs() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz")
        var count = 0
        for folder in ["Corpus/request", "Regressions/request"] {
            let directory = root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where !name.hasPrefix("README") {
                let body = [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
                count += 1
                if let fast = Self.fast(body) { #expect(fast == Self.slow(body), "\(folder)/\(name)") }
            }
        }
        #expect(count > 30)
    }
}
