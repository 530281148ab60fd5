import CourtsideLibrary
import CourtsideModel
import CourtsideStorage
import Foundation
import Testing

/// A regression that loses an update must fail the test, not leave its `for await` hanging:
/// the time limit cancels the test, which ends the stream.
@Suite("The game library", .timeLimit(.minutes(LibraryTestLimits.minutes)))
struct LibraryTests {
    @Test("create, list, apply and snapshot")
    func basics() async throws {
        let directory = try TemporaryDirectory()
        let library = try Tournament.open(directory.url)
        let created = try await library.createGame(Tournament.setup("g1"), origin: origin())
        #expect(created.version == 1 && created.sequence == 1)
        try await library.createGame(Tournament.setup("g2"), origin: origin())
        let receipt = try await library.apply(
            .move(player: Tournament.player("g1", .home), move: .twoPoints), to: "g1", origin: origin())
        #expect(receipt == Receipt(gameID: "g1", version: 2, sequence: 3))
        #expect(library.gameIDs() == ["g1", "g2"])
        let snapshot = try library.snapshot(of: "g1")
        #expect(snapshot.sequence == 3)
        #expect(snapshot.value.score == SideValues(home: 2, away: 0))
        #expect(library.snapshot().value.map(\.id) == ["g1", "g2"])
        // A game created later with a smaller id still lists in order.
        try await library.createGame(Tournament.setup("g0"), origin: origin())
        #expect(library.gameIDs() == ["g0", "g1", "g2"])
        #expect(library.snapshot().value.map(\.id) == ["g0", "g1", "g2"])
        await library.close()
    }

