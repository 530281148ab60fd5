import ArgumentParser
import CourtsideModel
import CourtsideProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Encoding cost per message: Foundation's JSONEncoder (as WireCoding configured it before
/// JSONWriter) against WireCoding.encode's fast path and against JSONWriter called directly.
struct EncodeBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "ns per message to encode events and replies: Foundation's JSONEncoder vs JSONWriter (same bytes).")

    @Option(help: "Events to encode per round, spread over --event-games games.") var events = 20_000
    @Option(help: "Games the events are spread over.") var eventGames = 100
    @Option(help: "Games in the full snapshot reply.") var games = 10_000
    @Option(help: "Moves per game in the snapshot.") var moves = 5
    @Option(help: "Rounds; each figure is the best round's.") var rounds = 5
    @OptionGroup var smoke: SmokeOption

    mutating func validate() throws {
        if smoke.smoke { (events, eventGames, games, moves, rounds) = (100, 4, 10, 2, 1) }
    }

    /// Copies of each short reply to encode a round: 20,000, or the events' count under --smoke.
    private var replies: Int { smoke.smoke ? events : 20_000 }

    func run() throws {
        let epoch = "1795311641334-07a9265f"
        let messages = eventMessages(epoch: epoch)
        let snapshot = snapshotGames()
        var command = Reply(commandID: "17", epoch: epoch)
        (command.game, command.version, command.sequence) = ("g1", 5, 120)
        var full = Reply(commandID: "18", epoch: epoch)
        (full.snapshot, full.standings, full.bracket, full.sequence) = (snapshot, [], [], 50_000)
        var list = Reply(commandID: "19", epoch: epoch)
        (list.games, list.sequence) = (snapshot.map(GameSummary.init), 50_000)
        let refusal = Reply.failure(
            CourtsideError(.clockRunning, "the clock of game g1 is already running"), commandID: "20", epoch: epoch)

        print("Foundation: JSONEncoder [.sortedKeys, .withoutEscapingSlashes], as WireCoding used it")
        print("fast: WireCoding.encode (its JSONWritable path); writer: JSONWriter called directly")
        print("ns of thread CPU time per message, best of \(rounds) rounds; ratio = Foundation / fast")
        print("message                                  count    bytes/msg  foundation_ns     fast_ns   writer_ns   ratio")
        try report("event (EventMessage)", messages)
        try report("reply to a command", Array(repeating: command, count: replies))
        try report("reply, refused", Array(repeating: refusal, count: replies))
        try report("reply, list_games (\(games) games)", [list])
        try report("reply, snapshot (\(games) games x \(moves))", [full])
    }

    /// Prints one line: the figures per message of each encoder over `values`, after checking
    /// that the fast bytes are Foundation's.
    func report<T: Encodable & JSONWritable>(_ name: String, _ values: [T]) throws {
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var bytes = 0
        for value in values {
            let expected = Array(try foundation.encode(value))
            guard WireCoding.encode(value) == expected else {
                throw ValidationError("\(name): JSONWriter's bytes differ from Foundation's")
            }
            bytes += expected.count
        }
        let foundationNs = try best { for value in values { _ = try foundation.encode(value).count } }
        let fastNs = try best { for value in values { _ = WireCoding.encode(value).count } }
        let writerNs = try best {
            for value in values {
                var writer = JSONWriter()
                value.writeJSON(to: &writer)
                _ = writer.bytes.count
            }
        }
        let count = Double(values.count)
        print(
            name.padding(toLength: 40, withPad: " ", startingAt: 0)
                + String(
                    format: " %6d %12d %14.0f %11.0f %11.0f %6.1fx", values.count, bytes / values.count, foundationNs / count,
                    fastNs / count, writerNs / count, foundationNs / fastNs))
    }

    /// The fastest of the rounds, in nanoseconds of this thread's CPU time: on a machine shared
    /// with builds, wall time mostly measures the others.
    func best(_ body: () throws -> Void) throws -> Double {
        func cpuNanoseconds() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
        }
        var fastest = Double.infinity
        for _ in 0..<max(1, rounds) {
            let start = cpuNanoseconds()
            try body()
            fastest = min(fastest, cpuNanoseconds() - start)
        }
        return fastest
    }

    /// Six players a side, as a venue's games have.
    func setup(_ index: Int) -> GameSetup {
        func team(_ side: String, _ players: Range<Int>) -> Team {
            Team(
                id: TeamID("team-\(index)-\(side)"), name: "Team \(index) \(side)",
                players: players.map { Player(id: PlayerID("p\(index)-\($0)"), name: "Player \($0) of \(index)") })
        }
        return GameSetup(
            id: GameID("g\(index)"), home: team("home", 0..<3), away: team("away", 3..<6), court: "Court \(index % 8 + 1)")
    }

    /// The events a simulated venue publishes: games created, clocks started, then moves spread
    /// over the games (rebounds and assists mostly, so that few games end).
    func eventMessages(epoch: String) -> [EventMessage] {
        var games = (0..<eventGames).map { Game(setup: setup($0)) }
        var messages: [EventMessage] = []
        messages.reserveCapacity(events)
        var sequence: Int64 = 0
        var now = Timestamp(milliseconds: 1_795_311_641_000)
        func commit(_ index: Int, _ kind: GameEvent.Kind) {
            sequence += 1
            now = now.adding(milliseconds: 7)
            let event = GameEvent(
                gameID: games[index].id, version: games[index].version + 1, sequence: sequence, at: now,
                origin: CommandOrigin(clientID: "court-\(index % 16)", commandID: "\(sequence)"), kind: kind)
            games[index].apply(event)
            messages.append(EventMessage(epoch: epoch, event: event, game: games[index]))
        }
        for index in games.indices { commit(index, .clockStarted) }
        let kinds: [MoveKind] = [.rebound, .assist, .rebound, .foul, .onePoint, .assist, .rebound, .twoPoints]
        var move = 0
        while messages.count < events {
            let index = move % games.count
            let player = games[index].setup.team(move % 2 == 0 ? .home : .away).players[move % 3].id
            if games[index].isFinished { games[index] = Game(setup: games[index].setup) }
            commit(index, .move(player: player, move: kinds[move % kinds.count]))
            move += 1
        }
        return messages
    }

    /// The venue after `moves` moves in each of `games` games.
    func snapshotGames() -> [Game] {
        let kinds: [MoveKind] = [.twoPoints, .rebound, .assist, .onePoint, .foul]
        return (0..<games).map { index in
            var game = Game(setup: setup(index))
            var version = 1
            let start = Timestamp(milliseconds: 1_795_311_641_000 + Int64(index))
            func apply(_ kind: GameEvent.Kind, _ at: Timestamp) {
                version += 1
                game.apply(
                    GameEvent(
                        gameID: game.id, version: version, sequence: Int64(index * 10 + version), at: at,
                        origin: CommandOrigin(clientID: "court-\(index % 16)", commandID: "\(version)"), kind: kind))
            }
            apply(.clockStarted, start)
            for move in 0..<moves {
                let player = game.setup.team(move % 2 == 0 ? .home : .away).players[move % 3].id
                apply(.move(player: player, move: kinds[move % kinds.count]), start.adding(milliseconds: Int64(move) * 20_000))
            }
            return game
        }
    }
}
