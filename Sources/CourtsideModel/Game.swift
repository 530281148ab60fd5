/// Where a game stands.
public enum GameStatus: String, Codable, Sendable, CaseIterable {
    /// Created; the clock has never run.
    case scheduled
    /// The clock is running.
    case running
    /// The clock has run and is stopped (a time-out, or a game reopened by a retraction).
    case paused
    /// Decided; only retractions still apply.
    case finished
}

/// Why a finished game ended.
public enum EndReason: String, Codable, Sendable, CaseIterable {
    /// A team reached the target score with the required lead.
    case score
    /// A team reached the hard cap.
    case cap
    /// The clock ran out with a leader.
    case time
    /// A team reached its overtime target.
    case overtime
    /// A team forfeited (the organiser's decision): the rules' forfeit result.
    case forfeit
    /// The organiser ended it early with the score it had: the leader won; a tie has no winner.
    case abandoned
    /// The organiser ended it early with no result: it counts for nobody.
    case noResult = "no_result"

    /// Whether the organiser decided the game rather than the score or the clock: moves
    /// retracted afterwards change the counts but not who won (a forfeit's score neither).
    public var isOrganisersDecision: Bool { self == .forfeit || self == .abandoned || self == .noResult }
}

/// How the organiser ends a game early.
public enum EarlyResult: String, Codable, Sendable, CaseIterable {
    /// Final with the score it has: the leader wins, a tie has no winner.
    case asItStands = "as_it_stands"
    /// Final with no result: standings count it for nobody, and no bracket slot fills from it.
    case noResult = "no_result"
}

/// A recorded move in the play-by-play; retracted moves stay, marked.
///
/// Its side, move and retraction are packed in one word: 40 bytes a play rather than 56, in
/// every game's history and every copy of it (docs/FIGURES.md, "Memory and restart").
public struct Play: Hashable, Codable, Sendable {
    /// The version of the event that recorded the move.
    public var version: Int
    public var at: Timestamp
    public var player: PlayerID
    /// The retraction's version above 4 bits, the side in bit 3, the move below it. Versions
    /// start at 1 (`game_created`), so 0 above the low bits says "not retracted".
    private var packed: UInt64

    public var side: Side {
        get { packed & 0b1000 == 0 ? .home : .away }
        set { packed = packed & ~0b1000 | (newValue == .home ? 0 : 0b1000) }
    }

    public var move: MoveKind {
        // Only a move's own code is ever packed (the setter), so the fallback is never taken.
        get { MoveKind(code: UInt8(packed & 0b111)) ?? .onePoint }
        set { packed = packed & ~0b111 | UInt64(newValue.code) }
    }

    /// The version of the retraction that undid the move, if any.
    public var retractedBy: Int? {
        get { packed >> 4 == 0 ? nil : Int(packed >> 4) }
        set {
            precondition((newValue ?? 1) > 0, "a retraction's version is positive")
            packed = packed & 0b1111 | UInt64(newValue ?? 0) << 4
        }
    }

    public init(version: Int, at: Timestamp, player: PlayerID, side: Side, move: MoveKind, retractedBy: Int? = nil) {
        self.version = version
        self.at = at
        self.player = player
        packed = 0
        self.side = side
        self.move = move
        self.retractedBy = retractedBy
    }

    enum CodingKeys: String, CodingKey {
        case version, at, player, side, move
        case retractedBy = "retracted_by"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            version: try container.decode(Int.self, forKey: .version), at: try container.decode(Timestamp.self, forKey: .at),
            player: try container.decode(PlayerID.self, forKey: .player), side: try container.decode(Side.self, forKey: .side),
            move: try container.decode(MoveKind.self, forKey: .move),
            retractedBy: nil)
        if let retraction = try container.decodeIfPresent(Int.self, forKey: .retractedBy) {
            guard retraction > 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .retractedBy, in: container, debugDescription: "a retraction's version is positive")
            }
            retractedBy = retraction
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(at, forKey: .at)
        try container.encode(player, forKey: .player)
        try container.encode(side, forKey: .side)
        try container.encode(move, forKey: .move)
        try container.encodeIfPresent(retractedBy, forKey: .retractedBy)
    }
}

extension Play: CustomReflectable {
    /// The fields, not the word they are packed in, in `dump`, test failures and the tests that
    /// check every field is written.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "version": version, "at": at, "player": player, "side": side, "move": move, "retractedBy": retractedBy as Any,
            ], displayStyle: .struct)
    }
}

