public import CourtsideModel

extension GameLibrary {
    /// Records an organiser's change to the tournament (a team, a player, a scheduled game) in
    /// the log's tournament stream, puts it in force, and brings the games it touches in line
    /// (their events, under the bracket's origin); returns once all of that is durable.
    ///
    /// A retry (same origin) gets the original receipt. Refused with `unknown_team`,
    /// `unknown_player`, `unknown_game`, `team_exists`, `player_exists`, `game_exists`,
    /// `game_started`, `invalid_game` or `invalid_reason`, changing nothing.
    @discardableResult
    public func change(_ change: TournamentChange, reason: String? = nil, origin: CommandOrigin) async throws(CourtsideError)
        -> Receipt
    {
        if let problem = Game.reasonProblem(reason, required: false) { throw problem }
        guard await loadTournamentChanges() != nil else {
            throw CourtsideError(.storageFailure, "the event log could not be read; courtsided's log has the detail")
        }
        if let known = memory.answer(to: origin) { return try await PendingReceipt(known).value() }
        if let expired = await retryBeyondWindow(origin) { throw expired }
        // Asked again: while the memory was still being read from the log after a start, the
        // look-up above waited for it, and the command may be one answered before the start.
        if let known = memory.answer(to: origin) { return try await PendingReceipt(known).value() }
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
            let event = GameEvent(
                gameID: .tournament, version: record.version + 1, at: clock.now(), origin: origin,
                kind: .tournamentChanged(change, reason: reason))
            let ticket = try committer.enqueue([event], games: [])
            record.version += 1
            record.changes.append(change)
            // In force at once, as a game's actor holds its next state: the publisher's tables
            // after this commit must show it.
            _ = gate.use(next)
            memory.remember(origin, ticket, at: event.at)
            return ticket
        }
        if let players = gate.schedule?.players.keys {
            registry.withLock { $0.players.formUnion(players) }
        }
        let receipt = try await PendingReceipt(ticket).value()
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
        committer.snapshot(of: id).value?.hasStarted ?? false
    }

    /// The tournament stream's changes, read from the log the first time (nil when it cannot be
    /// read); afterwards those in memory, which the commands keep current.
    func loadTournamentChanges() async -> [TournamentChange]? {
        if record.withLock({ $0.loaded }) { return record.withLock { $0.changes } }
        let load = recordLoad.withLock { load in
            if let load { return load }
            let log = self.log
            let task = Task { try await log.events(ofGame: .tournament) }
            load = task
            return task
        }
        let events: [GameEvent]
        do {
            events = try await load.value
        } catch {
            logger.error("the tournament's changes could not be read from the event log", metadata: ["error": "\(error)"])
            return nil
        }
        return record.withLock { record in
            if !record.loaded {
                record.changes = events.compactMap { event in
                    if case .tournamentChanged(let change, _) = event.kind { return change }
                    return nil
                }
                record.version = events.last?.version ?? 0
                record.loaded = true
            }
            return record.changes
        }
    }
}
