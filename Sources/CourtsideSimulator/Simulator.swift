public import CourtsideClient
public import CourtsideModel
import CourtsideProtocol
import Foundation
import Synchronization

/// What `courtside simulate` does.
public struct SimulationOptions: Sendable {
    public var endpoints: Endpoints
    /// Games played at once; a finished game is replaced by a new one.
    public var games: Int
    /// Concurrent scorekeepers, each with its own connection; games are shared out among them.
    public var keepers: Int
    /// Moves per second, all keepers together; 0 sends as fast as replies come.
    public var rate: Double
    public var duration: Duration
    /// Play the tournament's own scheduled games (as the bracket makes them ready) instead of
    /// creating games; ends when every scheduled game is final or the time is up.
    public var playSchedule = false

    public init(endpoints: Endpoints, games: Int, keepers: Int, rate: Double, duration: Duration) {
        self.endpoints = endpoints
        self.games = games
        self.keepers = keepers
        self.rate = rate
        self.duration = duration
    }
}

/// What a simulation measured.
public struct SimulationSummary: Sendable {
    public var options: SimulationOptions
    public var sent = 0
    public var acknowledged = 0
    public var refused = 0
    public var unanswered = 0
    public var gamesCreated = 0
    public var gamesFinished = 0
    /// Round trips of acknowledged and refused moves, in milliseconds, sorted.
    public var latencies: [Double] = []
    public var eventsSeen = 0
    public var eventSeconds = 0.0
    public var gaps = 0
    public var refusals: [String: Int] = [:]

    public var report: String {
        func percentile(_ fraction: Double) -> Double {
            latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * fraction))]
        }
        let seconds = Double(options.duration.components.seconds)
        let pace = options.rate > 0 ? "\(Int(options.rate)) moves/s" : "full speed"
        var lines = [
            options.playSchedule
                ? "played the tournament's schedule, one keeper per ready game, for up to \(Int(seconds)) s at \(pace)"
                : "simulated \(options.games) games with \(options.keepers) keepers for \(Int(seconds)) s at \(pace)",
            "moves: sent \(sent), acknowledged \(acknowledged), refused \(refused), unanswered \(unanswered)",
            String(format: "latency ms: p50 %.2f  p99 %.2f  max %.2f", percentile(0.5), percentile(0.99), latencies.last ?? 0),
            String(
                format: "subscriber: %d events in %.1f s = %.0f events/s; gaps detected (resyncs): %d", eventsSeen, eventSeconds,
                eventSeconds > 0 ? Double(eventsSeen) / eventSeconds : 0, gaps),
            "games: created \(gamesCreated), finished \(gamesFinished)",
        ]
        if !refusals.isEmpty {
            lines.append(
                "refusals: " + refusals.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }
}

/// Plays a tournament through the protocol: keepers on threads of their own make random legal
/// moves (they track each game with the model's own rules, so they never score a finished
/// game), while a display counts the events it receives and the gaps it detects.
public struct Simulator: Sendable {
    public let options: SimulationOptions

    public init(options: SimulationOptions) { self.options = options }

    public func run() throws(CourtsideError) -> SimulationSummary {
        let run = String(UUID().uuidString.prefix(4).lowercased())
        let stop = Atomic<Bool>(false)
        let options = self.options
        let display = BlockingThread { () throws(CourtsideError) -> (Int, Double, Int) in
            let sync = try DisplaySync(
                endpoints: options.endpoints,
                client: CommandClient(endpoints: options.endpoints, clientID: "simulator-\(run)-display"))
            let start = ContinuousClock.now
            while !stop.load(ordering: .relaxed) { try sync.pump(timeoutMilliseconds: 50) }
            try sync.pump(timeoutMilliseconds: 300)
            let elapsed = ContinuousClock.now - start
            return (
                sync.eventsApplied, elapsed.inSeconds,
                sync.resyncs
            )
        }
        Thread.sleep(forTimeInterval: 0.3)  // the display's subscription reaches the daemon first
        let played = Result { () throws(CourtsideError) in
            try options.playSchedule ? playSchedule(run: run) : playCreatedGames(run: run)
        }
        stop.store(true, ordering: .relaxed)
        var summary = try played.get()
        if case .success(let (events, seconds, gaps)) = display.wait() {
            (summary.eventsSeen, summary.eventSeconds, summary.gaps) = (events, seconds, gaps)
        }
        summary.latencies.sort()
        return summary
    }

