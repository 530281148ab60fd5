public import CourtsideModel
import HashTreeCollections

/// The tournament's schedule in the library: adopted from the config with the log's changes laid
/// over it, read as standings and a bracket, and moved on by the results (games created, teams
/// re-assigned, dropped games ended, withdrawn teams' games forfeited).
extension GameLibrary {
    /// The schedule in force, if any.
    public var currentSchedule: Schedule? { gate.schedule }

    /// Adopts a tournament schedule: creates the games whose teams are known, and from now on
    /// fills "winner of", "loser of" and group-rank slots as results come in.
    @discardableResult
    ///
    /// `seed` is the config's; the organiser's changes in the log are laid over it, and the
    /// schedule in force is the result (``unappliedChanges`` has those that did not apply).
    public func useSchedule(_ seed: Schedule) async -> [GameID] {
        let (first, newSchedule, conflicts) = record.withLock { record in
            record.seed = seed
            let laid = seed.laying(record.changes)
            record.conflicts = laid.conflicts
            record.dropped = TournamentRecord.dropped(by: record.changes, over: seed)
            return (gate.use(laid.schedule), laid.schedule, laid.conflicts)
        }
        for conflict in conflicts {
            let what = "\(conflict.change.typeName) (\(conflict.change.subject))"
            if let overrode = conflict.overrode {
                logger.warning(
                    "the config file disagrees with an organiser's change in the log; the change is kept over \(overrode): \(what)",
                    metadata: ["change": "\(conflict.change.typeName)"])
            } else {
                logger.warning(
                    "an organiser's change in the log does not apply to the config's tournament (\(conflict.error?.message ?? "")); the log keeps it: \(what)",
                    metadata: ["change": "\(conflict.change.typeName)", "error.code": "\(conflict.error?.code.rawValue ?? "")"])
            }
        }
        // Every rostered player is the tournament's, whether or not a game of theirs exists yet.
        registry.withLock { registry in
            registry.inactive = newSchedule.inactivePlayers
            for team in newSchedule.teams.values { registry.players.formUnion(team.players.map(\.id)) }
        }
        if first {
            // Results move the bracket on; listen before advancing so nothing slips between.
            // Each advance reads every committed game, so one after several results covers them all.
            let results = view.signals(when: Self.mayMoveBracket)
            let task = Task { [weak self] in
                for await _ in results {
                    guard let self else { return }
                    await self.advanceBracket()
                }
            }
            advancing.withLock { $0 = task }
        }
        return await advanceBracket()
    }

    /// Every committed game with the standings and bracket derived from exactly those games,
    /// all reflecting one sequence (empty standings and bracket without a schedule).
    public func tournamentSnapshot() -> Snapshot<TournamentState> {
        let all = view.snapshot()
        let schedule = gate.schedule
        return Snapshot(
            value: TournamentState(
                games: all.value, standings: schedule?.standings(all.value.byID) ?? [],
                bracket: schedule?.bracket(all.value.byID) ?? []),
            sequence: all.sequence)
    }

    /// Standings and bracket from the same committed games, and the sequence they reflect.
    public func tables() -> Snapshot<(standings: [GroupStandings], bracket: [BracketEntry])> {
        let all = view.snapshot()
        let schedule = gate.schedule
        return Snapshot(
            value: (schedule?.standings(all.value.byID) ?? [], schedule?.bracket(all.value.byID) ?? []),
            sequence: all.sequence)
    }

    /// Standings of every group, from the committed games.
    public func standings() -> Snapshot<[GroupStandings]> {
        let all = view.snapshot()
        return Snapshot(value: gate.schedule?.standings(all.value.byID) ?? [], sequence: all.sequence)
    }

    /// The bracket: every scheduled game with its teams so far and its state.
    public func bracket() -> Snapshot<[BracketEntry]> {
        let all = view.snapshot()
        return Snapshot(value: gate.schedule?.bracket(all.value.byID) ?? [], sequence: all.sequence)
    }

    /// Creates the scheduled games whose teams the results now decide, and re-assigns the teams
    /// of those not yet started when a retraction changed a result. Returns the games touched.
    @discardableResult
    public func advanceBracket() async -> [GameID] {
        guard let schedule = gate.schedule else { return [] }
        // A round paired is a tournament change, whose own advance creates the round's games
        // from the schedule it puts in force: this one, on the schedule before it, stops here.
        if await pairSwissRounds(schedule) { return [] }
        var touched = await endDroppedGames(schedule)
        let games = view.snapshot().value.byID
        let lineups = schedule.lineups(games)
        // In id order, each with its scheduled game at hand: looking each up by id read the whole
        // schedule per game, at every final result (quadratic in the schedule's size).
        for scheduled in schedule.games.sorted(by: { $0.id < $1.id }) {
            guard let lineup = lineups[scheduled.id] else { continue }
            let id = scheduled.id
            if games[id] == nil {
                // Not committed yet: create it, or (same origin, so a retry) wait for a creation in flight.
                let setup = GameSetup(
                    id: id, home: lineup.home, away: lineup.away, rules: scheduled.rules, court: scheduled.court)
                let origin = CommandOrigin(clientID: Self.bracketClientID, commandID: "create:\(id)")
                do {
                    try await createGame(setup, origin: origin)
                    touched.append(id)
                } catch {
                    logger.error("bracket could not create \(id)", metadata: ["error": "\(error)", "game": "\(id)"])
                }
            } else if let game = games[id], !game.isFinished {
                touched += await follow(scheduled, lineup: lineup, game: game)
            }
        }
        touched += await forfeitWithdrawn(schedule)
        return touched
    }

