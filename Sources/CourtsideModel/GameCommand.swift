/// What a scorekeeper asks of a game.
public enum GameCommand: Hashable, Sendable {
    /// Record a move by a player.
    case move(player: PlayerID, move: MoveKind)
    /// Retract the move recorded by the event with this version, optionally saying why (the
    /// organiser correcting a finished game does).
    case retract(version: Int, reason: String? = nil)
    case startClock
    case pauseClock
    /// A team calls a time-out: the clock stops, and the team's allowance (if any) shrinks.
    case timeout(side: Side)
    /// Fill the teams of a game that has not started (the bracket does this); once it has
    /// started, only its teams' rosters may change (a player added or renamed).
    case assignTeams(home: Team, away: Team)
    /// Move a game that has not started to another court, or give it other rules.
    case changeSetup(court: String?, rules: RuleSet)
    /// The organiser records that a team forfeits the game, optionally saying why.
    case forfeit(side: Side, reason: String?)
    /// The organiser ends the game early, saying why.
    case endEarly(result: EarlyResult, reason: String)
}

extension Game {
    /// Decides what a command does to this game at `now`: the event kinds to commit, or a typed
    /// rejection. Pure; the caller stamps versions and commits.
    public func decide(_ command: GameCommand, at now: Timestamp) -> Result<[GameEvent.Kind], CourtsideError> {
        switch command {
        case .move(let player, let move):
            if isFinished { return .failure(finishedError) }
            guard setup.side(of: player) != nil else {
                return .failure(CourtsideError(.playerNotInGame, "player \(player) plays for neither team of game \(id)"))
            }
            return .success([.move(player: player, move: move)])
        case .retract(let target, let reason):
            if let problem = Self.reasonProblem(reason, required: false) { return .failure(problem) }
            // From the end: a keeper takes back a recent move, and versions only grow.
            if let play = plays.last(where: { $0.version == target }) {
                if let by = play.retractedBy {
                    return .failure(
                        CourtsideError(.alreadyRetracted, "the move at version \(target) was already retracted by version \(by)"))
                }
                return .success([.retraction(targetVersion: target, reason: reason)])
            }
            if (1...version).contains(target) {
                return .failure(CourtsideError(.notAMove, "version \(target) of game \(id) is not a move"))
            }
            return .failure(CourtsideError(.unknownEvent, "game \(id) has no version \(target) (latest is \(version))"))
        case .startClock:
            if isFinished { return .failure(finishedError) }
            if clock.isRunning { return .failure(CourtsideError(.clockRunning, "the clock of game \(id) is already running")) }
            return .success([.clockStarted])
        case .pauseClock:
            if isFinished { return .failure(finishedError) }
            if !clock.isRunning { return .failure(CourtsideError(.clockNotRunning, "the clock of game \(id) is not running")) }
            return .success([.clockPaused])
        case .timeout(let side):
            if isFinished { return .failure(finishedError) }
            if let allowed = rules.timeoutsPerTeam, timeoutsUsed[side] >= allowed {
                return .failure(
                    CourtsideError(
                        .noTimeoutsLeft, "\(setup.team(side).name) has used its \(allowed) time-out\(allowed == 1 ? "" : "s")"))
            }
            return .success([.timeout(side: side)])
        case .assignTeams(let home, let away):
            if hasStarted, !isRosterChange(home: home, away: away) {
                return .failure(CourtsideError(.bracketLocked, "game \(id) has started; its teams can no longer change"))
            }
            var changed = setup
            (changed.home, changed.away) = (home, away)
            do {
                try changed.validate()
            } catch {
                return .failure(error)
            }
            return .success([.teamsAssigned(home: home, away: away)])
        case .changeSetup(let court, let rules):
            if hasStarted {
                return .failure(CourtsideError(.gameStarted, "game \(id) has started: it can no longer be moved or changed"))
            }
            if let problem = rules.problem { return .failure(CourtsideError(.invalidGame, "game \(id): \(problem)")) }
            return .success([.setupChanged(court: court, rules: rules)])
        case .forfeit(let side, let reason):
            if isFinished { return .failure(finishedError) }
            if let problem = Self.reasonProblem(reason, required: false) { return .failure(problem) }
            return .success([.forfeit(side: side, reason: reason)])
        case .endEarly(let result, let reason):
            if isFinished { return .failure(finishedError) }
            if let problem = Self.reasonProblem(reason, required: true) { return .failure(problem) }
            return .success([.ended(result: result, reason: reason)])
        }
    }

    /// Whether new teams are the game's own with players added or renamed: the only change of
    /// teams a game in play takes (a late player), since each player keeps their moves.
    func isRosterChange(home: Team, away: Team) -> Bool {
        [(setup.home, home), (setup.away, away)].allSatisfy { old, new in
            old.id == new.id && old.players.allSatisfy { new.has($0.id) }
        }
    }

    /// Why an organiser's reason cannot go in the log, or nil: the text rule's `invalid_reason`.
    package static func reasonProblem(_ reason: String?, required: Bool) -> CourtsideError? {
        guard let reason, !reason.allSatisfy(\.isWhitespace) else {
            return required ? CourtsideError(.invalidReason, "say why the game ends early (reason)") : nil
        }
        do throws(CourtsideError) {
            try TextRule.check(reason, as: .reason, field: "reason")
        } catch {
            return error
        }
        return nil
    }

    /// The `time_expired` event due at `now`, if regulation time has run out and nobody has said so yet.
    ///
    /// The library asks before every command (so no move lands after time) and on a timer.
    public func expiry(at now: Timestamp) -> GameEvent.Kind? {
        guard let limit = rules.timeLimit, !timeExpired, !isFinished, clock.elapsed(at: now) >= limit.milliseconds
        else { return nil }
        return .timeExpired
    }

    /// When regulation time will run out if the clock keeps running, or nil if it will not.
    public func expiryTime() -> Timestamp? {
        guard let limit = rules.timeLimit, !timeExpired, !isFinished, let since = clock.runningSince else { return nil }
        return since.adding(milliseconds: limit.milliseconds - clock.accumulated)
    }

    private var finishedError: CourtsideError {
        let winnerName = winner.map { setup.team($0).name } ?? "nobody"
        return CourtsideError(.gameFinished, "game \(id) is finished (\(score.home) - \(score.away), won by \(winnerName))")
    }
}