    /// Creates games between the tournament's teams and has the keepers play them.
    func playCreatedGames(run: String) throws(CourtsideError) -> SimulationSummary {
        let setup = CommandClient(endpoints: options.endpoints, clientID: "simulator-\(run)")
        let (_, existing) = try setup.snapshot()
        var teams: [TeamID: Team] = [:]
        for game in existing { for team in [game.setup.home, game.setup.away] { teams[team.id] = team } }
        let roster = teams.values.sorted { $0.id < $1.id }
        guard roster.count >= 2 else {
            throw CourtsideError(.unknownTeam, "the tournament needs at least two teams in its games to simulate")
        }
        let pairs = SimulationPairs(teams: roster, run: run)
        var summary = SimulationSummary(options: options)
        let keepers = max(1, options.keepers)
        let deadline = ContinuousClock.now + options.duration
        let options = self.options
        let workers = (0..<keepers).map { keeper in
            let games = stride(from: keeper, to: max(options.games, keepers), by: keepers).filter { $0 < options.games }
            return BlockingThread { () throws(CourtsideError) -> KeeperResult in
                var worker = KeeperWorker(
                    client: CommandClient(endpoints: options.endpoints, clientID: "simulator-\(run)-keeper-\(keeper)"),
                    pairs: pairs, slots: games,
                    interval: options.rate > 0 ? Double(keepers) / options.rate : 0)
                return try worker.play(until: deadline)
            }
        }
        var failure: CourtsideError?
        for worker in workers {
            switch worker.wait() {
            case .success(let result): summary.merge(result)
            case .failure(let error): failure = failure ?? error
            }
        }
        if let failure, summary.acknowledged == 0 { throw failure }
        return summary
    }
}

extension Simulator {
    /// Plays every scheduled game that is ready, one keeper per game, until the bracket is final.
    func playSchedule(run: String) throws(CourtsideError) -> SimulationSummary {
        let client = CommandClient(endpoints: options.endpoints, clientID: "simulator-\(run)")
        var summary = SimulationSummary(options: options)
        let deadline = ContinuousClock.now + options.duration
        let options = self.options
        while ContinuousClock.now < deadline {
            let (reply, games) = try client.snapshot()
            let bracket = reply.bracket ?? []
            if bracket.isEmpty { throw CourtsideError(.unknownGame, "the tournament has no schedule to play") }
            if bracket.allSatisfy({ $0.state == .final }) { break }
            let byID = Dictionary(uniqueKeysWithValues: games.map { ($0.id, $0) })
            let playable = bracket.filter { $0.state == .ready || $0.state == .live }.compactMap { byID[$0.game] }
            if playable.isEmpty {
                Thread.sleep(forTimeInterval: 0.05)  // the bracket is filling the next round
                continue
            }
            let interval = options.rate > 0 ? Double(playable.count) / options.rate : 0
            let workers = playable.enumerated().map { index, game in
                BlockingThread { () throws(CourtsideError) -> KeeperResult in
                    var worker = KeeperWorker(
                        client: CommandClient(endpoints: options.endpoints, clientID: "simulator-\(run)-\(game.id)"),
                        pairs: SimulationPairs(teams: [], run: run), slots: [index], interval: interval)
                    return try worker.finish(game, until: deadline)
                }
            }
            for worker in workers {
                switch worker.wait() {
                case .success(let result): summary.merge(result)
                case .failure(let error): throw error
                }
            }
        }
        return summary
    }
}

/// Which teams play the n-th game of a slot: pairs cycle through the tournament's teams.
struct SimulationPairs: Sendable {
    let teams: [Team]
    let run: String

    func setup(slot: Int, round: Int, rules: RuleSet = .standard) -> (GameID, Team, Team) {
        let index = slot + round * 7
        let home = teams[index % teams.count]
        var away = teams[(index / teams.count + index + 1) % teams.count]
        if away.id == home.id { away = teams[(index + 1) % teams.count] }
        return (GameID("sim-\(run)-\(slot)-\(round)"), home, away)
    }
}

