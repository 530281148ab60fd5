import CourtsideModel
import CourtsideStorage
import Foundation
import Logging
import Synchronization
import Testing

@testable import CourtsideLibrary

/// Starts from a checkpoint and the events after it must be indistinguishable from a replay of
/// the whole log: the same games, numbering and retry answers.
@Suite("Checkpoints and restarts", .timeLimit(.minutes(LibraryTestLimits.minutes)))
struct CheckpointTests {
    /// Frequent checkpoints, so that many land in the middle of games, each written a game at a
    /// time beside the commits; none at close, so a tail (and a checkpoint left half-written) remains.
    /// Every game's plays from the third are reused by its next checkpoint, through the undos, the
    /// teams assigned anew and the games' ends.
    static let writing = CheckpointPolicy(interval: 37, atClose: false, partBudget: .zero, reusedPlaysFrom: 3)
    static let fromCheckpoint = CheckpointPolicy(interval: .max, atClose: false, restore: true)
    static let fullReplay = CheckpointPolicy(interval: .max, atClose: false, restore: false)

    struct Sent {
        var origin: CommandOrigin
        var game: GameID
        var answer: Result<Receipt, CourtsideError>
    }

    /// A tournament played at random by five keepers: the schedule's games and the bracket they
    /// fill (teams re-assigned when a retraction changes a result), plus timed games that run
    /// out of time; moves, undos, the clock, time-outs, and refusals of all kinds.
    static func play(_ directory: URL, steps: Int = 1_500) async throws -> [Sent] {
        let clock = ManualClock()
        let messages = Messages()
        let library = try GameLibrary(
            log: SQLiteEventLog(directory: directory), clock: clock, checkpoints: writing,
            logger: Logger(label: "test") { _ in CapturingHandler(messages: messages) })
        await library.useSchedule(TournamentTests.schedule)
        for index in 1...3 {
            try await library.createGame(
                Tournament.setup("timed\(index)", rules: RuleSet(timeLimit: .minutes(1))),
                origin: origin("organiser", "timed\(index)"))
        }
        var random = SeededRandom(seed: 7)
        var sent: [Sent] = []
        for step in 0..<steps {
            clock.advance(seconds: Double(random.next(upTo: 4)))
            let ids = library.gameIDs()
            let id = ids[random.next(upTo: ids.count)]
            let game = try library.snapshot(of: id).value
            let players = game.setup.home.players + game.setup.away.players
            let command: GameCommand =
                switch random.next(upTo: 20) {
                case 0: .startClock
                case 1: .pauseClock
                case 2: .timeout(side: random.next(upTo: 2) == 0 ? .home : .away)
                case 3, 4:
                    .retract(version: game.plays.last(where: { $0.retractedBy == nil })?.version ?? game.version)
                default:
                    .move(
                        player: players[random.next(upTo: players.count)].id,
                        move: [.onePoint, .twoPoints, .twoPoints, .rebound, .foul, .assist][random.next(upTo: 6)])
                }
            let from = origin("keeper-\(step % 5)", "\(step)")
            sent.append(Sent(origin: from, game: id, answer: await answer(library, command, id, from)))
        }
        // Let the bracket settle before closing.
        await library.advanceBracket()
        await library.close()
        // Checkpoints were written in several parts.
        let parts = messages.list.withLock {
            $0.filter { $0.message == "checkpoint written" }.compactMap { $0.metadata["checkpoint.parts"] }
        }
        #expect(parts.contains { Int("\($0)") ?? 0 > 1 })
        // The checkpoint thread may complete one right at the end, whatever the numbers did: then
        // a library that writes none adds a tail of a move and a retraction.
        let probe = try SQLiteEventLog(directory: directory)
        let tail = try probe.readCheckpoint().map { try probe.readEvents(after: $0.sequence) } ?? []
        try probe.close()
        if !Set(tail.map(\.kind.typeName)).isSuperset(of: ["move", "retraction"]) {
            let more = try GameLibrary(
                log: SQLiteEventLog(directory: directory), clock: clock, checkpoints: fromCheckpoint,
                logger: Tournament.logger)
            try await more.createGame(Tournament.setup("extra"), origin: origin("organiser", "extra"))
            let move = origin("keeper-0", "extra-move")
            let moved = await answer(more, .move(player: Tournament.player("extra", .home), move: .twoPoints), "extra", move)
            sent.append(Sent(origin: move, game: "extra", answer: moved))
            let undo = origin("keeper-0", "extra-undo")
            let version = (try? moved.get().version) ?? 0
            sent.append(Sent(origin: undo, game: "extra", answer: await answer(more, .retract(version: version), "extra", undo)))
            await more.close()
        }
        return sent
    }

