public import CourtsideClient
public import CourtsideModel

/// Exactly what a scoreboard shows for one game: ready-made strings and flags. Boards only
/// draw these; nothing here knows of terminals or sockets.
public struct GameViewModel: Hashable, Sendable {
    /// One player's line of the box score.
    public struct PlayerLine: Hashable, Sendable {
        public var id: PlayerID
        public var name: String
        public var side: Side
        public var counts: MoveCounts
        public var points: Int { counts.points }
    }

    public var id: GameID
    public var court: String?
    public var homeName: String
    public var awayName: String
    /// "12 - 10": home first.
    public var score: String
    /// "07:12.3": minutes, seconds, tenths of the game clock at the moment asked for.
    public var clock: String
    public var isRunning: Bool
    public var isPaused: Bool
    public var isFinished: Bool
    /// "SCHEDULED", "LIVE", "PAUSED", "OVERTIME" or "FINAL".
    public var statusLabel: String
    /// The winning team's name, once there is one.
    public var winner: String?
    public var homePlayers: [PlayerLine]
    public var awayPlayers: [PlayerLine]
    /// The most recent plays, newest first, such as "v12  Ann  +2" or "v9  Bo  foul (undone)".
    public var lastPlays: [String]
    /// Per team, when the rules count team fouls: "fouls 8, bonus: 2 FT" (home, then away).
    public var homeFouls: String?
    public var awayFouls: String?
    /// Per team, when the rules limit time-outs: "time-outs left 1".
    public var homeTimeouts: String?
    public var awayTimeouts: String?
    /// The rules' shot clock, shown as a value: "shot clock 12".
    public var shotClock: String?
    /// The rule set's preset name, if it came from one.
    public var rules: String?

    /// The view of `state` at `now` (the daemon's time, so the clock runs between events).
    public init(_ state: GameState, now: Timestamp, lastPlays count: Int = 5) {
        let setup = state.setup
        let live = state.live
        id = setup.id
        court = setup.court
        homeName = setup.home.name
        awayName = setup.away.name
        score = "\(live.score.home) - \(live.score.away)"
        clock = Self.clockText(milliseconds: live.clock.elapsed(at: now))
        isRunning = live.clock.isRunning && live.status != .finished
        isFinished = live.status == .finished
        isPaused = live.status == .paused
        statusLabel =
            switch live.status {
            case .scheduled: "SCHEDULED"
            case .running: live.overtimeTargets == nil ? "LIVE" : "OVERTIME"
            case .paused: "PAUSED"
            case .finished: "FINAL"
            }
        winner = live.winner.map { setup.team($0).name }
        func lines(_ side: Side) -> [PlayerLine] {
            setup.team(side).players.map {
                PlayerLine(id: $0.id, name: $0.name, side: side, counts: live.counts[$0.id] ?? MoveCounts())
            }
        }
        homePlayers = lines(.home)
        awayPlayers = lines(.away)
        var names: [PlayerID: String] = [:]
        for player in setup.home.players + setup.away.players { names[player.id] = player.name }
        if setup.rules.teamFouls != nil {
            func fouls(_ side: Side) -> String {
                let count = live.teamFouls[side]
                switch state.game.penalty(side) {
                case .none: return "fouls \(count)"
                case .twoFreeThrows: return "fouls \(count), bonus: 2 FT"
                case .twoFreeThrowsAndPossession: return "fouls \(count), bonus: 2 FT + ball"
                }
            }
            (homeFouls, awayFouls) = (fouls(.home), fouls(.away))
        }
        if let allowed = setup.rules.timeoutsPerTeam {
            homeTimeouts = "time-outs left \(max(0, allowed - live.timeoutsUsed.home))"
            awayTimeouts = "time-outs left \(max(0, allowed - live.timeoutsUsed.away))"
        }
        shotClock = setup.rules.shotClockSeconds.map { "shot clock \($0)" }
        rules = setup.rules.preset
        lastPlays = state.plays.suffix(count).reversed().map { play in
            let what = Self.moveText(play.move)
            let undone = play.retractedBy == nil ? "" : " (undone)"
            return "v\(play.version)  \(names[play.player] ?? play.player.rawValue)  \(what)\(undone)"
        }
    }

    /// The game in one line: "g1  Court 1  Lions 12 - 10 Tigers  07:12.3  LIVE".
    public var summary: String {
        let place = court.map { "  \($0)" } ?? ""
        let result = winner.map { "  \($0) won" } ?? ""
        return "\(id)\(place)  \(homeName) \(score) \(awayName)  \(clock)  \(statusLabel)\(result)"
    }

    /// Milliseconds as "mm:ss.t" (tenths rounded down, so the display never runs ahead).
    public static func clockText(milliseconds: Int64) -> String {
        let tenths = max(0, milliseconds) / 100
        let minutes = tenths / 600
        let seconds = (tenths / 10) % 60
        let tenth = tenths % 10
        return "\(minutes < 10 ? "0" : "")\(minutes):\(seconds < 10 ? "0" : "")\(seconds).\(tenth)"
    }

    /// How a move reads in the play-by-play.
    public static func moveText(_ move: MoveKind) -> String {
        switch move {
        case .onePoint: "+1"
        case .twoPoints: "+2"
        case .assist: "assist"
        case .rebound: "rebound"
        case .foul: "foul"
        case .freeThrow: "free throw"
        }
    }
}

/// Every game of the tournament, one line each, in id order: the big screen's model.
public struct TournamentViewModel: Hashable, Sendable {
    public var games: [GameViewModel]
    public var lines: [String] { games.map(\.summary) }

    public init(_ states: some Sequence<GameState>, now: Timestamp) {
        games = states.sorted { $0.id < $1.id }.map { GameViewModel($0, now: now, lastPlays: 0) }
    }
}
