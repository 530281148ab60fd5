import CourtsideModel
import Testing

@testable import CourtsideLibrary

/// The retry memory's answers kept per client: each bound forgets the right answer, whatever
/// the other bounds forgot before it, and a client forgotten whole and heard from again is
/// told apart from what it sent before.
@Suite("the retry memory's answers, kept per client")
struct RetryAnswersTests {
    static func origin(_ client: String, _ command: Int) -> CommandOrigin {
        CommandOrigin(clientID: client, commandID: "\(client)\(command)")
    }

    /// Remembers `client`'s command `command` with a receipt whose version is `command`.
    static func remember(_ answers: inout RetryAnswers, _ client: String, _ command: Int, at time: Int64) {
        let receipt = Receipt(gameID: GameID("g-\(client)"), version: command, sequence: time)
        answers.remember(origin(client, command), .settled(.success(receipt)), at: Timestamp(milliseconds: time))
    }

    static func version(_ answers: RetryAnswers, _ client: String, _ command: Int) -> Int? {
        guard case .settled(.success(let receipt)) = answers.answer(to: origin(client, command)) else { return nil }
        #expect(receipt.gameID == GameID("g-\(client)"))
        return receipt.version
    }

    @Test("the total bound skips what a client's own bound forgot, and forgets the oldest answer still held")
    func boundsMeet() {
        let window = RetryWindow(recentPerClient: 1, maximumAge: .seconds(3600), maximumPerClient: 2, maximumTotal: 4)
        var answers = RetryAnswers(window: window, forgottenCapacity: 64)
        var time: Int64 = 1_000
        func send(_ client: String, _ command: Int) {
            time += 1
            Self.remember(&answers, client, command, at: time)
        }
        // a1 leaves through a's own bound; b1 through b's; then c1 passes the total bound, which
        // meets a1's place first (forgotten already) and forgets a2, the oldest still held.
        for (client, command) in [("a", 1), ("a", 2), ("a", 3), ("b", 1), ("b", 2), ("b", 3), ("c", 1)] {
            send(client, command)
        }
        #expect(answers.count == 4)
        for (client, command) in [("a", 1), ("a", 2), ("b", 1)] {
            #expect(answers.answer(to: Self.origin(client, command)) == nil, "\(client)\(command)")
            #expect(answers.forgotten.mayContain(.init(Self.origin(client, command))))
        }
        for (client, command) in [("a", 3), ("b", 2), ("b", 3), ("c", 1)] {
            #expect(Self.version(answers, client, command) == command, "\(client)\(command)")
        }
        // a3 leaves by the total bound, and a with it; a's next command starts it again.
        send("c", 2)
        #expect(answers.answer(to: Self.origin("a", 3)) == nil)
        send("a", 4)
        // The total bound met b1's forgotten place, then forgot b2: a4 is held, as are b3, c1, c2.
        #expect(answers.count == 4)
        #expect(answers.answer(to: Self.origin("b", 2)) == nil)
        for (client, command) in [("b", 3), ("c", 1), ("c", 2), ("a", 4)] {
            #expect(Self.version(answers, client, command) == command, "\(client)\(command)")
        }
        // The same command again keeps its place: it is not a second answer.
        send("a", 4)
        #expect(answers.count == 4)
        #expect(Self.version(answers, "b", 3) == 3)
    }

