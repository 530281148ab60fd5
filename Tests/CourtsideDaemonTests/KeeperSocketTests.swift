import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import CourtsideWebStore
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The keeper's socket as a browser opens it (its page's `Origin`), over a plain connection:
/// the upgrade's answer, then masked text frames out and the gateway's frames in.
/// (hummingbird-websocket's client sends an `Origin` without the port, which the gateway's
/// cross-site check rightly refuses.)
final class RawSocket {
    let connection: LoopbackConnection
    /// The status of the upgrade's answer: 101 when upgraded.
    private(set) var status = 0
    /// How much of the connection's buffered bytes is taken.
    private var taken = 0

    init(_ web: WebProcess, path: String = "/api/keep/socket", cookie: String?, origin: String? = nil) throws {
        connection = try LoopbackConnection(port: web.port)
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
        head += "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: \(origin ?? web.base)\r\n"
        if let cookie { head += "Cookie: \(cookie)\r\n" }
        try connection.send(head + "\r\n")
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            if let (response, used) = LoopbackResponse.parse(connection.buffered[...], ended: connection.ended, noBody: true) {
                (status, taken) = (response.status, used)
                return
            }
            guard !connection.ended, try wait(until: deadline) else { return }
        }
    }

    deinit { connection.release() }

    private func wait(until deadline: ContinuousClock.Instant) throws -> Bool {
        var descriptor = pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)
        let left = deadline - ContinuousClock.now
        guard left > .zero else { throw LoopbackError(kind: .timeout, description: "no frame in time") }
        _ = poll(&descriptor, 1, Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
        return connection.drain() || true
    }

    /// Sends one frame (text unless `opcode` says otherwise), masked as a client's must be.
    func send(_ payload: String, opcode: UInt8 = 1) throws {
        let bytes = Array(payload.utf8)
        var frame: [UInt8] = [0x80 | opcode]
        if bytes.count < 126 {
            frame.append(0x80 | UInt8(bytes.count))
        } else {
            frame += [0x80 | 126, UInt8(bytes.count >> 8), UInt8(bytes.count & 0xff)]
        }
        // A zero mask leaves the payload as it is.
        frame += [0, 0, 0, 0] + bytes
        try connection.send(frame)
    }

    /// The next frame from the gateway: its opcode and payload; nil when the connection ended.
    func frame(seconds: Double = 10) throws -> (opcode: UInt8, payload: [UInt8])? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            let bytes = connection.buffered[taken...]
            if bytes.count >= 2 {
                let start = bytes.startIndex
                var length = Int(bytes[start + 1] & 0x7f)
                var offset = 2
                if length == 126, bytes.count >= 4 {
                    (length, offset) = (Int(bytes[start + 2]) << 8 | Int(bytes[start + 3]), 4)
                }
                if length < 126 || offset == 4, bytes.count >= offset + length {
                    taken += offset + length
                    return (bytes[start] & 0x0f, Array(bytes[(start + offset)..<(start + offset + length)]))
                }
            }
            if connection.ended { return nil }
            _ = try wait(until: deadline)
        }
    }

    /// The next text message as JSON, skipping pings; nil when the socket closed.
    func answer() throws -> [String: Any]? {
        while let (opcode, payload) = try frame() {
            if opcode == 1 { return (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any] ?? [:] }
            if opcode == 8 { return nil }
        }
        return nil
    }

    /// The close code of the gateway's close frame, reading past anything before it.
    func closeCode() throws -> Int? {
        while let (opcode, payload) = try frame() {
            if opcode == 8 { return payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil }
        }
        return nil
    }
}

extension [String: Any] {
    /// A socket answer's reply.
    var reply: [String: Any] { self["reply"] as? [String: Any] ?? [:] }
}

@Suite("courtside-web's keeper socket", .serialized, .timeLimit(.minutes(3)))
struct KeeperSocketTests {
    /// A move's message, with its command id.
    static func move(_ game: String, _ player: String, id: String = UUID().uuidString) -> String {
        #"{"command_id":"\#(id)","op":"move","game":"\#(game)","player":"\#(player)","move":"two_points"}"#
    }