    @Test("unknown games and players, and duplicate games, are refused with their codes")
    func refusals() async throws {
        let directory = try TemporaryDirectory()
        let library = try Tournament.open(directory.url)
        try await library.createGame(Tournament.setup("g1"), origin: origin())
        try await library.createGame(Tournament.setup("g2"), origin: origin())
        await #expect(throws: CourtsideError(.unknownGame, "no game has id nope")) {
            try await library.apply(.startClock, to: "nope", origin: origin())
        }
        await expectCode(.unknownPlayer) {
            try await library.apply(.move(player: "ghost", move: .onePoint), to: "g1", origin: origin())
        }
        await expectCode(.playerNotInGame) {
            try await library.apply(.move(player: Tournament.player("g2", .home), move: .onePoint), to: "g1", origin: origin())
        }
        await expectCode(.gameExists) { try await library.createGame(Tournament.setup("g1"), origin: origin()) }
        await expectCode(.invalidGame) {
            var setup = Tournament.setup("g3")
            setup.away = setup.home
            try await library.createGame(setup, origin: origin())
        }
        // Nothing refused was committed.
        #expect(library.snapshot().sequence == 2)
        await library.close()
    }

    @Test("many games from many tasks: per-game order, gapless versions and sequence")
    func concurrency() async throws {
        let directory = try TemporaryDirectory()
        let log = CountingLog(try SQLiteEventLog(directory: directory.url))
        let library = try GameLibrary(log: log, clock: ManualClock(), logger: Tournament.logger)
        let games = (0..<20).map { "g\($0)" }
        let movesPerGame = 60
        for game in games { try await library.createGame(Tournament.setup(game), origin: origin()) }
        let updates = library.updates()
        let start = library.snapshot().sequence

        // Each game gets its own keeper task that sends fouls and rebounds in order (neither ends a
        // game), and a second task per game adds assists concurrently.
        let receipts = try await withThrowingTaskGroup(of: (String, [Receipt]).self) { group in
            for game in games {
                for lane in 0..<2 {
                    group.addTask {
                        var receipts: [Receipt] = []
                        for index in 0..<movesPerGame / 2 {
                            let move: MoveKind = lane == 0 ? (index.isMultiple(of: 2) ? .foul : .rebound) : .assist
                            receipts.append(
                                try await library.apply(
                                    .move(player: Tournament.player(game, .home, lane + 1), move: move), to: GameID(game),
                                    origin: origin("\(game)-\(lane)", "\(index)")))
                        }
                        return (game, receipts)
                    }
                }
            }
            var all: [String: [Receipt]] = [:]
            for try await (game, receipts) in group { all[game, default: []].append(contentsOf: receipts) }
            return all
        }
        let total = games.count * movesPerGame
        // Each task saw its own versions rise: a game applies its commands in order.
        for (game, list) in receipts {
            let versions = list.map(\.version).sorted()
            #expect(versions == Array(2...(movesPerGame + 1)), "game \(game) versions have gaps")
        }
        let sequences = receipts.values.flatMap { $0.map(\.sequence) }.sorted()
        #expect(sequences == Array((start + 1)...(start + Int64(total))))

        // Subscribers see every event once, in sequence order, each game's versions in order.
        var seen: [GameUpdate] = []
        for await update in updates {
            seen.append(update)
            if seen.count == total { break }
        }
        #expect(seen.map(\.event.sequence) == Array((start + 1)...(start + Int64(total))))
        var lastVersion: [GameID: Int] = [:]
        for update in seen {
            #expect(update.event.version == (lastVersion[update.event.gameID] ?? 1) + 1)
            lastVersion[update.event.gameID] = update.event.version
            #expect(update.game.version == update.event.version)
        }
        for game in games {
            let state = try library.snapshot(of: GameID(game)).value
            #expect(state.counts[Tournament.player(game, .home, 2)]?.assist == movesPerGame / 2)
        }
        // Group commit: concurrent commands shared transactions.
        // One transaction per move would be one append per move; 40 keepers in flight share far fewer.
        #expect(log.appends < games.count + total / 2)
        await library.close()
    }

    @Test("subscribe, then snapshot: the snapshot's sequence tells which updates to apply")
    func subscribeThenSnapshot() async throws {
        let directory = try TemporaryDirectory()
        let library = try Tournament.open(directory.url)
        try await library.createGame(Tournament.setup("g1"), origin: origin())
        let scorer = Tournament.player("g1", .home)
        let writer = Task {
            for _ in 0..<50 { try await library.apply(.move(player: scorer, move: .assist), to: "g1", origin: origin()) }
        }
        try await Task.sleep(for: .milliseconds(5))
        let updates = library.updates()
        var view = try library.snapshot(of: "g1")
        try await writer.value
        let final = try library.snapshot(of: "g1")
        for await update in updates where update.event.gameID == "g1" {
            if update.event.sequence <= view.sequence { continue }
            #expect(update.event.sequence == view.sequence + 1)
            view = Snapshot(value: update.game, sequence: update.event.sequence)
            if view.sequence == final.sequence { break }
        }
        #expect(view.value == final.value)
        await library.close()
    }

    @Test("status counts follow every commit, and a reopen rebuilds them from a checkpoint, its tail or the whole log")
    func statusCounts() async throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock()
        var library = try Tournament.open(directory.url, clock: clock)
        /// Counted from a snapshot, as the counts must agree with.
        func counted(_ library: GameLibrary) -> [GameStatus: Int] {
            Dictionary(grouping: library.snapshot().value, by: \.status).mapValues(\.count)
        }
        func check(_ library: GameLibrary, _ expected: [GameStatus: Int]) {
            let counts = library.statusCounts()
            #expect(counts.value == expected)
            #expect(counts.value == counted(library))
            #expect(counts.sequence == library.snapshot().sequence)
        }
        for id in ["g1", "g2", "g3"] {
            try await library.createGame(Tournament.setup(id, rules: RuleSet(timeLimit: .minutes(1))), origin: origin())
        }
        check(library, [.scheduled: 3])
        try await library.apply(.startClock, to: "g1", origin: origin())
        try await library.apply(.startClock, to: "g2", origin: origin())
        try await library.apply(.pauseClock, to: "g2", origin: origin())
        check(library, [.scheduled: 1, .running: 1, .paused: 1])
        try await library.apply(.move(player: Tournament.player("g1", .home), move: .twoPoints), to: "g1", origin: origin())
        clock.advance(seconds: 61)
        let updates = library.updates()
        await library.expireDueClocks()
        for await update in updates where update.game.status == .finished { break }
        check(library, [.scheduled: 1, .paused: 1, .finished: 1])
        await library.close()  // with a checkpoint
        /// Opens the log again: from the checkpoint and the events after it, or by a full replay.
        func reopen(restoring: Bool) throws -> GameLibrary {
            try GameLibrary(
                log: SQLiteEventLog(directory: directory.url), clock: clock,
                checkpoints: CheckpointPolicy(interval: .max, atClose: false, restore: restoring), logger: Tournament.logger)
        }
        library = try reopen(restoring: true)
        check(library, [.scheduled: 1, .paused: 1, .finished: 1])
        // Taking back g1's basket leaves a tie at time: overtime, and the game is live again.
        try await library.apply(.retract(version: 3), to: "g1", origin: origin())
        check(library, [.scheduled: 1, .paused: 2])
        await library.close()  // without one: the retraction is in the tail
        for restoring in [true, false] {
            library = try reopen(restoring: restoring)
            check(library, [.scheduled: 1, .paused: 2])
            await library.close()
        }
    }

    @Test("regulation time runs out on the library's timer, stamped by the injected clock")
    func expiryTimer() async throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock()
        let library = try Tournament.open(directory.url, clock: clock)
        try await library.createGame(Tournament.setup("g1", rules: RuleSet(timeLimit: .minutes(1))), origin: origin())
        try await library.apply(.startClock, to: "g1", origin: origin())
        try await library.apply(.move(player: Tournament.player("g1", .away), move: .twoPoints), to: "g1", origin: origin())
        clock.advance(seconds: 59)
        await library.expireDueClocks()
        #expect(try library.snapshot(of: "g1").value.status == .running)
        clock.advance(seconds: 2)
        let updates = library.updates()
        await library.expireDueClocks()
        for await update in updates {
            #expect(update.event.kind == .timeExpired)
            #expect(update.game.winner == .away)
            break
        }
        await library.close()
    }

    @Test("the timer finds a clock that runs out after a restart, and leaves a paused one alone")
    func expiryTimerAfterRestart() async throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock()
        var library = try Tournament.open(directory.url, clock: clock)
        for id in ["g1", "g2"] {
            try await library.createGame(Tournament.setup(id, rules: RuleSet(timeLimit: .minutes(1))), origin: origin())
            try await library.apply(.startClock, to: GameID(id), origin: origin())
        }
        clock.advance(seconds: 30)
        try await library.apply(.pauseClock, to: "g2", origin: origin())
        await library.close()
        // The expiries the timer looks at are rebuilt from the log, not only kept from commits.
        library = try Tournament.open(directory.url, clock: clock)
        var marks = 0
        /// Runs the timer, then waits for a commit queued after whatever it queued.
        func timer() async throws {
            await library.expireDueClocks()
            marks += 1
            try await library.createGame(Tournament.setup("mark\(marks)"), origin: origin())
        }
        clock.advance(seconds: 31)
        try await timer()
        #expect(try library.snapshot(of: "g1").value.timeExpired)
        #expect(try !library.snapshot(of: "g2").value.timeExpired)
        // Started again, the paused game has 30 s left.
        try await library.apply(.startClock, to: "g2", origin: origin())
        clock.advance(seconds: 29)
        try await timer()
        #expect(try !library.snapshot(of: "g2").value.timeExpired)
        clock.advance(seconds: 2)
        try await timer()
        #expect(try library.snapshot(of: "g2").value.timeExpired)
        await library.close()
    }

    @Test("after close, commands are refused and subscriptions end")
    func closing() async throws {
        let directory = try TemporaryDirectory()
        let library = try Tournament.open(directory.url)
        try await library.createGame(Tournament.setup("g1"), origin: origin())
        let updates = library.updates()
        await library.close()
        for await _ in updates { Issue.record("no update expected after close") }
        await expectCode(.shuttingDown) { try await library.apply(.startClock, to: "g1", origin: origin()) }
    }
}

func expectCode(
    _ code: CourtsideError.Code, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> some Any
) async {
    do {
        _ = try await body()
        Issue.record("expected \(code), but it succeeded", sourceLocation: sourceLocation)
    } catch let error as CourtsideError {
        #expect(error.code == code, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(code), got \(error)", sourceLocation: sourceLocation)
    }
}