    /// Ends, with no result, each game a new draw dropped from the schedule that exists and has
    /// not started: its court's keepers must not find it waiting. Run at every advance, so a
    /// crash between the draw's commit and these endings is made good at the next start; each
    /// origin names the game, so an ending is one event.
    private func endDroppedGames(_ schedule: Schedule) async -> [GameID] {
        let dropped = record.withLock { $0.dropped }.subtracting(schedule.games.map(\.id))
        guard !dropped.isEmpty else { return [] }
        let games = view.snapshot().value.byID
        var ended: [GameID] = []
        for id in dropped.sorted() {
            guard let game = games[id], !game.hasStarted, !game.isFinished else { continue }
            let origin = CommandOrigin(clientID: Self.bracketClientID, commandID: "drop:\(id)")
            do {
                try await apply(
                    .endEarly(result: .noResult, reason: "dropped from the schedule by a new draw"), to: id, origin: origin)
                ended.append(id)
            } catch {
                logger.warning("could not end dropped game \(id)", metadata: ["error": "\(error)", "game": "\(id)"])
            }
        }
        return ended
    }

    /// Forfeits each game not over that a withdrawn team plays (the rules' forfeit result; both
    /// withdrawn: no result), the games just created by this advance among them. Each origin
    /// names the game and the team, so a forfeit is one event, even across a crash.
    private func forfeitWithdrawn(_ schedule: Schedule) async -> [GameID] {
        guard !schedule.withdrawn.isEmpty else { return [] }
        let games = view.snapshot().value.byID
        var forfeited: [GameID] = []
        for id in games.keys.sorted() {
            guard let game = games[id], !game.isFinished else { continue }
            let (home, away) = (game.setup.home, game.setup.away)
            let gone = (home: schedule.withdrawn.contains(home.id), away: schedule.withdrawn.contains(away.id))
            let command: GameCommand
            let team: TeamID
            switch gone {
            case (true, true):
                (command, team) = (.endEarly(result: .noResult, reason: "both teams withdrew"), home.id)
            case (true, false): (command, team) = (.forfeit(side: .home, reason: "\(home.name) withdrew"), home.id)
            case (false, true): (command, team) = (.forfeit(side: .away, reason: "\(away.name) withdrew"), away.id)
            case (false, false): continue
            }
            let origin = CommandOrigin(clientID: Self.bracketClientID, commandID: "withdrawn:\(id):\(team)")
            do {
                try await apply(command, to: id, origin: origin)
                forfeited.append(id)
            } catch {
                logger.warning(
                    "could not forfeit \(id) of withdrawn team \(team)", metadata: ["error": "\(error)", "game": "\(id)"])
            }
        }
        return forfeited
    }

    /// Brings a game that exists and is not over in line with its schedule entry: teams the
    /// results changed (before it starts), a roster the organiser changed (at any time), and a
    /// court or rules the organiser changed (before it starts). Each origin names the game's
    /// version, so a retry after a crash is one event.
    private func follow(_ scheduled: ScheduledGame, lineup: Lineup, game: Game) async -> [GameID] {
        let id = game.id
        var touched: [GameID] = []
        func send(_ command: GameCommand, _ kind: String, at version: Int, failing: String) async {
            let origin = CommandOrigin(clientID: Self.bracketClientID, commandID: "\(kind):\(id):v\(version)")
            do {
                try await apply(command, to: id, origin: origin)
                touched.append(id)
            } catch {
                logger.warning("\(failing) \(id)", metadata: ["error": "\(error)", "game": "\(id)"])
            }
        }
        let sameTeams = game.setup.home.id == lineup.home.id && game.setup.away.id == lineup.away.id
        if !sameTeams && !game.hasStarted || sameTeams && (game.setup.home != lineup.home || game.setup.away != lineup.away) {
            await send(
                .assignTeams(home: lineup.home, away: lineup.away), "assign", at: game.version,
                failing: "bracket could not re-assign")
        }
        if !game.hasStarted, game.setup.court != scheduled.court || game.setup.rules != scheduled.rules,
            let now = try? snapshot(of: id).value, !now.hasStarted
        {
            await send(
                .changeSetup(court: scheduled.court, rules: scheduled.rules), "setup", at: now.version,
                failing: "could not move as the schedule says")
        }
        return touched
    }

    /// The client id of the events the bracket makes.
    public static let bracketClientID = "courtside.bracket"

    /// Only a final result, or a retraction (which may undo one), can move the bracket.
    private static func mayMoveBracket(_ update: GameUpdate) -> Bool {
        if case .retraction = update.event.kind { return true }
        return update.game.isFinished
    }
}

/// The tables read the committed games where they are, without a copy into a `Dictionary`.
extension TreeDictionary: GamesByID where Key == GameID, Value == Game {
}
