import CourtsideModel

/// One game: decides its commands strictly in arrival order and remembers every command's
/// outcome so that a retry is answered, not applied again.
///
/// The actor keeps the game as it will be once everything it accepted is committed, so it can
/// decide the next command while earlier ones still wait for their commit (pipelining).
actor GameActor {
    /// The origin the library gives the events it makes itself (time running out).
    static let systemClientID = "courtside"

    let id: GameID
    private var game: Game
    /// Every command's answer, accepted or refused, by its origin.
    private var outcomes: [CommandOrigin: CommitTicket]
    private let committer: GroupCommitter
    private let clock: any TimeSource
    /// Where decisions that settle a bracket game's teams are checked against every game's.
    private let gate: BracketGate

    /// A game rebuilt from the log, with the answers of the commands it accepted and refused.
    init(
        game: Game, answers: [CommandOrigin: Result<Receipt, CourtsideError>], committer: GroupCommitter, clock: any TimeSource,
        gate: BracketGate
    ) {
        id = game.id
        self.game = game
        outcomes = answers.mapValues { CommitTicket(settled: $0) }
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
        outcomes = [origin: ticket]
        self.committer = committer
        self.clock = clock
        self.gate = gate
    }

    /// The original result of a command this game has seen, or nil for a new command.
    func outcome(of origin: CommandOrigin) -> PendingReceipt? {
        outcomes[origin].map(PendingReceipt.init)
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
        // A refusal is logged too, with any expiry found on the way, so that a retry gets the
        // same answer after a restart, even once the game would accept the command.
        var refusal: CommandRefusal?
        if case .failure(let error) = decision {
            refusal = CommandRefusal(gameID: id, origin: origin, at: now, error: error)
            if !events.isEmpty { gate.record(next) }
        }
        let ticket: CommitTicket
        do {
            ticket = try committer.enqueue(events, games: states, refusal: refusal)
        } catch {
            return PendingReceipt(.failure(error))
        }
        game = next
        outcomes[origin] = ticket
        return PendingReceipt(ticket)
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
