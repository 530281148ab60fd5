import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import Foundation
import Testing
import ZeroMQ

@Suite("reads off the command path, heartbeats of a constant size", .serialized)
struct ReadPathTests {
    @Test("snapshots and lists show each game's newest version: cached JSON is replaced when a game changes")
    func cacheFollowsChanges() throws {
        let daemon = try DaemonProcess()
        let keeper = try Keeper(daemon.commandEndpoint)
        var lastSequence: Int64 = 0
        for round in 0..<3 {
            let one = try keeper.send(.snapshot(game: "g1"))
            let all = try keeper.send(.snapshot(game: nil))
            let list = try keeper.send(.listGames)
            #expect(one.snapshot?.first?.score.home == 2 * round)
            #expect(all.snapshot?.first { $0.id == "g1" }?.score.home == 2 * round)
            #expect(all.snapshot?.map(\.id) == ["g1", "g2"])
            #expect(list.games?.first { $0.game == "g1" }?.state.score.home == 2 * round)
            #expect(list.games?.first { $0.game == "g1" }?.state.version == one.snapshot?.first?.version)
            #expect((one.sequence ?? 0) >= lastSequence)
            lastSequence = one.sequence ?? 0
            #expect(try keeper.send(.move(game: "g1", player: "ann", move: .twoPoints)).ok)
        }
        #expect(try keeper.send(.snapshot(game: "nope")).error?.code == .unknownGame)
    }

    @Test("a move sent behind hundreds of tournament snapshots is answered before they all are")
    func readsDoNotHoldUpCommands() throws {
        let daemon = try DaemonProcess()
        let keeper = try Keeper(daemon.commandEndpoint)
        // A hundred more games make each snapshot worth waiting for.
        let creations = (1...100).map {
            Request.Operation.createGame(
                game: GameID("x\($0)"), home: "lions", away: "tigers", court: nil, rules: nil)
        }
        #expect(try keeper.pipeline(creations).allSatisfy(\.ok))
        let reads = Array(repeating: Request.Operation.snapshot(game: nil), count: 400)
        let replies = try keeper.pipeline(reads + [.move(game: "g1", player: "ann", move: .twoPoints)])
        let moveID = "\(creations.count + reads.count + 1)"
        let moveAt = try #require(replies.firstIndex { $0.commandID == moveID })
        #expect(replies[moveAt].ok && replies[moveAt].game == "g1")
        // Before, reads were answered in line with commands, so the move's answer came last.
        let answeredAfter = replies[(moveAt + 1)...].filter { $0.ok && $0.snapshot?.count == 102 }.count
        #expect(answeredAfter > 0, "the move was answered after all \(reads.count) snapshots")
        // Every read got its one answer: the tournament, or `overloaded` when its queue was full.
        #expect(replies.allSatisfy { $0.ok || $0.error?.code == .overloaded })
    }

    @Test("a display asking for every game again and again is paced; a court's snapshot of its game never waits")
    func tournamentReadsArePaced() throws {
        // 20 KB a second, and a quarter of a second's worth at once.
        let daemon = try DaemonProcess(transportConfig: ["tournament_reads_mb_per_s: 0.02"])
        let keeper = try Keeper(daemon.commandEndpoint)
        // The first whole-tournament read of a client goes at once, whatever the pace.
        let first = try keeper.send(.snapshot(game: nil))
        let size = WireCoding.encode(first).count
        let count = 30_000 / size + 2
        let replies = try keeper.pipeline(Array(repeating: .snapshot(game: nil), count: count) + [.snapshot(game: "g1")])
        #expect(replies.allSatisfy { $0.ok })
        let court = try #require(replies.firstIndex { $0.snapshot?.count == 1 })
        // The court's read was sent last; the tournament reads sent before it, past a quarter of
        // a second's worth, waited for the pace and were answered after it.
        #expect(count - court >= count / 2, "\(count - court) of \(count) tournament snapshots came after the court's")
    }