    /// Every answer a library gives to retries of the log's commands (the daemon's own refusals
    /// are not remembered, by design, so they are left out), by origin.
    static func retryAnswers(_ library: GameLibrary, _ log: SQLiteEventLog) async throws -> [CommandOrigin: Result<
        Receipt, CourtsideError
    >] {
        var games: [CommandOrigin: GameID] = [:]
        try log.forEachAnswer { answer in
            guard !CommandOrigin.isReserved(clientID: answer.origin.clientID) else { return }
            switch answer.outcome {
            case .event(let game, _, _): games[answer.origin] = game
            case .refusal(let refusal): games[answer.origin] = refusal.gameID
            }
        }
        var answers: [CommandOrigin: Result<Receipt, CourtsideError>] = [:]
        for (origin, game) in games {
            // The command does not matter for a retry: the original answer, or retry_expired, comes back.
            answers[origin] = await answer(library, .pauseClock, game, origin)
        }
        return answers
    }

    static func answer(_ library: GameLibrary, _ command: GameCommand, _ game: GameID, _ origin: CommandOrigin) async
        -> Result<Receipt, CourtsideError>
    {
        do {
            return .success(try await library.apply(command, to: game, origin: origin))
        } catch {
            return .failure(error)
        }
    }

    struct Opened {
        var snapshot: Snapshot<[Game]>
        var answers: [CommandOrigin: Result<Receipt, CourtsideError>]
        var remembered: Int
    }

    static func open(_ directory: URL, _ policy: CheckpointPolicy, window: RetryWindow) async throws -> Opened {
        let log = try SQLiteEventLog(directory: directory)
        let library = try GameLibrary(
            log: log, clock: ManualClock(), retryWindow: window, checkpoints: policy, logger: Tournament.logger)
        let snapshot = library.snapshot()
        let answers = try await retryAnswers(library, log)
        let opened = Opened(snapshot: snapshot, answers: answers, remembered: library.rememberedAnswers)
        await library.close()
        return opened
    }

