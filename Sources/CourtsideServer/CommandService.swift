import CourtsideLibrary
import CourtsideModel
import CourtsideProtocol
import CourtsideTransport
import Logging
import ServiceLifecycle

/// Answers every request on the command endpoint with exactly one reply.
///
/// Commands are decided one after another in arrival order (each game keeps its order), but
/// none waits here for its commit: its answer goes out when the commit completes, so a slow
/// commit never holds up other requests and many of them share one commit. Reads are handed
/// to the ``ReadService`` and never wait here either. A quiet daemon decides on the transport's
/// I/O thread, a busy one on the pool: see ``decide(_:)``.
struct CommandService: Service {
    let transport: ZMQTransport
    let library: GameLibrary
    let tournament: LoadedTournament
    /// The allowlist on a secured daemon; nil serves everyone (plaintext on loopback).
    let access: AccessControl?
    let epoch: String
    let logger: Logger
    let responder: Responder
    /// What answers each command once its commit is done.
    private let answers: CommandAnswers
    let reads: ReadService
    /// The I/O thread commits a lone command itself while the log writer is idle (see
    /// ``decide(_:)``): asked where the command's task runs, which is the I/O thread only while
    /// the transport serves.
    private let commitOnIOThread: CommitPolicy

    init(
        transport: ZMQTransport, library: GameLibrary, tournament: LoadedTournament, access: AccessControl?,
        epoch: String, isActive: (@Sendable () -> Bool)? = nil, readQueueLimit: Int = 1024, tournamentReadsPace: Double,
        logger: Logger
    ) {
        self.transport = transport
        self.library = library
        self.tournament = tournament
        self.access = access
        self.epoch = epoch
        self.logger = logger
        responder = Responder(
            transport: transport, epoch: epoch, metrics: CommandMetrics(), isActive: isActive, logger: logger)
        answers = CommandAnswers(responder: responder, logger: logger)
        commitOnIOThread = .callersThread { [transport] in transport.isIOThread }
        reads = ReadService(
            library: library, responder: responder, limit: readQueueLimit, pace: tournamentReadsPace,
            setup: { [tournament] in tournament.configuration })
    }

    /// The most commands of one poll cycle decided on the I/O thread itself, when no commit is
    /// under way; more, or any while the log writer is busy, are decided on the pool.
    static let decidedOnIOThread = 4