    @Test(
        "a joined device's commands on the socket: applied and answered with their versions, a retry once, several in flight; refused upgrades; oversize and binary messages close it; a device that left is halted"
    )
    func socket() async throws {
        let daemon = try DaemonProcess()
        let pin = try await GatewayStore(directory: WebProcess.stateDirectory(daemon)).code(for: "Court 1").pin
        let web = try WebProcess(daemon)
        #expect(await web.waitInSync(), "\(web.log())")
        let phone = Phone(web.base)

        // No session, a forged one, another site, another path: not upgraded (400, closed).
        #expect(try RawSocket(web, cookie: nil).status == 400)
        #expect(try RawSocket(web, cookie: "courtside_keeper=forged").status == 400)
        _ = try #require(try await phone.join(pin: pin))
        let cookie = try #require(phone.cookie)
        #expect(try RawSocket(web, cookie: cookie, origin: "http://elsewhere.example").status == 400)
        #expect(try RawSocket(web, path: "/keep", cookie: cookie).status == 400)

        // A move and its retry (same id), then two more in flight at once, on one socket.
        let socket = try RawSocket(web, cookie: cookie)
        #expect(socket.status == 101)
        let id = UUID().uuidString
        try socket.send(Self.move("g1", "ann", id: id))
        let answer = try #require(try socket.answer())
        #expect(answer["status"] as? Int == 200 && answer["command_id"] as? String == id, "\(answer)")
        let version = try #require(answer.reply["version"] as? Int, "\(answer)")
        let (second, third) = (UUID().uuidString, UUID().uuidString)
        for each in [id, second, third] { try socket.send(Self.move("g1", "ann", id: each)) }
        var byID: [String: [String: Any]] = [:]
        for _ in 0..<3 {
            let next = try #require(try socket.answer())
            byID[next["command_id"] as? String ?? "-"] = next
        }
        #expect(byID[id]?.reply["version"] as? Int == version, "\(byID)")
        #expect(Set(byID.keys) == [id, second, third] && byID.values.allSatisfy { $0["status"] as? Int == 200 }, "\(byID)")
        let keeper = try Keeper(daemon.commandEndpoint)
        #expect(try keeper.send(.snapshot(game: "g1")).snapshot?.first?.score.home == 6)

        // Refusals as the POST gives them, with their statuses; the socket goes on after each.
        for message in [#"{"op": "#, Self.move("g2", "gus", id: "elsewhere"), Self.move("g1", "nobody", id: "nobody")] {
            try socket.send(message)
        }
        var refusals: [String: (Int, String)] = [:]
        for _ in 0..<3 {
            let next = try #require(try socket.answer())
            refusals[next["command_id"] as? String ?? "-"] = (next["status"] as? Int ?? 0, next.reply.code ?? "")
        }
        #expect(refusals["-"]! == (400, "bad_request") && refusals["elsewhere"]! == (403, "forbidden"), "\(refusals)")
        #expect(refusals["nobody"]! == (200, "unknown_player"), "\(refusals)")

        // A device that leaves with its socket open: its next command there is halted (401).
        #expect(try await phone.post("/keep/leave", [:]).status == 200)
        try socket.send(Self.move("g1", "ann", id: "after-leave"))
        let halted = try #require(try socket.answer())
        #expect(halted["status"] as? Int == 401 && halted.reply.code == "not_joined", "\(halted)")
        #expect(try keeper.send(.snapshot(game: "g1")).snapshot?.first?.score.home == 6)

        // Over 16 KiB, or binary: closed with 1009 or 1003; the gateway and a new socket go on.
        _ = try #require(try await phone.join(pin: pin))
        let rejoined = try #require(phone.cookie)
        let huge = try RawSocket(web, cookie: rejoined)
        try huge.send(String(repeating: "x", count: 20_000))
        #expect(try huge.closeCode() == 1009)
        let binary = try RawSocket(web, cookie: rejoined)
        try binary.send("{}", opcode: 2)
        #expect(try binary.closeCode() == 1003)
        let again = try RawSocket(web, cookie: rejoined)
        try again.send(Self.move("g1", "ann"))
        #expect(try again.answer()?["status"] as? Int == 200)
        #expect(try keeper.send(.snapshot(game: "g1")).snapshot?.first?.score.home == 8)
    }
}
