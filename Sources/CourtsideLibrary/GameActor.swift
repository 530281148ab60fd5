import CourtsideModel

/// One game: decides its commands strictly in arrival order and remembers every command's
/// outcome so that a retry is answered, not applied again.
///
/// The actor keeps the game as it will be once everything it accepted is committed, so it can
/// decide the next command while earlier ones still wait for their commit (pipelining).
actor GameActor {
    private enum Outcome {
        case accepted(CommitTicket)
        case rejected(CourtsideError)
    }

    /// The origin the library gives the events it makes itself (time running out).
    static let systemClientID = "courtside"

    let id: GameID
    private var game: Game
    private var outcomes: [CommandOrigin: Outcome]
    private let committer: GroupCommitter
    private let clock: any TimeSource
    /// Where decisions that settle a bracket game's teams are checked against every game's.
    private let gate: BracketGate

    /// A game rebuilt from the log, with the receipts of the commands that built it.
    init(
        game: Game, receipts: [CommandOrigin: Receipt], committer: GroupCommitter, clock: any TimeSource,
        gate: BracketGate
    ) {
        id = game.id
        self.game = game
        outcomes = receipts.mapValues { .accepted(CommitTicket(settled: .success($0))) }
        self.committer = committer
        self.clock = clock
        self.gate = gate
    }

    /// A new game whose creation is queued under `ticket`.
    init(
        created game: Game, by origin: CommandOrigin, ticket: CommitTicket, committer: GroupCommitter, clock: any TimeSource,
        gate: BracketGate
    ) {
        id = game.id
        self.game = game
        outcomes = [origin: .accepted(ticket)]
        self.committer = committer
        self.clock = clock
        self.gate = gate
    }

    /// The original result of a command this game has seen, or nil for a new command.
    func outcome(of origin: CommandOrigin) -> PendingReceipt? {
        switch outcomes[origin] {
        case nil: nil
        case .rejected(let error): PendingReceipt(.failure(error))
        case .accepted(let ticket): PendingReceipt(ticket)
        }
    }

    /// Decides a command and queues its events for commit, without waiting for the commit, so
    /// the caller can submit the next command of the game at once. A retry (same origin) gets
    /// the original answer.
    func submit(_ command: GameCommand, from origin: CommandOrigin) -> PendingReceipt {
        if let known = outcome(of: origin) { return known }
        let now = clock.now()
        var next = game
        var events: [GameEvent] = []
        var states: [Game] = []
        func append(_ kind: GameEvent.Kind, _ origin: CommandOrigin) {
            let event = GameEvent(gameID: id, version: next.version + 1, at: now, origin: origin, kind: kind)
            next.apply(event)
            events.append(event)
            states.append(next)
        }
        // Time that ran out before this command counts first, so nothing lands after the buzzer.
        if let expiry = next.expiry(at: now) { append(expiry, Self.expiryOrigin(id)) }
        var decision = next.decide(command, at: now)
        if case .success(let kinds) = decision {
            for kind in kinds { append(kind, origin) }
            if let refusal = gate.admit(command, from: game, to: next) {
                // Undo what the command would do, keeping a time expiry found on the way.
                decision = .failure(refusal)
                events.removeLast(kinds.count)
                states.removeLast(kinds.count)
                next = states.last ?? game
            }
        }
        if case .failure = decision, !events.isEmpty { gate.record(next) }
        var ticket: CommitTicket?
        if !events.isEmpty {
            do {
                ticket = try committer.enqueue(events, games: states)
            } catch {
                return PendingReceipt(.failure(error))
            }
            game = next
        }
        switch (decision, ticket) {
        case (.success, let ticket?):
            outcomes[origin] = .accepted(ticket)
            return PendingReceipt(ticket)
        case (.failure(let error), _):
            // An expiry found on the way is committed; the command itself is refused, for good.
            outcomes[origin] = .rejected(error)
            return PendingReceipt(.failure(error))
        case (.success, nil):
            preconditionFailure("an accepted command always has events")
        }
    }

    /// Commits `time_expired` if regulation time has run out by now; the library's timer calls this.
    func expireIfDue() {
        let now = clock.now()
        guard let expiry = game.expiry(at: now) else { return }
        var next = game
        let event = GameEvent(gameID: id, version: next.version + 1, at: now, origin: Self.expiryOrigin(id), kind: expiry)
        next.apply(event)
        gate.record(next)
        // A failure here means the library is closing or failed; the next command will retry.
        if (try? committer.enqueue([event], games: [next])) != nil { game = next }
    }

    private static func expiryOrigin(_ game: GameID) -> CommandOrigin {
        // Time runs out once per game, so this origin is unique.
        CommandOrigin(clientID: systemClientID, commandID: "time-expired:\(game)")
    }
}