/// The state of one game, derived from its events alone by ``apply(_:)``.
///
/// The fold knows the rules, so replaying the same events always yields the same game.
public struct Game: Hashable, Codable, Sendable {
    // The stored fields in an order that leaves little padding between the optional times: 121
    // bytes, where the order of their meaning took 129. At 128 bytes or less a game's state is
    // moved by a few vector stores; above, each move of it (a decision makes a dozen) called
    // memcpy, 3% of the pool's samples under `courtside-bench daemon` (docs/FIGURES.md).
    public var setup: GameSetup
    /// The last applied event's version.
    public var version: Int
    public var score: SideValues
    /// Move counts per player, every rostered player included.
    public var counts: PlayerCounts
    /// Every move in order, retracted ones marked.
    public var plays: PlayHistory
    /// Fouls per team (retracted ones excluded).
    public var teamFouls: SideValues
    /// Time-outs each team has called.
    public var timeoutsUsed: SideValues
    public var clock: GameClock
    public var status: GameStatus
    public var winner: Side?
    public var endReason: EndReason?
    /// Whether regulation time ran out.
    public var timeExpired: Bool
    /// When the game really started: its first move, time-out or clock start (or the organiser's
    /// decision, for a game decided before it started). What a court's delay is measured by.
    public var startedAt: Timestamp?
    /// In overtime, the score each team must reach to win.
    public var overtimeTargets: SideValues?
    /// When it ended; nil while it is not finished (a retraction that reopens it clears it).
    public var endedAt: Timestamp?

    /// A new game, as its `game_created` event (version 1) leaves it.
    public init(setup: GameSetup) {
        var counts = PlayerCounts(minimumCapacity: setup.home.players.count + setup.away.players.count)
        for player in setup.home.players + setup.away.players { counts[player.id] = MoveCounts() }
        self.init(setup: setup, counts: counts)
    }

    /// A new game whose players' counts are `counts`: the tables' stand-ins (``BracketGame``) keep none.
    init(setup: GameSetup, counts: PlayerCounts) {
        self.setup = setup
        version = 1
        score = SideValues(home: 0, away: 0)
        self.counts = counts
        clock = GameClock()
        status = .scheduled
        winner = nil
        endReason = nil
        timeExpired = false
        overtimeTargets = nil
        plays = []
        teamFouls = SideValues(home: 0, away: 0)
        timeoutsUsed = SideValues(home: 0, away: 0)
        startedAt = nil
        endedAt = nil
    }

    public var id: GameID { setup.id }
    public var rules: RuleSet { setup.rules }
    public var isFinished: Bool { status == .finished }
    /// Whether anything has happened on court: a move, or the clock having run.
    public var hasStarted: Bool { status != .scheduled || !plays.isEmpty || timeoutsUsed.home + timeoutsUsed.away > 0 }

    /// What the side's next foul gives the opponent, when the rules count team fouls.
    public func penalty(_ side: Side) -> FoulPenalty {
        rules.teamFouls?.penalty(after: teamFouls[side]) ?? .none
    }

    /// Folds one event into the game. Events must come in version order; they are trusted,
    /// since ``decide(_:at:)`` checked them before they were committed.
    public mutating func apply(_ event: GameEvent) {
        fold(event)
        if hasStarted, startedAt == nil { startedAt = event.at }
        if !isFinished {
            endedAt = nil
        } else if endedAt == nil {
            endedAt = event.at
        }
    }

    /// What the event does to the score, the clock and the rest; ``apply(_:)`` then notes the times.
    private mutating func fold(_ event: GameEvent) {
        version = event.version
        switch event.kind {
        case .gameCreated(let setup):
            self = Game(setup: setup)
        case .move(let player, let move):
            guard let side = setup.side(of: player) else { return }
            plays.append(Play(version: event.version, at: event.at, player: player, side: side, move: move))
            counts.add(1, to: player, move)
            score[side] += move.points
            if move == .foul { teamFouls[side] += 1 }
            if !isFinished, let (side, reason) = decidedWinner() { finish(side, reason, at: event.at) }
        case .retraction(let target, _):
            // From the end: the move taken back is a recent one, and versions are unique.
            guard let index = plays.lastIndex(where: { $0.version == target }) else { return }
            let play = plays[index]
            plays[index].retractedBy = event.version
            counts.add(-1, to: play.player, play.move)
            // A forfeit's score is the rules', whatever the moves were.
            if endReason != .forfeit { score[play.side] -= play.move.points }
            if play.move == .foul { teamFouls[play.side] -= 1 }
            reevaluateAfterRetraction()
        case .clockStarted:
            clock.start(at: event.at)
            status = .running
        case .clockPaused:
            clock.stop(at: event.at)
            status = .paused
        case .timeExpired:
            expire()
        case .timeout(let side):
            timeoutsUsed[side] += 1
            if clock.isRunning {
                clock.stop(at: event.at)
                status = .paused
            }
        case .teamsAssigned(let home, let away):
            // One new setup, not one per team: each change of a setup allocates its storage.
            let setup = GameSetup(id: id, home: home, away: away, rules: rules, court: self.setup.court)
            if hasStarted {
                // A roster change in play (the decider checks): the same teams, every player kept.
                self.setup = setup
            } else {
                restart(with: setup)
            }
        case .setupChanged(let court, let rules):
            // Only before the game starts (the decider checks), so there is nothing to carry over.
            restart(with: GameSetup(id: id, home: setup.home, away: setup.away, rules: rules, court: court))
        case .tournamentChanged:
            // The tournament's stream, never a game's.
            break
        case .forfeit(let side, _):
            score = rules.forfeitResult(winner: side.opponent)
            overtimeTargets = nil
            finish(side.opponent, .forfeit, at: event.at)
        case .ended(let result, _):
            clock.stop(at: event.at)
            status = .finished
            overtimeTargets = nil
            endReason = result == .noResult ? .noResult : .abandoned
            winner = result == .noResult ? nil : leader
        }
    }

