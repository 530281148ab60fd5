import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import Foundation
import Testing

/// Clients given several daemons (an active one and its standbys): commands move on after a
/// timeout with the same ids, displays hear every listed publisher.
@Suite("clients with several daemons listed", .serialized, .timeLimit(.minutes(2)))
struct FailoverClientTests {
    @Test(
        "a command that times out on a daemon that is gone goes to the next listed with the same ids; a display hears the one that publishes"
    )
    func failover() throws {
        let daemon = try DaemonProcess()
        let (gone, goneEvents) = ("tcp://127.0.0.1:\(try freePort())", "tcp://127.0.0.1:\(try freePort())")
        let commands = "\(gone), \(daemon.commandEndpoint)"
        let client = CommandClient(endpoint: commands, clientID: "court-1", timeoutMilliseconds: 400, attempts: 2)
        #expect(client.endpoints == [gone, daemon.commandEndpoint] && client.endpoint == gone)
        let origin = client.nextOrigin()
        let move = Request.Operation.move(game: "g1", player: "ann", move: .twoPoints)
        let reply = try client.send(move, origin: origin)
        #expect(reply.ok && client.endpoint == daemon.commandEndpoint, "\(reply)")
        // The same command again is the same answer, from the daemon that answered: one move.
        #expect(try client.send(move, origin: origin).version == reply.version)

        let display = try DisplaySync(
            endpoints: Endpoints(command: commands, events: "\(goneEvents),\(daemon.eventEndpoint)"),
            client: CommandClient(endpoint: commands, clientID: "board", timeoutMilliseconds: 400))
        try client.command(.move(game: "g1", player: "bo", move: .twoPoints))
        #expect(try display.pump(seconds: 10) { display.games["g1"]?.game.score.home == 4 })
        #expect(try client.send(.snapshot(game: "g1")).snapshot?.first?.score.home == 4)

        // examples/display.py, given the same lists, fails over and converges too.
        let python = try PythonDisplay.start(command: commands, events: "\(goneEvents),\(daemon.eventEndpoint)")
        let last = try client.command(.move(game: "g2", player: "gus", move: .onePoint))
        let output = PythonDisplay.finish(python, at: last.sequence ?? 0)
        let seen = try #require(
            output.split(separator: "\n").last.flatMap {
                try? JSONDecoder().decode(PythonDisplay.State.self, from: Data($0.utf8))
            },
            "\(output)")
        #expect(seen.sequence >= last.sequence ?? 0 && seen.games["g1"]?.score?.home == 4 && seen.games["g2"]?.score?.home == 1)

        // None answers: unreachable, naming every one tried.
        let nobody = CommandClient(endpoint: "\(gone),\(goneEvents)", clientID: "x", timeoutMilliseconds: 200, attempts: 1)
        #expect(nobody.attempts == 2)
        do {
            _ = try nobody.send(.listGames)
            Issue.record("a reply from nowhere")
        } catch {
            #expect(error.code == .unreachable && error.message.contains("\(gone) or \(goneEvents)"), "\(error)")
        }
    }

    @Test(
        "a display of several event endpoints follows the highest epoch: a newer epoch makes it resync, an older one is ignored while its own is heard"
    )
    func highestEpoch() throws {
        let daemon = try DaemonProcess()
        // Another daemon's publisher, as the test makes it say.
        let other = "tcp://127.0.0.1:\(try freePort())"
        let publisher = try sharedClientContext.socket(.pub)
        defer { publisher.close() }
        try publisher.set(.linger(milliseconds: 0))
        try publisher.bind(other)
        let display = try DisplaySync(
            endpoints: Endpoints(command: daemon.commandEndpoint, events: "\(daemon.eventEndpoint),\(other)"),
            client: CommandClient(endpoint: daemon.commandEndpoint, clientID: "board", timeoutMilliseconds: 1000))
        let followed = display.epoch
        let number = try #require(Epoch.number(followed))
        func say(_ epoch: String, sequence: Int64) {
            let heartbeat = HeartbeatMessage(epoch: epoch, sequence: sequence, at: Timestamp(Date()))
            try? publisher.send([Topic.heartbeat, WireCoding.encode(heartbeat)])
        }
        // A newer epoch (a takeover): resync, until the subscription is surely connected.
        let resyncs = display.resyncs
        #expect(
            try display.pump(seconds: 10) {
                say("\(number + 1)-newer", sequence: display.sequence)
                return display.resyncs > resyncs
            })
        #expect(display.lastResync?.reason == .epochChanged && display.epoch == followed)
        // The newer ones still on their way are taken first.
        let drained = ContinuousClock.now + .milliseconds(300)
        while ContinuousClock.now < drained { try display.pump(timeoutMilliseconds: 50) }
        // An older epoch, far ahead in sequence: a daemon that stepped down. Ignored.
        let after = display.resyncs
        let until = ContinuousClock.now + .seconds(1)
        while ContinuousClock.now < until {
            say("\(number - 1)-older", sequence: display.sequence + 100)
            try display.pump(timeoutMilliseconds: 50)
        }
        #expect(display.resyncs == after && !display.isStale)
    }
}