    @Test("answers merged after a load keep their order: the total bound then forgets the loaded ones first")
    func mergeKeepsOrder() {
        let window = RetryWindow(recentPerClient: 100, maximumAge: .seconds(3600), maximumPerClient: 100, maximumTotal: 5)
        var loaded = RetryAnswers(window: window, forgottenCapacity: 64)
        for command in 1...3 { Self.remember(&loaded, "log", command, at: Int64(1_000 + command)) }
        var live = RetryAnswers(window: window, forgottenCapacity: 64)
        for command in 1...3 { Self.remember(&live, "live", command, at: Int64(2_000 + command)) }
        loaded.append(live)
        #expect(loaded.count == 5)
        #expect(loaded.answer(to: Self.origin("log", 1)) == nil)
        for command in 2...3 { #expect(Self.version(loaded, "log", command) == command) }
        for command in 1...3 { #expect(Self.version(loaded, "live", command) == command) }
    }

    @Test("a client's index finds every answer it holds and none it forgot, through growth and many removals")
    func indexMatchesAList() {
        // Each client keeps its last 40; ids of every length, some sent again while held (the
        // new answer then replaces the old). Receipts, some with numbers too large to pack in
        // place, and refusals.
        let window = RetryWindow(recentPerClient: 40, maximumAge: .seconds(3600), maximumPerClient: 40, maximumTotal: 1_000)
        var answers = RetryAnswers(window: window, forgottenCapacity: 1 << 12)
        var expected: [String: [String]] = [:]
        var given: [CommandOrigin: Result<Receipt, CourtsideError>] = [:]
        var random = SeededRandom(seed: 41)
        for step in 0..<3_000 {
            let client = "client-\(Int.random(in: 0..<3, using: &random))"
            let held = expected[client, default: []]
            let again = !held.isEmpty && Int.random(in: 0..<5, using: &random) == 0
            let command =
                again
                ? held[Int.random(in: 0..<held.count, using: &random)]
                : String(repeating: "x", count: Int.random(in: 0..<24, using: &random)) + "\(step)"
            let origin = CommandOrigin(clientID: client, commandID: command)
            let large = step.isMultiple(of: 11) ? Int64(1) << 41 : 0
            let answer: Result<Receipt, CourtsideError> =
                step.isMultiple(of: 7)
                ? .failure(CourtsideError(.gameFinished, "refused \(step)"))
                : .success(Receipt(gameID: GameID(command), version: step + Int(large), sequence: Int64(step) + large))
            answers.remember(origin, .settled(answer), at: Timestamp(milliseconds: 1_000 + Int64(step)))
            given[origin] = answer
            if !again {
                expected[client, default: []].append(command)
                if expected[client]!.count > 40 { expected[client]!.removeFirst() }
            }
        }
        #expect(answers.count == expected.values.map(\.count).reduce(0, +))
        for (origin, answer) in given {
            let kept = expected[origin.clientID]?.contains(origin.commandID) ?? false
            guard case .settled(let held) = answers.answer(to: origin) else {
                #expect(!kept, "\(origin) was forgotten")
                continue
            }
            #expect(kept, "\(origin) is still held")
            #expect(held == answer, "\(origin)")
        }
    }

    @Test("tickets among a client's last few: the same ticket given back, replaced in place, forgotten with their answer")
    func recentTickets() {
        let window = RetryWindow(recentPerClient: 3, maximumAge: .seconds(3600), maximumPerClient: 3, maximumTotal: 1_000)
        var answers = RetryAnswers(window: window, forgottenCapacity: 64)
        var tickets: [CommitTicket] = []
        for command in 1...5 {
            let ticket = CommitTicket()
            tickets.append(ticket)
            answers.remember(Self.origin("a", command), .ticket(ticket), at: Timestamp(milliseconds: 1_000 + Int64(command)))
            ticket.complete(.success(Receipt(gameID: "g1", version: command, sequence: Int64(command))))
        }
        // The client keeps its last 3: the first two left, each with its ticket, and the rest are
        // the very tickets given.
        #expect(answers.count == 3)
        for command in 1...2 { #expect(answers.answer(to: Self.origin("a", command)) == nil, "a\(command)") }
        for command in 3...5 {
            guard case .ticket(let held) = answers.answer(to: Self.origin("a", command)) else {
                Issue.record("a\(command) is no ticket")
                continue
            }
            #expect(held === tickets[command - 1], "a\(command)")
        }
        // Sent again: a receipt, then a refusal, then a ticket, each in place of the answer before.
        let receipt = Receipt(gameID: "g2", version: 9, sequence: 9)
        answers.remember(Self.origin("a", 4), .settled(.success(receipt)), at: Timestamp(milliseconds: 2_000))
        #expect(answers.answer(to: Self.origin("a", 4)).flatMap { try? $0.ticket.result?.get() } == receipt)
        let refusal = CourtsideError(.gameFinished, "refused")
        answers.remember(Self.origin("a", 4), .settled(.failure(refusal)), at: Timestamp(milliseconds: 2_001))
        #expect(answers.answer(to: Self.origin("a", 4))?.ticket.result == .failure(refusal))
        let again = CommitTicket()
        answers.remember(Self.origin("a", 4), .ticket(again), at: Timestamp(milliseconds: 2_002))
        guard case .ticket(let held) = answers.answer(to: Self.origin("a", 4)) else {
            Issue.record("a4 is no ticket")
            return
        }
        #expect(held === again)
        #expect(answers.count == 3)
        // A ticket in flight is kept past the client's bound; settled, it leaves with the next answer.
        answers.remember(Self.origin("a", 6), .settled(.success(receipt)), at: Timestamp(milliseconds: 2_003))
        #expect(answers.answer(to: Self.origin("a", 3)) == nil)
        #expect(answers.answer(to: Self.origin("a", 4)) != nil)
        again.complete(.success(receipt))
        answers.remember(Self.origin("a", 7), .settled(.success(receipt)), at: Timestamp(milliseconds: 2_004))
        #expect(answers.answer(to: Self.origin("a", 4)) == nil)
        #expect(answers.count == 3)
        for command in 5...7 { #expect(answers.answer(to: Self.origin("a", command)) != nil, "a\(command)") }
    }
}