    @Test("checkpoint plus tail equals a full replay: games, versions, sequence and every retry's answer")
    func checkpointEqualsReplay() async throws {
        let directory = try TemporaryDirectory()
        let sent = try await Self.play(directory.url)

        // The log holds a checkpoint in the middle of things: events after it, games unfinished in it.
        let log = try SQLiteEventLog(directory: directory.url)
        let checkpoint = try #require(try log.readCheckpoint())
        let tail = try log.readEvents(after: checkpoint.sequence)
        try log.close()
        #expect(!tail.isEmpty)
        #expect(checkpoint.games.contains { !$0.plays.isEmpty && !$0.isFinished })
        #expect(checkpoint.games.contains { $0.isFinished })
        #expect(checkpoint.games.contains { $0.plays.contains { $0.retractedBy != nil } })
        #expect(checkpoint.games.contains { $0.timeExpired })
        #expect(Set(tail.map(\.kind.typeName)).isSuperset(of: ["move", "retraction"]))

        // Restored directly: the checkpoint was used, and only the tail replayed.
        let restored = try RestoredGames.restore(
            from: SQLiteEventLog(directory: directory.url), policy: Self.fromCheckpoint, logger: Tournament.logger)
        let replayed = try RestoredGames.restore(
            from: SQLiteEventLog(directory: directory.url), policy: Self.fullReplay, logger: Tournament.logger)
        #expect(restored.checkpointSequence == checkpoint.sequence && restored.replayed == tail.count)
        #expect(replayed.checkpointSequence == nil && replayed.replayed > tail.count)
        // Game by game, so that a difference reads as one game, not the whole tournament.
        #expect(restored.games.keys.sorted() == replayed.games.keys.sorted())
        for (id, game) in replayed.games { #expect(restored.games[id] == game, "game \(id)") }
        #expect(restored.lastSequence == replayed.lastSequence && restored.lastEventAt == replayed.lastEventAt)
        #expect(restored.changedSinceCheckpoint == Set(tail.map(\.gameID)))

        // The keys the checkpoints filed find every game's events and every command, as a scan would.
        let keyed = try SQLiteEventLog(directory: directory.url)
        let all = try keyed.readAll()
        for id in replayed.games.keys {
            #expect(try await keyed.events(ofGame: id) == all.filter { $0.gameID == id }, "game \(id)")
        }
        for event in all where !(try await keyed.contains(event.origin)) { Issue.record("\(event.origin) not found") }
        try keyed.close()

        // Through the library, with the default window and with one that has forgotten much.
        let small = RetryWindow(recentPerClient: 40, maximumAge: .seconds(600), maximumPerClient: 120, maximumTotal: 400)
        for window in [RetryWindow(), small] {
            let fromCheckpoint = try await Self.open(directory.url, Self.fromCheckpoint, window: window)
            let fromReplay = try await Self.open(directory.url, Self.fullReplay, window: window)
            #expect(fromCheckpoint.snapshot.sequence == fromReplay.snapshot.sequence)
            #expect(fromCheckpoint.snapshot.sequence == replayed.lastSequence)
            #expect(fromCheckpoint.snapshot.value.map(\.id) == fromReplay.snapshot.value.map(\.id))
            for (restored, replayed) in zip(fromCheckpoint.snapshot.value, fromReplay.snapshot.value) {
                #expect(restored == replayed, "game \(restored.id)")
            }
            #expect(fromCheckpoint.remembered == fromReplay.remembered)
            #expect(fromCheckpoint.answers.count > 1_000)
            #expect(fromCheckpoint.answers == fromReplay.answers)
            let expired = fromCheckpoint.answers.values.filter(\.isExpired)
            if window == small {
                #expect(expired.count > 100, "the small window should have forgotten many")
            } else {
                // Within the window, every retry gets its original answer: receipt or refusal.
                for command in sent { #expect(fromCheckpoint.answers[command.origin] == command.answer) }
                #expect(expired.isEmpty)
            }
        }
    }

    @Test("a restart after a checkpoint continues both numberings, and a retry from before it gets its original receipt")
    func numberingContinues() async throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock()
        var library = try Tournament.open(directory.url, clock: clock)
        try await library.createGame(Tournament.setup("g1"), origin: origin("k", "create"))
        try await library.createGame(Tournament.setup("g2"), origin: origin("k", "create-2"))
        let basket = try await library.apply(
            .move(player: Tournament.player("g1", .home), move: .twoPoints), to: "g1", origin: origin("k", "basket"))
        await expectCode(.clockNotRunning) { try await library.apply(.pauseClock, to: "g1", origin: origin("k", "pause")) }
        let before = library.snapshot()
        await library.close()  // writes a checkpoint: nothing is left to replay

        let log = try SQLiteEventLog(directory: directory.url)
        #expect(try log.readCheckpoint()?.sequence == before.sequence)
        #expect(try log.readEvents(after: before.sequence).isEmpty)
        try log.close()

        library = try Tournament.open(directory.url, clock: clock)
        #expect(library.snapshot() == before)
        #expect(try await library.apply(.startClock, to: "g1", origin: origin("k", "basket")) == basket)
        await expectCode(.clockNotRunning) { try await library.apply(.startClock, to: "g1", origin: origin("k", "pause")) }
        let next = try await library.apply(.startClock, to: "g2", origin: origin("k", "start"))
        #expect(next == Receipt(gameID: "g2", version: 2, sequence: before.sequence + 1))
        let another = try await library.apply(
            .move(player: Tournament.player("g1", .away), move: .onePoint), to: "g1", origin: origin())
        #expect(another == Receipt(gameID: "g1", version: basket.version + 1, sequence: before.sequence + 2))
        await library.close()

        // Once more, now from the checkpoint written at the second close.
        library = try Tournament.open(directory.url, clock: clock)
        #expect(try library.snapshot(of: "g1").value.version == another.version)
        #expect(try await library.apply(.startClock, to: "g1", origin: origin("k", "basket")) == basket)
        #expect(try await library.apply(.pauseClock, to: "g2", origin: origin()).sequence == another.sequence + 1)
        await library.close()
    }

    @Test("while the retry memory is read, new commands are served at once and retries wait for their original answers")
    func servesWhileLoading() async throws {
        let directory = try TemporaryDirectory()
        var library = try Tournament.open(directory.url)
        try await library.createGame(Tournament.setup("g1"), origin: origin("k", "create"))
        let basket = try await library.apply(
            .move(player: Tournament.player("g1", .home), move: .twoPoints), to: "g1", origin: origin("k", "basket"))
        await expectCode(.clockNotRunning) { try await library.apply(.pauseClock, to: "g1", origin: origin("k", "pause")) }
        await library.close()

        let log = GatedLog(try SQLiteEventLog(directory: directory.url))
        let reopened = try GameLibrary(log: log, clock: ManualClock(), logger: Tournament.logger)
        library = reopened
        #expect(library.rememberedAnswers == 0)
        // A new command does not wait for the memory: the log says it is new.
        let fresh = try await library.apply(
            .move(player: Tournament.player("g1", .away), move: .rebound), to: "g1", origin: origin("k", "new"))
        #expect(fresh.version == basket.version + 1)
        #expect(try await library.apply(.startClock, to: "g1", origin: origin("k", "new")) == fresh)
        // A retry from before the start waits for the memory, then gets its original answer.
        let retry = Task { try await reopened.apply(.startClock, to: "g1", origin: origin("k", "basket")) }
        let refused = Task { try await reopened.apply(.startClock, to: "g1", origin: origin("k", "pause")) }
        let creation = Task { try await reopened.createGame(Tournament.setup("g1"), origin: origin("k", "create")) }
        try await Task.sleep(for: .milliseconds(200))
        #expect(try library.snapshot(of: "g1").value.version == fresh.version, "a retry was decided afresh")
        log.open()
        #expect(try await retry.value == basket)
        await expectCode(.clockNotRunning) { try await refused.value }
        #expect(try await creation.value.version == 1)
        #expect(try library.snapshot(of: "g1").value.version == fresh.version)
        #expect(await library.retryMemoryLoaded())
        #expect(library.rememberedAnswers == 4)
        await library.close()
    }

    @Test("a checkpoint that does not fit the log is not used: the whole log is replayed, and that is logged")
    func badCheckpoint() async throws {
        let directory = try TemporaryDirectory()
        let sent = try await Self.play(directory.url, steps: 300)
        let replayed = try await Self.open(directory.url, Self.fullReplay, window: RetryWindow())
        let messages = Messages()
        let logger = Logger(label: "test") { _ in CapturingHandler(messages: messages) }

        // A game one version behind in the checkpoint: the tail does not follow on from it.
        let base = try SQLiteEventLog(directory: directory.url)
        let checkpoint = try #require(try base.readCheckpoint())
        let changed = try #require(try base.readEvents(after: checkpoint.sequence).first?.gameID)
        let log = DoctoredLog(base) { checkpoint in
            var checkpoint = checkpoint
            guard let index = checkpoint.games.firstIndex(where: { $0.id == changed }) else { throw CheckpointError("none") }
            checkpoint.games[index].version -= 1
            return checkpoint
        }
        let library = try GameLibrary(log: log, clock: ManualClock(), checkpoints: Self.fromCheckpoint, logger: logger)
        #expect(library.snapshot() == replayed.snapshot)
        for command in sent.prefix(50) {
            #expect(await Self.answer(library, .pauseClock, command.game, command.origin) == command.answer)
        }
        await library.close()
        #expect(messages.list.withLock { $0.contains { $0.message.contains("the checkpoint cannot be used") } })

        // One the log cannot even read is not used either.
        let unreadable = DoctoredLog(try SQLiteEventLog(directory: directory.url)) { _ in throw CheckpointError("damaged") }
        let again = try GameLibrary(log: unreadable, clock: ManualClock(), checkpoints: Self.fromCheckpoint, logger: logger)
        #expect(again.snapshot() == replayed.snapshot)
        await again.close()
    }

    @Test("a start that replayed the whole log writes a complete checkpoint at once when the log is long")
    func checkpointAfterFullReplay() async throws {
        let directory = try TemporaryDirectory()
        _ = try await Self.play(directory.url, steps: 300)
        // Gone (an older courtsided, say): the next start replays everything, then writes every game.
        let base = try SQLiteEventLog(directory: directory.url)
        let messages = Messages()
        let library = try GameLibrary(
            log: DoctoredLog(base) { _ in nil }, clock: ManualClock(),
            checkpoints: CheckpointPolicy(interval: 100, atClose: false, partBudget: .seconds(60)),
            logger: Logger(label: "test") { _ in CapturingHandler(messages: messages) })
        let snapshot = library.snapshot()
        // The writer begins it at once, and the checkpoint thread writes it (in one part, here):
        // the close, which writes none here, must not come first.
        try await library.createGame(Tournament.setup("late"), origin: origin())
        try await messages.wait(for: "checkpoint written")
        await library.close()
        let checkpoint = try #require(try SQLiteEventLog(directory: directory.url).readCheckpoint())
        #expect(checkpoint.sequence >= snapshot.sequence)
        #expect(checkpoint.games.count >= snapshot.value.count)
    }
}

extension CheckpointTests {
    @Test("a checkpoint that cannot be written costs nothing: every move is acknowledged, the error logged")
    func checkpointFailure() async throws {
        let directory = try TemporaryDirectory()
        let messages = Messages()
        let log = RefusingCheckpointsLog(try SQLiteEventLog(directory: directory.url))
        let library = try GameLibrary(
            log: log, clock: ManualClock(), checkpoints: CheckpointPolicy(interval: 5, partBudget: .zero),
            logger: Logger(label: "test") { _ in CapturingHandler(messages: messages) })
        for game in ["g1", "g2"] { try await library.createGame(Tournament.setup(game), origin: origin()) }
        for index in 0..<30 {
            let game = index.isMultiple(of: 2) ? "g1" : "g2"
            try await library.apply(
                .move(player: Tournament.player(game, .home), move: .rebound), to: GameID(game), origin: origin())
        }
        let snapshot = library.snapshot()
        await library.close()
        #expect(messages.list.withLock { $0.contains { $0.message == "a checkpoint could not be written" } })
        #expect(!messages.list.withLock { $0.contains { $0.message == "checkpoint written" } })
        let reopened = try Tournament.open(directory.url)
        #expect(reopened.snapshot() == snapshot)
        await reopened.close()
    }
}

extension CheckpointTests {
    @Test("a part of a checkpoint that hangs holds no commit up; a close waits for it, then writes the whole checkpoint")
    func hangingPart() async throws {
        let directory = try TemporaryDirectory()
        let log = HangingCheckpointsLog(try SQLiteEventLog(directory: directory.url))
        let library = try GameLibrary(
            log: log, clock: ManualClock(), checkpoints: CheckpointPolicy(interval: 5), logger: Tournament.logger)
        for game in ["g1", "g2"] { try await library.createGame(Tournament.setup(game), origin: origin()) }
        func moves(_ count: Int) async throws {
            for index in 0..<count {
                let game = index.isMultiple(of: 2) ? "g1" : "g2"
                try await library.apply(
                    .move(player: Tournament.player(game, .home), move: .rebound), to: GameID(game), origin: origin())
            }
        }
        try await moves(4)
        let deadline = ContinuousClock.now + .seconds(20)
        while log.parts == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(log.parts == 1)
        // Every one acknowledged while the part hangs (in the log writer's role, they would wait for it).
        try await moves(30)
        #expect(log.parts == 1)
        let snapshot = library.snapshot()
        let closing = Task { await library.close() }
        try await Task.sleep(for: .milliseconds(50))
        log.release()
        await closing.value
        let checkpoint = try #require(try SQLiteEventLog(directory: directory.url).readCheckpoint())
        #expect(checkpoint.sequence == snapshot.sequence)
        #expect(checkpoint.games.count == 2)
    }
}

extension CheckpointTests {
    @Test("closing while the retry memory is still read stops the reading: a long log does not hold up a stop")
    func closeWhileLoading() async throws {
        let directory = try TemporaryDirectory()
        let base = try SQLiteEventLog(directory: directory.url)
        let setup = Tournament.setup("g1")
        let moves = (2...20_001).map { version in
            GameEvent(
                gameID: "g1", version: version, sequence: Int64(version), at: Timestamp(milliseconds: Int64(version)),
                origin: CommandOrigin(clientID: "k", commandID: "\(version)"),
                kind: .move(player: Tournament.player("g1", .home), move: .rebound))
        }
        let creation = GameEvent(
            gameID: "g1", version: 1, sequence: 1, at: Timestamp(milliseconds: 1),
            origin: CommandOrigin(clientID: "k", commandID: "1"),
            kind: .gameCreated(setup))
        try base.append([creation] + moves, refusals: [])
        let library = try GameLibrary(log: SlowAnswersLog(base), clock: ManualClock(), logger: Tournament.logger)
        #expect(try library.snapshot(of: "g1").value.version == 20_001)
        await library.close()
        // Stopped part-way (reading them all takes twenty seconds), rather than read to the end.
        #expect(library.rememberedAnswers < 20_001)
    }
}

extension CheckpointTests {
    @Test("when the retry memory cannot be read, a retry from before the start is refused, never decided again")
    func memoryUnreadable() async throws {
        let directory = try TemporaryDirectory()
        var library = try Tournament.open(directory.url)
        try await library.createGame(Tournament.setup("g1"), origin: origin("k", "create"))
        let scorer = Tournament.player("g1", .home)
        try await library.apply(.move(player: scorer, move: .twoPoints), to: "g1", origin: origin("k", "basket"))
        await library.close()

        library = try GameLibrary(
            log: UnreadableAnswersLog(try SQLiteEventLog(directory: directory.url)), clock: ManualClock(),
            logger: Tournament.logger)
        await expectCode(.storageFailure) {
            try await library.apply(.move(player: scorer, move: .twoPoints), to: "g1", origin: origin("k", "basket"))
        }
        // Again, once the reading has surely failed.
        try await Task.sleep(for: .milliseconds(100))
        await expectCode(.storageFailure) {
            try await library.apply(.move(player: scorer, move: .twoPoints), to: "g1", origin: origin("k", "basket"))
        }
        #expect(try library.snapshot(of: "g1").value.score.home == 2)
        // New commands are still decided: the log says they are new.
        #expect(try await library.apply(.move(player: scorer, move: .onePoint), to: "g1", origin: origin()).version == 3)
        await library.close()
    }
}

/// The real log, whose answers for the retry memory cannot be read.
final class UnreadableAnswersLog: ForwardingEventLog {
    let base: any EventLog
    init(_ base: any EventLog) { self.base = base }
    func forEachAnswer(_ body: (LoggedAnswer) throws -> Void) throws { throw CocoaError(.fileReadCorruptFile) }
}

/// The real log, whose answers for the retry memory come slowly.
final class SlowAnswersLog: ForwardingEventLog {
    let base: any EventLog
    init(_ base: any EventLog) { self.base = base }
    func forEachAnswer(_ body: (LoggedAnswer) throws -> Void) throws {
        try base.forEachAnswer { answer in
            // A millisecond an answer: twenty seconds to read them all, so that even a test
            // starved by the rest of the suite closes the library long before the end.
            usleep(1000)
            try body(answer)
        }
    }
}

/// The real log, whose parts of checkpoints hang until ``release()``, as on a disk stuck in fsync.
final class HangingCheckpointsLog: ForwardingEventLog {
    let base: any EventLog
    private let gate = DispatchSemaphore(value: 0)
    private let hanging = Atomic<Int>(0)
    init(_ base: any EventLog) { self.base = base }
    /// Parts waiting now.
    var parts: Int { hanging.load(ordering: .acquiring) }
    func release() { gate.signal() }
    func writeCheckpoint(_ part: CheckpointPart) throws {
        hanging.add(1, ordering: .releasing)
        gate.wait()
        gate.signal()
        hanging.subtract(1, ordering: .releasing)
        try base.writeCheckpoint(part)
    }
}

/// The real log, which refuses every part of a checkpoint.
final class RefusingCheckpointsLog: ForwardingEventLog {
    let base: any EventLog
    init(_ base: any EventLog) { self.base = base }
    func writeCheckpoint(_ part: CheckpointPart) throws { throw CheckpointError("refused") }
}

extension Result where Failure == CourtsideError {
    var isExpired: Bool {
        if case .failure(let error) = self { return error.code == .retryExpired }
        return false
    }
}

extension SeededRandom {
    /// A number from 0 below `bound`: the same moves on every run.
    mutating func next(upTo bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// The real log, whose answers for the retry memory are held back until `open()`.
final class GatedLog: ForwardingEventLog {
    let base: any EventLog
    private let gate = DispatchSemaphore(value: 0)
    init(_ base: any EventLog) { self.base = base }
    func open() { gate.signal() }
    func forEachAnswer(_ body: (LoggedAnswer) throws -> Void) throws {
        gate.wait()
        gate.signal()
        try base.forEachAnswer(body)
    }
}

/// The real log, whose checkpoint is changed on the way out.
final class DoctoredLog: ForwardingEventLog {
    let base: any EventLog
    let doctor: @Sendable (Checkpoint) throws -> Checkpoint?
    init(_ base: any EventLog, doctor: @escaping @Sendable (Checkpoint) throws -> Checkpoint?) {
        self.base = base
        self.doctor = doctor
    }
    func readCheckpoint() throws -> Checkpoint? { try base.readCheckpoint().flatMap(doctor) }
}

final class Messages: Sendable {
    let list = Mutex<[(message: String, metadata: Logger.Metadata)]>([])

    /// Returns once `message` was logged; throws after 20 s without it.
    func wait(for message: String) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while !list.withLock({ $0.contains { $0.message == message } }) {
            guard ContinuousClock.now < deadline else { throw CheckpointError("never logged: \(message)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// Keeps every message logged, to check what the library says.
struct CapturingHandler: LogHandler {
    let messages: Messages
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        messages.list.withLock { $0.append(("\(event.message)", event.metadata ?? [:])) }
    }
}
