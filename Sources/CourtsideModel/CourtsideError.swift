/// A typed failure with a stable, machine-readable code and a message for people.
///
/// Codes are strings listed in docs/PROTOCOL.md; clients switch on them, so they never change
/// meaning. New codes may be added, which is why ``Code`` is a struct and not an enum.
public struct CourtsideError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable error code.
    public struct Code: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The game has ended; no move or clock change applies to it.
        public static let gameFinished = Code(rawValue: "game_finished")
        /// No game has this id.
        public static let unknownGame = Code(rawValue: "unknown_game")
        /// No game of the tournament has a player with this id.
        public static let unknownPlayer = Code(rawValue: "unknown_player")
        /// The player exists but plays for neither team of this game.
        public static let playerNotInGame = Code(rawValue: "player_not_in_game")
        /// A retraction names a version the game does not have.
        public static let unknownEvent = Code(rawValue: "unknown_event")
        /// A retraction names an event that is not a move (a clock change, say).
        public static let notAMove = Code(rawValue: "not_a_move")
        /// A retraction names a move that was already retracted.
        public static let alreadyRetracted = Code(rawValue: "already_retracted")
        /// The clock is already running.
        public static let clockRunning = Code(rawValue: "clock_running")
        /// The clock is not running, so it cannot be paused.
        public static let clockNotRunning = Code(rawValue: "clock_not_running")
        /// A game with this id exists already.
        public static let gameExists = Code(rawValue: "game_exists")
        /// The game's setup is unusable (teams, players or rules).
        public static let invalidGame = Code(rawValue: "invalid_game")
        /// The event log could not be written; the library accepts no more commands.
        public static let storageFailure = Code(rawValue: "storage_failure")
        /// The team has no time-out left under the game's rules.
        public static let noTimeoutsLeft = Code(rawValue: "no_timeouts_left")
        /// The change would alter the teams of a bracket game that has already started.
        public static let bracketLocked = Code(rawValue: "bracket_locked")
        /// A bracket game cannot start yet: a result its teams come from has changed, and the
        /// bracket has not re-assigned them.
        public static let bracketPending = Code(rawValue: "bracket_pending")
        /// The library is shutting down.
        public static let shuttingDown = Code(rawValue: "shutting_down")
        /// A retry of a command answered longer ago than the retry window: its result stands.
        public static let retryExpired = Code(rawValue: "retry_expired")
        /// Too many commands wait for their commit: nothing was decided; retry shortly.
        public static let overloaded = Code(rawValue: "overloaded")
        /// An organiser's decision lacks the reason it needs, or its reason is too long.
        public static let invalidReason = Code(rawValue: "invalid_reason")
        /// The tournament has no team with this id.
        public static let unknownTeam = Code(rawValue: "unknown_team")
        /// A team registered at run time has an id the tournament has already.
        public static let teamExists = Code(rawValue: "team_exists")
        /// A player added at run time has an id the tournament has already (player ids are
        /// the tournament's, not a team's).
        public static let playerExists = Code(rawValue: "player_exists")
        /// The organiser marked the player inactive: no new move of theirs is taken.
        public static let playerInactive = Code(rawValue: "player_inactive")
        /// The game has started: it can no longer be moved, re-timed or given other rules.
        public static let gameStarted = Code(rawValue: "game_started")
        /// A name, court, round, group or start time breaks the text rule (``TextRule``): a
        /// control character, a bidirectional override, blank, too long, or a start that is no
        /// time of day. The message names the field.
        public static let invalidText = Code(rawValue: "invalid_text")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