    /// A game that has not started, set up anew, keeping its version.
    private mutating func restart(with setup: GameSetup) {
        let version = self.version
        self = Game(setup: setup)
        self.version = version
    }

    /// The side ahead on points, nil on a tie.
    var leader: Side? { score.home == score.away ? nil : score.home > score.away ? .home : .away }

    /// Applies events in order to a game that does not exist yet (the first must be `game_created`).
    public static func replay(_ events: some Sequence<GameEvent>) -> Game? {
        var game: Game?
        for event in events {
            if case .gameCreated(let setup) = event.kind {
                game = Game(setup: setup)
            } else {
                game?.apply(event)
            }
        }
        return game
    }

    // MARK: - Rules of the end

    /// The winner the current score and phase decide, if any.
    func decidedWinner() -> (Side, EndReason)? {
        if let targets = overtimeTargets {
            for side in Side.allCases where score[side] >= targets[side] { return (side, .overtime) }
            return nil
        }
        if timeExpired {
            // Leader-wins time limit: whoever leads has won; a tie went to overtime instead.
            if score.home == score.away { return nil }
            return (score.home > score.away ? .home : .away, .time)
        }
        if let cap = rules.hardCap {
            for side in Side.allCases where score[side] >= cap { return (side, .cap) }
        }
        for side in Side.allCases
        where score[side] >= rules.targetScore && score[side] - score[side.opponent] >= rules.winBy {
            return (side, .score)
        }
        return nil
    }

    private mutating func finish(_ side: Side, _ reason: EndReason, at time: Timestamp) {
        // The clock stops by itself when the game ends.
        clock.stop(at: time)
        status = .finished
        winner = side
        endReason = reason
    }

    private mutating func expire() {
        guard let limit = rules.timeLimit, !timeExpired, !isFinished else { return }
        timeExpired = true
        let tie = score.home == score.away
        if limit.atTime == .overtime || tie {
            startOvertime(points: limit.overtimePoints)
        } else if let (side, reason) = decidedWinner() {
            clock = GameClock(accumulated: limit.milliseconds)
            status = .finished
            winner = side
            endReason = reason
        }
    }

    private mutating func startOvertime(points: Int) {
        overtimeTargets = SideValues(home: score.home + points, away: score.away + points)
    }

    private mutating func reevaluateAfterRetraction() {
        guard isFinished else { return }
        if let endReason, endReason.isOrganisersDecision {
            // Still the organiser's decision; an abandoned game's leader may change with its score.
            if endReason == .abandoned { winner = leader }
            return
        }
        if let (side, reason) = decidedWinner() {
            winner = side
            endReason = reason
            return
        }
        // The game is live again. The clock stays where the game ended; the scorekeeper restarts it.
        status = .paused
        winner = nil
        endReason = nil
        if timeExpired && overtimeTargets == nil, let limit = rules.timeLimit {
            // A leader-wins game whose retraction leaves a tie goes to overtime, as a tie at time would have.
            startOvertime(points: limit.overtimePoints)
        }
    }

    enum CodingKeys: String, CodingKey {
        case setup, version, score, counts, clock, status, winner, plays
        case endReason = "end_reason"
        case timeExpired = "time_expired"
        case overtimeTargets = "overtime_targets"
        case teamFouls = "team_fouls"
        case timeoutsUsed = "timeouts_used"
        case startedAt = "started_at"
        case endedAt = "ended_at"
    }
}
