public import CourtsideModel

extension GameLibrary {
    /// Records an organiser's change to the tournament (a team, a player, a scheduled game) in
    /// the log's tournament stream, puts it in force, and brings the games it touches in line
    /// (their events, under the bracket's origin); returns once all of that is durable.
    ///
    /// A retry (same origin) gets the original receipt. Refused with `unknown_team`,
    /// `unknown_player`, `unknown_game`, `team_exists`, `player_exists`, `game_exists`,
    /// `game_started`, `stage_started`, `invalid_game` or `invalid_reason`, changing nothing.
    /// A published draw's games follow it (teams, court, rules), and a game it drops that
    /// exists and has not started ends with no result (``advanceBracket()``).
    @discardableResult
    public func change(_ change: TournamentChange, reason: String? = nil, origin: CommandOrigin) async throws(CourtsideError)
        -> Receipt
    {
        if let problem = Game.reasonProblem(reason, required: false) { throw problem }
        // A retry from beyond the window stands refused; one within it is answered under the lock
        // below (after a start, this waits until the memory is read from the log).
        if let expired = await retryBeyondWindow(origin) { throw expired }
        let ticket = try record.withLock { (record) throws(CourtsideError) -> CommitTicket in
            // Under the lock that records it: the same command sent twice at once is applied once.
            if let known = memory.answer(to: origin) { return known }
            guard let current = gate.schedule else {
                throw CourtsideError(
                    .invalidGame, "the tournament has no schedule: start courtsided with the teams and games in its config")
            }
            if case .gameScheduled(let game) = change, (try? snapshot(of: game.id)) != nil {
                throw CourtsideError(.gameExists, "a game with id \(game.id) exists already")
            }
            let next = try current.applying(change) { self.hasStarted($0) }
            if case .drawPublished(let draw) = change {
                // A game of the schedule is brought in line with the draw; one outside it (made
                // by create_game, or dropped by an earlier draw and ended) keeps its id.
                let scheduled = Set(current.games.map(\.id))
                if let taken = draw.schedule.games.first(where: {
                    !scheduled.contains($0.id) && (try? snapshot(of: $0.id)) != nil
                }) {
                    throw CourtsideError(
                        .gameExists,
                        "a game with id \(taken.id) exists already outside the schedule (made by create_game, or dropped by an earlier draw): the draw must name its games otherwise"
                    )
                }
            }
            if case .drawPublished = change, next == current {
                // The draw in force, published again (a second run of the same command): nothing
                // to record; the answer names the stream's last change.
                return CommitTicket(
                    settled: .success(Receipt(gameID: .tournament, version: record.version, sequence: record.sequence)))
            }
            let event = GameEvent(
                gameID: .tournament, version: record.version + 1, at: clock.now(), origin: origin,
                kind: .tournamentChanged(change, reason: reason))
            // In force before the writer has it, as a game's actor holds its next state: the
            // publisher computes its tables when the commit arrives, which may be before this
            // thread runs again, and a table computed from the old schedule would never be sent.
            _ = gate.use(next)
            let ticket: CommitTicket
            do throws(CourtsideError) {
                ticket = try writer.enqueue(.tournament([event]))
            } catch {
                _ = gate.use(current)
                throw error
            }
            record.version += 1
            record.changes.append(change)
            if case .drawPublished = change { record.dropped.formUnion(TournamentRecord.dropped(from: current, to: next)) }
            memory.remember(origin, ticket, at: event.at)
            return ticket
        }
        if let schedule = gate.schedule {
            registry.withLock { registry in
                registry.players.formUnion(schedule.players.keys)
                registry.inactive = schedule.inactivePlayers
            }
        }
        let receipt = try await PendingReceipt(ticket).value()
        record.withLock { $0.sequence = max($0.sequence, receipt.sequence) }
        await advanceBracket()
        return receipt
    }

    /// Every change the organiser has made to the tournament, in log order.
    public var tournamentChanges: [TournamentChange] { record.withLock { $0.changes } }

    /// The changes in the log that the config's tournament, as last loaded, disagrees with:
    /// kept over the file, or not applied.
    public var conflictingChanges: [LaidChange] { record.withLock { $0.conflicts } }

    /// Whether a committed game has started (a game not yet created has not).
    func hasStarted(_ id: GameID) -> Bool {
        view.snapshot(of: id).value?.hasStarted ?? false
    }
}
