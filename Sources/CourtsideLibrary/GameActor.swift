import CourtsideModel

/// One game: decides its commands strictly in arrival order and remembers each command's
/// outcome (in the library's ``RetryMemory``) so that a retry is answered, not applied again.
///
/// The actor keeps the game as it will be once everything it accepted is committed, so it can
/// decide the next command while earlier ones still wait for their commit (pipelining).
actor GameActor {
    /// The origin the library gives the events it makes itself (time running out).
    static let systemClientID = "courtside"

    /// What every game's actor works with: one object for all of them, so that each of the
    /// thousands of actors holds a reference to it rather than four (with the clock's
    /// existential, 56 bytes a game more).
    final class Shared: Sendable {
        /// Answers by origin, within the retry window.
        let memory: RetryMemory
        let writer: CommitWriter
        let clock: any TimeSource
        /// Where decisions that settle a bracket game's teams are checked against every game's.
        let gate: BracketGate

        init(memory: RetryMemory, writer: CommitWriter, clock: any TimeSource, gate: BracketGate) {
            self.memory = memory
            self.writer = writer
            self.clock = clock
            self.gate = gate
        }
    }

    let id: GameID
    private var game: Game
    private let shared: Shared
    private var memory: RetryMemory { shared.memory }
    private var writer: CommitWriter { shared.writer }
    private var clock: any TimeSource { shared.clock }
    private var gate: BracketGate { shared.gate }

    /// A game rebuilt from the log.
    init(game: Game, shared: Shared) {
        id = game.id
        self.game = game
        self.shared = shared
    }

    /// A new game whose creation is queued (and remembered) under `ticket`.
    init(created game: Game, by origin: CommandOrigin, ticket: CommitTicket, shared: Shared) {
        id = game.id
        self.game = game
        self.shared = shared
        shared.memory.remember(origin, ticket, at: shared.clock.now())
    }

    /// The original result of a command within the retry window, or nil for a new command.
    func outcome(of origin: CommandOrigin) -> PendingReceipt? {
        memory.answer(to: origin).map(PendingReceipt.init)
    }

    /// What ``submit(_:from:commit:)`` made of a command.
    enum Submission {
        /// Decided and queued, or answered as a retry.
        case receipt(PendingReceipt)
        /// Not decided: only the event log can tell whether the command is a retry (see
        /// ``RetryMemory/Recall/askLog(loading:)``). Ask it, then ``submitAfterLog(_:from:commit:)``.
        case askLog
    }

    /// Decides a command and queues its events for commit, without waiting for the commit, so
    /// the caller can submit the next command of the game at once. A retry (same origin) gets
    /// the original answer. `commit` says who commits it: see ``CommitPolicy``.
    func submit(_ command: GameCommand, from origin: CommandOrigin, commit: CommitPolicy = .logWriter) -> Submission {
        // One probe of the retry memory, which a new command (the bulk of them) passes at once;
        // the command's id hashed once, for the probe and for remembering its answer.
        let hash = RetryAnswers.hash(origin)
        switch memory.admit(origin, hash: hash) {
        case .answered(let answer): return .receipt(PendingReceipt(answer.ticket))
        case .askLog: return .askLog
        case .new: return .receipt(decide(command, from: origin, hash: hash, commit: commit))
        }
    }

    /// ``submit(_:from:commit:)`` for a command the caller has asked the event log about, which
    /// found it no retry from beyond the window: a retry within it gets its answer, anything else
    /// is decided.
    func submitAfterLog(_ command: GameCommand, from origin: CommandOrigin, commit: CommitPolicy) -> PendingReceipt {
        outcome(of: origin) ?? decide(command, from: origin, hash: RetryAnswers.hash(origin), commit: commit)
    }

    /// Decides a command the retry memory does not hold, and queues its events for commit.
    /// `hash` is its id's (``RetryAnswers/hash(_:)``).
    private func decide(_ command: GameCommand, from origin: CommandOrigin, hash: Int, commit: CommitPolicy)
        -> PendingReceipt
    {
        let now = clock.now()
        var next = game
        var changes = CommitChanges.none
        // Time that ran out before this command counts first, so nothing lands after the buzzer.
        if let expiry = next.expiry(at: now) {
            Self.append(expiry, Self.expiryOrigin(id), at: now, to: &next, &changes)
        }
        var decision = next.decide(command, at: now)
        if case .success(let kinds) = decision {
            for kind in kinds { Self.append(kind, origin, at: now, to: &next, &changes) }
            if let refusal = gate.admit(command, from: game, to: next) {
                // Undo what the command would do, keeping a time expiry found on the way.
                decision = .failure(refusal)
                changes.removeLast(kinds.count)
                next = changes.lastGame ?? game
            }
        }
        // A refusal goes to the log too, with any expiry found on the way, so that the audit
        // trail has it and a retry gets the same answer after a restart. Its reply need not wait
        // for that write: it changed no game, so nothing acknowledged depends on it.
        var refusal: CommandRefusal?
        if case .failure(let error) = decision {
            refusal = CommandRefusal(gameID: id, origin: origin, at: now, error: error)
            if changes.eventCount > 0 { gate.record(next) }
        }
        var ticket: CommitTicket
        do {
            // The daemon's own commands (the bracket) must not be lost to a full queue.
            ticket = try writer.enqueue(
                consume changes, refusal: refusal, essential: CommandOrigin.isReserved(clientID: origin.clientID),
                commit: commit)
        } catch {
            // Not decided after all (closing, failed or overloaded): the bracket gate forgets what
            // it was told, and a retry is decided afresh.
            gate.record(game)
            return PendingReceipt(.failure(error))
        }
        if let refusal { ticket = CommitTicket(settled: .failure(refusal.error)) }
        // Moved, not copied: a copy is a retain of each of the state's references, then their
        // release with `next`.
        game = consume next
        memory.remember(origin, ticket, at: now, hash: hash)
        return PendingReceipt(ticket)
    }

    /// Folds an event of `kind` into `next`, and adds it to `changes` with the state it leaves.
    /// Not a local function of ``decide(_:from:hash:commit:)``: `consume` cannot take the
    /// variables such a function captures, which would then be copied or swapped out whole.
    private static func append(
        _ kind: GameEvent.Kind, _ origin: CommandOrigin, at now: Timestamp, to next: inout Game,
        _ changes: inout CommitChanges
    ) {
        let event = GameEvent(gameID: next.id, version: next.version + 1, at: now, origin: origin, kind: kind)
        next.apply(event)
        changes.append(event, next)
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
        if (try? writer.enqueue(.one(event, next), essential: true)) != nil {
            game = next
        } else {
            gate.record(game)
        }
    }

    private static func expiryOrigin(_ game: GameID) -> CommandOrigin {
        // Time runs out once per game, so this origin is unique.
        CommandOrigin(clientID: systemClientID, commandID: "time-expired:\(game)")
    }
}
