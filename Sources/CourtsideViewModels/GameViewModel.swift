public import CourtsideClient
public import CourtsideLocalization
public import CourtsideModel

/// Exactly what a scoreboard shows for one game: ready-made strings and flags. Boards only
/// draw these; nothing here knows of terminals or sockets. Encoded as JSON (its property names
/// as keys), it is what courtside-web's pages bind.
public struct GameViewModel: Hashable, Sendable, Encodable {
    /// One player's line of the box score.
    public struct PlayerLine: Hashable, Sendable, Encodable {
        public var id: PlayerID
        public var name: String
        public var side: Side
        public var counts: MoveCounts
        public var points: Int
        /// The counts beside the player's name on the keeper page: "7 pts · 2 FT · 1 ast · 1 foul",
        /// points always, each other move once it happened.
        public var countsText: String
        /// Whether a move of theirs is taken: the organiser may mark a player inactive.
        public var isActive: Bool
        /// "inactive: no more moves" beside an inactive player's name; nil while active.
        public var inactiveText: String?
        /// The player's button as a screen reader says it: "Ann Avery, Lions: 7 points, 1 foul".
        public var label: String

        init(
            id: PlayerID, name: String, side: Side, team: String, counts: MoveCounts, isActive: Bool = true,
            words: Words = .english
        ) {
            (self.id, self.name, self.side, self.counts, points) = (id, name, side, counts, counts.points)
            self.isActive = isActive
            inactiveText = isActive ? nil : words(.keeperInactive)
            countsText = KeeperWords.counts(counts, words: words)
            label = KeeperWords.playerLabel(name: name, team: team, counts: counts, isActive: isActive, words: words)
        }
    }

    /// One team: its name, score, players and board.
    public struct TeamLine: Hashable, Sendable, Encodable {
        public var side: Side
        public var name: String
        public var score: Int
        public var players: [PlayerLine]
        public var board: TeamBoard
        /// The keeper's time-out button: "Time-out Lions".
        public var timeoutButtonText: String
    }

    /// One play of the play-by-play.
    public struct PlayLine: Hashable, Sendable, Encodable {
        public var version: Int
        public var side: Side
        public var playerName: String
        public var teamName: String
        /// "+2", "rebound": ``GameViewModel/moveText(_:)``.
        public var moveText: String
        /// Retracted: shown, marked as undone.
        public var isUndone: Bool
        /// The play as the keeper page lists it: "Ann +2", or "Bo foul (undone)".
        public var listText: String
        /// What undoing it is called in the keeper's outbox: "undo Ann +2".
        public var undoText: String
        /// Its Undo button as a screen reader says it: "Undo Ann Avery's 2 points".
        public var undoLabel: String

        /// `move`: the play's move, for the undo's spoken name (`moveText` when nil); `words`:
        /// the language of the keeper's words.
        public init(
            version: Int, side: Side, playerName: String, teamName: String, moveText: String, isUndone: Bool,
            move: MoveKind? = nil, words: Words = .english
        ) {
            (self.version, self.side, self.playerName, self.teamName, self.moveText, self.isUndone) = (
                version, side, playerName, teamName, moveText, isUndone
            )
            let play = ["player": playerName, "move": moveText]
            listText = words(isUndone ? .keeperPlayUndone : .keeperPlay, play)
            undoText = words(.keeperUndo, ["what": words(.keeperPlay, play)])
            undoLabel = words(
                .keeperUndoLabel, ["player": playerName, "move": move.map { KeeperWords.spoken($0, words: words) } ?? moveText])
        }

        /// The play in one line: "v12  Ann  +2" or "v9  Bo  foul (undone)".
        public var text: String { "v\(version)  \(playerName)  \(moveText)\(isUndone ? " (undone)" : "")" }
    }

    public var id: GameID
    public var court: String?
    public var home: TeamLine
    public var away: TeamLine
    /// "12 - 10": home first.
    public var score: String
    /// "07:12.3": minutes, seconds, tenths of the game clock at the moment asked for.
    public var clock: String
    public var isRunning: Bool
    public var isPaused: Bool
    public var isFinished: Bool
    /// What the clock button does now, as the protocol's `clock` action names it: "pause" while
    /// the clock runs, else "start"; empty once the game is final.
    public var clockAction: String
    /// The clock button's words: "Start clock", "Pause clock", or "Game over".
    public var clockActionText: String
    /// "SCHEDULED", "IN PLAY" (moves recorded, the clock never started), "LIVE", "PAUSED",
    /// "OVERTIME" or "FINAL": the one word every screen shows for the game's state.
    public var statusLabel: String
    /// The status with the winner once there is one: "LIVE", "FINAL: Lions won".
    public var statusText: String
    /// The winning team's name, once there is one.
    public var winner: String?
    /// The most recent plays, newest first.
    public var plays: [PlayLine]
    /// The rules' shot clock, shown as a value: "shot clock 12", in the catalog's words.
    public var shotClock: String?
    /// The rule set's preset name, if it came from one.
    public var rules: String?

    public var homeName: String { home.name }
    public var awayName: String { away.name }
    public var homePlayers: [PlayerLine] { home.players }
    public var awayPlayers: [PlayerLine] { away.players }
    /// The most recent plays, newest first, such as "v12  Ann  +2" or "v9  Bo  foul (undone)".
    public var lastPlays: [String] { plays.map(\.text) }
    /// Per team, when the rules count team fouls in tiers: "fouls 8, bonus: 2 FT".
    public var homeFouls: String? { home.board.foulsLine }
    public var awayFouls: String? { away.board.foulsLine }
    /// Per team, when the rules limit time-outs: "time-outs left 1".
    public var homeTimeouts: String? { home.board.timeoutsLine }
    public var awayTimeouts: String? { away.board.timeoutsLine }