    @Test("with hundreds of games a heartbeat stays under 1 KB, and every game's beat comes round")
    func heartbeatsOfConstantSize() throws {
        let daemon = try DaemonProcess()
        let keeper = try Keeper(daemon.commandEndpoint)
        let creations = (1...300).map {
            Request.Operation.createGame(
                game: GameID("x\($0)"), home: "lions", away: "tigers", court: nil, rules: nil)
        }
        #expect(try keeper.pipeline(creations).allSatisfy(\.ok))
        #expect(try keeper.send(.move(game: "g2", player: "gus", move: .twoPoints)).ok)
        let versions = Dictionary(
            uniqueKeysWithValues: try #require(try keeper.send(.listGames).games).map { ($0.game, $0.state.version) })
        #expect(versions.count == 302)

        let subscriber = try testContext.socket(.sub)
        defer { subscriber.close() }
        try subscriber.set(.linger(milliseconds: 0))
        try subscriber.set(.receiveTimeout(milliseconds: 1000))
        try subscriber.set(.subscribe([]))
        try subscriber.connect(daemon.eventEndpoint)
        var largestHeartbeat = 0
        var beaten: [GameID: Int] = [:]
        // A round of beats takes 20 heartbeats of 200 ms; allow three.
        // Each step waits for a message, then reads whatever else has arrived.
        _ = try keepTrying(seconds: 12, until: { beaten.count >= versions.count }) { () throws in
            var next = try? subscriber.receive()
            while let frames = next {
                next = try? subscriber.receive(flags: .dontWait)
                guard frames.count == 2 else { continue }
                if frames[0] == Topic.heartbeat {
                    largestHeartbeat = max(largestHeartbeat, frames[1].count)
                    #expect(try WireCoding.decode(HeartbeatMessage.self, from: frames[1]).protocol == ProtocolVersion.current)
                } else if let beat = try? WireCoding.decode(GameBeatMessage.self, from: frames[1]), beat.type == "beat" {
                    #expect(frames[0] == Topic.beat(of: beat.game))
                    beaten[beat.game] = beat.version
                }
            }
        }
        #expect(largestHeartbeat > 0 && largestHeartbeat < 1024, "heartbeat of \(largestHeartbeat) bytes")
        #expect(beaten == versions, "\(versions.count - beaten.count) games got no beat")
    }

    @Test("a display of one game that missed its last event resyncs at the game's beat, and only then")
    func beatRevealsMissedEvent() throws {
        let daemon = try DaemonProcess()
        let feed = try DisplayOrderTests.Feed()
        let display = try DisplaySync(
            endpoints: Endpoints(command: daemon.commandEndpoint, events: feed.endpoint), game: "g1",
            client: CommandClient(endpoint: daemon.commandEndpoint, clientID: "court-tv"))
        #expect(try feed.flush(display))
        // The same version, or another game's beat, is no news.
        try feed.send(Topic.beat(of: "g1"), GameBeatMessage(epoch: display.epoch, game: "g1", version: 1))
        try feed.send(Topic.beat(of: "g2"), GameBeatMessage(epoch: display.epoch, game: "g2", version: 9))
        #expect(try feed.flush(display))
        #expect(display.resyncs == 0)

        // A move the display never hears of (the feed is the test's): only the game's beat tells.
        let keeper = CommandClient(endpoint: daemon.commandEndpoint, clientID: "court-1")
        let version = try #require(try keeper.command(.move(game: "g1", player: "ann", move: .twoPoints)).version)
        try feed.send(Topic.beat(of: "g1"), GameBeatMessage(epoch: display.epoch, game: "g1", version: version))
        #expect(try display.pump { display.games["g1"]?.game.version == version })
        #expect(display.lastResync?.reason == .beatAhead)
        #expect(display.games["g1"]?.live.score.home == 2)
    }
}