    func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await reads.run() }
            // Nothing on the command path blocks but a lone command's commit, on the I/O thread
            // itself while quiet (see decide(_:)); any other waits on the log writer's thread.
            // Not cancelOnGracefulShutdown(): its merge reads the requests on a pool task, one
            // more hop each way.
            await withGracefulShutdownHandler {
                await decide(transport.requests)
            } onGracefulShutdown: {
                transport.requests.finish()
            }
            // Shutting down: the group now answers the queued reads.
            reads.finish()
        }
        // Commits what was accepted; each command is answered as its commit completes.
        await library.close()
        logger.info("command endpoint drained; event log closed")
    }

    /// Decides requests as they come: on the I/O thread while the daemon is quiet, on the pool
    /// while it is busy.
    ///
    /// On the I/O thread a request needs no hand-over to another thread on its way to the disk
    /// and back, since that thread commits a lone request's command itself and sends its reply
    /// at once: that is what a lone scorekeeper's round trip waits for. Under load, the I/O
    /// thread's own work (reading, replying) would wait behind the decisions, and throughput fell
    /// by a tenth in `courtside-bench daemon --keepers 16 --window 32`; so while commits are
    /// under way, or many commands come at once, they are decided on the pool, on the other
    /// core, which keeps them until a quiet moment: one hop there and one back for them all.
    ///
    /// Reads, and requests refused before they reach the library, count for none of this: they
    /// are handed over (or answered) where the batch is read. Counted, a burst of reads (a
    /// resync storm's) sent the loop to the pool, and the moves that came with it went the
    /// long way, through the pool and the log writer.
    private func decide(_ requests: RequestBatches) async {
        var batches = requests.makeAsyncIterator()
        // An empty batch is quiet: the loop starts on the I/O thread.
        var pending: [Command?]? = []
        while let quiet = pending {
            // Returns the commands of the first batch met at a busy moment, to be decided on the
            // pool, or nil at the end.
            pending = await withTaskExecutorPreference(transport) { () async -> [Command?]? in
                var commands = quiet
                while isQuiet(commands) {
                    // A lone command is committed here too while the I/O thread is ours: a lone
                    // keeper's move then crosses no thread between its request and its reply.
                    // (With more, an early one would wait for the commit while a later one
                    // suspends.)
                    if commands.count == 1, let command = commands[0].take() {
                        await library.committing(commitOnIOThread) { policy in
                            await submit(command, commit: policy)
                        }
                    } else {
                        await submitEach(&commands)
                    }
                    guard let next = await batches.next() else { return nil }
                    commands = self.commands(in: next)
                }
                return commands
            }
            // On the pool, outside any executor preference: a task that prefers an executor,
            // even the pool's own, is enqueued at every hop to a game's actor and back, where
            // one without steps onto a free actor on its own thread (docs/FIGURES.md has what
            // that saves a move).
            // Taken, so that the list is this loop's alone and `submitEach` does not copy it.
            guard var commands = pending.take() else { return }
            while !isQuiet(commands) {
                await submitEach(&commands)
                guard let next = await batches.next() else { return }
                commands = self.commands(in: next)
            }
            pending = commands
        }
    }

    /// Whether these commands are decided on the I/O thread. A batch without commands is: it
    /// has nothing left to decide, and moving for it would only cost the next batch a hop back.
    private func isQuiet(_ commands: [Command?]) -> Bool {
        commands.isEmpty || (commands.count <= Self.decidedOnIOThread && !library.isCommitting)
    }

    /// A request for the library, decoded and allowed.
    private struct Command {
        let incoming: IncomingRequest
        let operation: Request.Operation
        let origin: CommandOrigin
        let op: String
    }

    /// The batch's commands; its reads are handed to the ``ReadService``, all at once, and its
    /// bad or forbidden requests answered on the way. Each is an optional that
    /// ``submitEach(_:)`` takes out of the list when it submits it.
    private func commands(in batch: [IncomingRequest]) -> [Command?] {
        var batchReads: [ReadService.Read] = []
        // Sized once: grown from empty, it would copy a busy batch's commands at each doubling.
        var commands: [Command?] = []
        commands.reserveCapacity(batch.count)
        // Each request read where it lies: a loop over the array copied each one first.
        batch.withUnsafeBufferPointer { batch in
            for index in batch.indices {
                if let command = command(in: batch[index], reads: &batchReads) { commands.append(command) }
            }
        }
        if !batchReads.isEmpty { reads.submit(batchReads) }
        return commands
    }

    private func command(in incoming: IncomingRequest, reads: inout [ReadService.Read]) -> Command? {
        guard let body = incoming.body else {
            logger.warning("request with wrong frame count", metadata: ["request.frames": "\(incoming.frameCount)"])
            responder.fail(
                incoming,
                CourtsideError(.badFrames, "a request is one JSON frame after the envelope; got \(incoming.frameCount) frames"),
                commandID: nil)
            return nil
        }
        let request: Request
        do {
            request = try Request.decode(body)
        } catch {
            logger.warning("bad request", metadata: ["error.code": "\(error.code)", "error": "\(error.message)"])
            responder.send(incoming, .failure(error, commandID: Self.commandID(in: body), epoch: epoch))
            return nil
        }
        let op = request.operation.name
        var origin = request.origin
        if let access {
            let name: String
            do {
                name = try access.authorize(user: incoming.userID, request.operation) { court(of: $0) }
            } catch {
                logger.notice(
                    "request forbidden",
                    metadata: ["key": "\(incoming.userID ?? "-")", "client": "\(origin.clientID)", "error": "\(error.message)"])
                responder.fail(incoming, error, commandID: origin.commandID, op: op)
                return nil
            }
            // The log and every display see which key acted; retries stay within one key's name.
            origin.clientID = "\(name)/\(origin.clientID)"
        }
        switch request.operation {
        case .listGames, .snapshot, .schedule, .standings, .log, .tournament:
            reads.append(
                .init(
                    incoming: incoming, clientID: origin.clientID, commandID: origin.commandID,
                    operation: request.operation, op: op))
            return nil
        case .move, .retract, .clock, .timeout, .createGame, .forfeit, .endGame, .changeTournament, .scheduleGame:
            return Command(incoming: incoming, operation: request.operation, origin: origin, op: op)
        }
    }

    /// Submits the commands in order, each taken out of the list, which it leaves empty: a loop
    /// over the list copied each command, a retain and a release of each of its strings and
    /// arrays (2% of the pool's samples under `courtside-bench daemon`).
    private func submitEach(_ commands: inout [Command?]) async {
        for index in commands.indices {
            if let command = commands[index].take() { await submit(command) }
        }
    }

    /// Submits a command to the library; its reply goes out once its commit is done, which
    /// `commit` says who writes.
    private func submit(_ command: Command, commit: CommitPolicy = .logWriter) async {
        let (incoming, origin, op) = (command.incoming, command.origin, command.op)
        let pending: PendingReceipt
        switch command.operation {
        case .move(let game, let player, let move):
            pending = await library.submit(.move(player: player, move: move), to: game, origin: origin, commit: commit)
        case .retract(let game, let version, let reason):
            pending = await library.submit(.retract(version: version, reason: reason), to: game, origin: origin, commit: commit)
        case .clock(let game, let command):
            pending = await library.submit(command, to: game, origin: origin, commit: commit)
        case .timeout(let game, let side):
            pending = await library.submit(.timeout(side: side), to: game, origin: origin, commit: commit)
        case .forfeit(let game, let side, let reason):
            pending = await library.submit(.forfeit(side: side, reason: reason), to: game, origin: origin, commit: commit)
        case .endGame(let game, let result, let reason):
            pending = await library.submit(
                .endEarly(result: result, reason: reason), to: game, origin: origin, commit: commit)
        case .changeTournament(var change, let reason):
            if case .gameEdited(var edit) = change, let preset = edit.preset {
                // A preset's name is the daemon's to resolve: the log keeps the rules it meant.
                do throws(CourtsideError) {
                    (edit.rules, edit.preset) = (try tournament.preset(preset), nil)
                } catch {
                    responder.fail(incoming, error, commandID: origin.commandID, op: op)
                    return
                }
                change = .gameEdited(edit)
            }
            changeTournament(change, reason: reason, command)
            return
        case .scheduleGame(
            let game, let home, let away, let court, let start, let round, let group, let rules, let reason, let preset):
            var resolved = rules ?? tournament.configuration.rules
            if rules == nil, let preset {
                do throws(CourtsideError) {
                    resolved = try tournament.preset(preset)
                } catch {
                    responder.fail(incoming, error, commandID: origin.commandID, op: op)
                    return
                }
            }
            let scheduled = ScheduledGame(
                id: game, home: .team(home), away: .team(away), court: court, group: group, round: round, start: start,
                rules: resolved)
            changeTournament(.gameScheduled(scheduled), reason: reason, command)
            return
        case .createGame(let game, let home, let away, let court, let rules):
            do {
                let setup = try tournament.setup(
                    game: game, home: home, away: away, court: court, rules: rules, teams: library.currentSchedule?.teams)
                pending = await library.submitCreation(of: setup, origin: origin, commit: commit)
            } catch {
                responder.fail(incoming, error, commandID: origin.commandID, op: op)
                return
            }
        case .listGames, .snapshot, .schedule, .standings, .log, .tournament:
            preconditionFailure("\(op) is a read, handed to the read service")
        }
        pending.whenSettled { [answers, origin] result in
            answers.answer(incoming, origin: origin, result: result, op: op)
        }
    }

    /// Applies an organiser's change to the tournament in a task of its own: it waits for its
    /// commit and for the games it touches to follow, which the command loop must not.
    /// Its commits go to the log writer (``CommitPolicy/logWriter``): no caller waits to commit them.
    private func changeTournament(_ change: TournamentChange, reason: String?, _ command: Command) {
        let (incoming, origin, op) = (command.incoming, command.origin, command.op)
        Task.detached { [library, answers] in
            let result: Result<Receipt, CourtsideError>
            do throws(CourtsideError) {
                result = .success(try await library.change(change, reason: reason, origin: origin))
            } catch {
                result = .failure(error)
            }
            answers.answer(incoming, origin: origin, result: result, op: op)
        }
    }

    /// The court a game is played on: the committed game's, or the schedule's before it exists.
    private func court(of game: GameID) -> String? {
        (try? library.snapshot(of: game))?.value.setup.court ?? tournament.configuration.schedule.game(game)?.court
    }

    /// The command id of a request that could not be decoded, if it has a readable one.
    static func commandID(in body: [UInt8]) -> String? {
        // An oversize body is not worth parsing (it may be 1 MiB), least of all on the I/O thread.
        guard body.count <= ProtocolLimits.maxRequestBytes else { return nil }
        struct Envelope: Decodable {
            var commandID: String?
            enum CodingKeys: String, CodingKey { case commandID = "command_id" }
        }
        return (try? WireCoding.decode(Envelope.self, from: body))?.commandID
    }
}