    /// The view of `state` at `now` (the daemon's time, so the clock runs between events), with
    /// its last `count` plays.
    /// `inactive`: the players the organiser marked inactive (the tournament's), shown so and
    /// offered no move. `words`: the language of every word it holds.
    public init(
        _ state: GameState, now: Timestamp, lastPlays count: Int = 5, inactive: Set<PlayerID> = [], words: Words = .english
    ) {
        let setup = state.setup
        let live = state.live
        id = setup.id
        court = setup.court
        func team(_ side: Side) -> TeamLine {
            let team = setup.team(side)
            let players = team.players.map { player in
                let counts = live.counts[player.id] ?? MoveCounts()
                return PlayerLine(
                    id: player.id, name: player.name, side: side, team: team.name, counts: counts,
                    isActive: !inactive.contains(player.id), words: words)
            }
            return TeamLine(
                side: side, name: team.name, score: live.score[side], players: players,
                board: TeamBoard(state.game, side, words: words),
                timeoutButtonText: words(.keeperTimeoutTeam, ["team": team.name]))
        }
        home = team(.home)
        away = team(.away)
        score = "\(live.score.home) - \(live.score.away)"
        clock = Self.clockText(milliseconds: live.clock.elapsed(at: now))
        isRunning = live.clock.isRunning && live.status != .finished
        isFinished = live.status == .finished
        isPaused = live.status == .paused
        (clockAction, clockActionText) = KeeperWords.clockAction(isFinished: isFinished, isRunning: isRunning, words: words)
        statusLabel = words(Self.statusKey(state.game))
        let winner = live.winner.map { setup.team($0).name }
        self.winner = winner
        statusText = Self.statusText(statusLabel, winner: winner, endReason: live.endReason, words: words)
        shotClock = setup.rules.shotClockSeconds.map { words(.gameShotClock, ["seconds": words.number($0)]) }
        rules = setup.rules.preset
        plays = state.plays.suffix(count).reversed().map { play in
            let team = setup.team(play.side)
            return PlayLine(
                version: play.version, side: play.side,
                playerName: team.players.first { $0.id == play.player }?.name ?? play.player.rawValue, teamName: team.name,
                moveText: Self.moveText(play.move, words: words), isUndone: play.retractedBy != nil, move: play.move,
                words: words)
        }
    }

    /// The game in one line: "g1  Court 1  Lions 12 - 10 Tigers  07:12.3  LIVE".
    public var summary: String {
        let place = court.map { "  \($0)" } ?? ""
        let result = winner.map { "  \($0) won" } ?? ""
        return "\(id)\(place)  \(homeName) \(score) \(awayName)  \(clock)  \(statusLabel)\(result)"
    }

    /// The word for where a game stands ("SCHEDULED", "IN PLAY", "LIVE", ...).
    static func statusKey(_ game: Game) -> MessageKey {
        switch game.status {
        // Points on the board with the clock never started (a game without a clock, or a
        // keeper who scored first): under way, not scheduled.
        case .scheduled: game.hasStarted ? .statusInPlay : .statusScheduled
        case .running: game.overtimeTargets == nil ? .statusLive : .statusOvertime
        case .paused: .statusPaused
        case .finished: .statusFinal
        }
    }

    /// A scheduled game's state in the words every screen uses: the game's own
    /// (``statusText``) once it exists; before, "waiting for its teams" while a result it waits on
    /// is open, else "not created yet". Worded from the game alone: no view of it is made.
    public static func scheduleText(_ game: Game?, teamsKnown: Bool, words: Words = .english) -> String {
        guard let game else { return words(teamsKnown ? .statusNotCreated : .courtWaiting) }
        return statusText(
            words(statusKey(game)), winner: game.winner.map { game.setup.team($0).name }, endReason: game.endReason,
            words: words)
    }

    /// The status with how the game was decided: "LIVE", "FINAL: Lions won", "FINAL: Lions won
    /// by forfeit", "FINAL (abandoned): Lions won", "FINAL (abandoned): no result".
    public static func statusText(_ label: String, winner: String?, endReason: EndReason?, words: Words = .english) -> String {
        let values = ["status": label, "winner": winner ?? ""]
        return switch (endReason, winner) {
        case (.forfeit, _?): words(.statusWonByForfeit, values)
        case (.abandoned, _?): words(.statusAbandonedWon, values)
        case (.abandoned, nil), (.noResult, _): words(.statusAbandoned, values)
        case (_, _?): words(.statusWon, values)
        case (_, nil): label
        }
    }

    /// Milliseconds as "mm:ss.t" (tenths rounded down, so the display never runs ahead).
    public static func clockText(milliseconds: Int64) -> String {
        let tenths = max(0, milliseconds) / 100
        let minutes = tenths / 600
        let seconds = (tenths / 10) % 60
        let tenth = tenths % 10
        return "\(minutes < 10 ? "0" : "")\(minutes):\(seconds < 10 ? "0" : "")\(seconds).\(tenth)"
    }

    /// A move's button on the keeper page, short enough for a thumb: "+2", "FT", "REB".
    public static func moveButtonText(_ move: MoveKind) -> String { KeeperWords.button(move) }

    /// How a move reads in the play-by-play, in `words`' language.
    public static func moveText(_ move: MoveKind, words: Words = .english) -> String {
        let key: MessageKey =
            switch move {
            case .onePoint: .moveOnePoint
            case .twoPoints: .moveTwoPoints
            case .assist: .moveAssist
            case .rebound: .moveRebound
            case .foul: .moveFoul
            case .freeThrow: .moveFreeThrow
            }
        return words(key)
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