struct KeeperResult: Sendable {
    var sent = 0
    var acknowledged = 0
    var refused = 0
    var unanswered = 0
    var created = 0
    var finished = 0
    var latencies: [Double] = []
    var refusals: [String: Int] = [:]
}

extension SimulationSummary {
    mutating func merge(_ result: KeeperResult) {
        sent += result.sent
        acknowledged += result.acknowledged
        refused += result.refused
        unanswered += result.unanswered
        gamesCreated += result.created
        gamesFinished += result.finished
        latencies += result.latencies
        refusals.merge(result.refusals, uniquingKeysWith: +)
    }
}

/// One scorekeeper: keeps its games going, one move at a time.
struct KeeperWorker {
    let client: CommandClient
    let pairs: SimulationPairs
    let slots: [Int]
    /// Seconds between this keeper's moves.
    let interval: Double
    private var games: [Int: Game] = [:]
    private var rounds: [Int: Int] = [:]
    private var result = KeeperResult()

    init(client: CommandClient, pairs: SimulationPairs, slots: [Int], interval: Double) {
        self.client = client
        self.pairs = pairs
        self.slots = slots
        self.interval = interval
    }

    mutating func play(until deadline: ContinuousClock.Instant) throws(CourtsideError) -> KeeperResult {
        guard !slots.isEmpty else { return result }
        var next = ContinuousClock.now
        while ContinuousClock.now < deadline {
            let slot = slots.randomElement()!
            if games[slot] == nil || games[slot]!.isFinished { try startGame(slot) }
            try move(in: slot)
            pace(&next)
        }
        return result
    }

    /// Plays one existing game to its end (starting its clock if needed).
    mutating func finish(_ game: Game, until deadline: ContinuousClock.Instant) throws(CourtsideError) -> KeeperResult {
        let slot = slots[0]
        games[slot] = game
        if !game.clock.isRunning && !game.isFinished {
            try client.command(.clock(game: game.id, command: .startClock))
        }
        var next = ContinuousClock.now
        while ContinuousClock.now < deadline, let current = games[slot], !current.isFinished {
            try move(in: slot)
            pace(&next)
        }
        return result
    }

    /// Waits until this keeper's next move is due, at its share of the rate.
    private func pace(_ next: inout ContinuousClock.Instant) {
        guard interval > 0 else { return }
        next = next + .milliseconds(Int(interval * 1000))
        let wait = next - ContinuousClock.now
        if wait > .zero {
            Thread.sleep(forTimeInterval: wait.inSeconds)
        }
    }

    private mutating func startGame(_ slot: Int) throws(CourtsideError) {
        let round = rounds[slot, default: 0]
        rounds[slot] = round + 1
        let (id, home, away) = pairs.setup(slot: slot, round: round)
        try client.command(.createGame(game: id, home: home.id, away: away.id, court: "Court \(slot + 1)", rules: nil))
        try client.command(.clock(game: id, command: .startClock))
        result.created += 1
        games[slot] = Game(setup: GameSetup(id: id, home: home, away: away))
    }

    private mutating func move(in slot: Int) throws(CourtsideError) {
        guard var game = games[slot] else { return }
        let players = game.setup.home.players + game.setup.away.players
        let player = players.randomElement()!.id
        // Points two times in five, so games end in a few dozen moves.
        let move: MoveKind = [.onePoint, .twoPoints, .assist, .rebound, .foul][Int.random(in: 0..<5)]
        let sent = ContinuousClock.now
        result.sent += 1
        let reply: Reply
        do {
            reply = try client.send(.move(game: game.id, player: player, move: move))
        } catch {
            if error.code == .unreachable {
                result.unanswered += 1
                return
            }
            throw error
        }
        let elapsed = ContinuousClock.now - sent
        result.latencies.append(elapsed.inSeconds * 1000)
        if let error = reply.error {
            result.refused += 1
            result.refusals[error.code.rawValue, default: 0] += 1
            if error.code == .gameFinished { games[slot] = nil }
            return
        }
        result.acknowledged += 1
        // Follow the game with the model's own rules, to know when it ends.
        game.apply(
            GameEvent(
                gameID: game.id, version: game.version + 1, at: Timestamp(milliseconds: 0),
                origin: CommandOrigin(clientID: "", commandID: ""), kind: .move(player: player, move: move)))
        games[slot] = game
        if game.isFinished { result.finished += 1 }
    }
}
