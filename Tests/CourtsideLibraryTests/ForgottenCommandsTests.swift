import CourtsideModel
import CourtsideStorage
import Foundation
import Testing

@testable import CourtsideLibrary

/// The retry memory never forgets that it forgot a command: a retry from beyond the window is
/// always told apart from a new command, however many were forgotten, and new commands rarely
/// pay a look-up in the log.
@Suite("the retry memory's filter of forgotten commands", .timeLimit(.minutes(LibraryTestLimits.minutes)))
struct ForgottenCommandsTests {
    /// A filter of 256 commands, far too small for the 20,000 forgotten here: one that did not
    /// grow would answer yes to nearly everything.
    static let capacity = 256

    static func never(_ count: Int) -> [CommandOrigin] {
        (0..<count).map { CommandOrigin(clientID: "stranger", commandID: "never-\($0)") }
    }

    /// The share of `origins` that the memory wrongly sends to the log: the same on every run, since
    /// the filter's hash is not seeded.
    static func falsePositives(_ origins: [CommandOrigin], _ sentToLog: (CommandOrigin) -> Bool) -> Double {
        Double(origins.filter(sentToLog).count) / Double(origins.count)
    }

    @Test("a filter that fills up starts a larger one: nothing is lost, and false positives stay rare")
    func scales() {
        var filter = ForgottenCommands(firstCapacity: Self.capacity)
        #expect(filter.isEmpty && filter.generations == 0)
        let forgotten = (0..<20_000).map { CommandOrigin(clientID: "court-\($0 % 7)", commandID: "\($0)") }
        for origin in forgotten { filter.insert(.init(origin)) }
        #expect(forgotten.allSatisfy { filter.mayContain(.init($0)) })
        // 256, 512, ... 16,384: seven filters, each twice the one before, hold 20,000.
        #expect(filter.generations == 7)
        // Each full filter is wrong about 0.24% of the time, so about 1.5% in all.
        let rate = Self.falsePositives(Self.never(20_000)) { filter.mayContain(.init($0)) }
        #expect(rate < 0.03, "false positive rate \(rate)")
    }

    @Test("filters of the loader and of the live memory merge without losing any command")
    func merges() {
        let loaded = (0..<3_000).map { CommandOrigin(clientID: "log", commandID: "\($0)") }
        let live = (0..<700).map { CommandOrigin(clientID: "live", commandID: "\($0)") }
        var merged = ForgottenCommands(firstCapacity: Self.capacity)
        for origin in loaded { merged.insert(.init(origin)) }
        var other = ForgottenCommands(firstCapacity: Self.capacity)
        for origin in live { other.insert(.init(origin)) }
        // 256 + 512 + 1024 + 2048 for the log, 256 + 512 live: the first live filter fits
        // nowhere (the log's first is full), so both lists are kept.
        #expect(merged.generations == 4 && other.generations == 2)
        merged.formUnion(other)
        #expect(merged.generations == 6)
        #expect((loaded + live).allSatisfy { merged.mayContain(.init($0)) })
        // Still growing from the largest: what comes next goes to a filter of its own.
        let later = (0..<2_000).map { CommandOrigin(clientID: "later", commandID: "\($0)") }
        for origin in later { merged.insert(.init(origin)) }
        #expect((loaded + live + later).allSatisfy { merged.mayContain(.init($0)) })
        let rate = Self.falsePositives(Self.never(20_000)) { merged.mayContain(.init($0)) }
        #expect(rate < 0.03, "false positive rate \(rate)")

        // Two partly filled filters of one size become one.
        var small = ForgottenCommands(firstCapacity: Self.capacity)
        var smaller = ForgottenCommands(firstCapacity: Self.capacity)
        for origin in loaded.prefix(100) { small.insert(.init(origin)) }
        for origin in live.prefix(100) { smaller.insert(.init(origin)) }
        small.formUnion(smaller)
        #expect(small.generations == 1)
        #expect((loaded.prefix(100) + live.prefix(100)).allSatisfy { small.mayContain(.init($0)) })
    }

    /// A window of ten answers: all but the last ten commands are forgotten.
    static let window = RetryWindow(recentPerClient: 1, maximumAge: .seconds(3600), maximumPerClient: 10, maximumTotal: 10)

    static func receipt(_ number: Int) -> CommitTicket {
        CommitTicket(settled: .success(Receipt(gameID: "g1", version: number, sequence: Int64(number))))
    }

    @Test("every command the memory forgot is still reported, and its filters grew")
    func memoryForgetsNothing() {
        let memory = RetryMemory(window: Self.window, forgottenCapacity: 64)
        let sent = (0..<5_000).map { CommandOrigin(clientID: "court-\($0 % 3)", commandID: "\($0)") }
        for (number, origin) in sent.enumerated() {
            memory.remember(origin, Self.receipt(number), at: Timestamp(milliseconds: 1_000 + Int64(number)))
        }
        #expect(memory.count == 10)
        // Each command sent is remembered, or sent to the log: none is taken for new.
        for origin in sent {
            #expect(memory.recall(origin) == (memory.answer(to: origin) == nil ? .askLog(loading: false) : .remembered))
        }
        #expect(memory.forgottenGenerations > 5)
        // Strangers are new, but for the filter's false positives.
        let rate = Self.falsePositives(Self.never(20_000)) { memory.recall($0) != .new }
        #expect(rate < 0.03, "false positive rate \(rate)")
    }

    @Test("commands forgotten while the memory loads, and those the loader forgot, are all reported once it is loaded")
    func loadingForgetsNothing() async throws {
        let directory = try TemporaryDirectory()
        let base = try SQLiteEventLog(directory: directory.url)
        let logged = (0..<3_000).map { CommandOrigin(clientID: "before", commandID: "\($0)") }
        try base.append(
            [],
            refusals: logged.enumerated().map { number, origin in
                CommandRefusal(
                    gameID: "g1", origin: origin, at: Timestamp(milliseconds: 1_000 + Int64(number)),
                    error: CourtsideError(.clockNotRunning, "the clock is not running"))
            })
        let log = GatedLog(base)
        let memory = RetryMemory(window: Self.window, loading: true, forgottenCapacity: 64)
        memory.load(from: log, expected: logged.count, logger: Tournament.logger)
        // While the loader waits at the gate, the live memory forgets commands of its own.
        let live = (0..<700).map { CommandOrigin(clientID: "after", commandID: "\($0)") }
        for (number, origin) in live.enumerated() {
            memory.remember(origin, Self.receipt(number), at: Timestamp(milliseconds: 10_000 + Int64(number)))
        }
        #expect(memory.isLoading)
        // While it loads, only the log can tell a command it does not hold from a retry.
        #expect(memory.recall(logged[0]) == .askLog(loading: true))
        #expect(memory.recall(live[live.count - 1]) == .remembered)
        log.open()
        #expect(await memory.waitUntilLoaded())
        #expect(memory.count == 10)
        let lost = (logged + live).filter { memory.recall($0) == .new }
        #expect(lost.isEmpty, "\(lost.count) lost, such as \(lost.prefix(3))")
        #expect(memory.forgottenGenerations > 4)
        // Ten filters, eight of them full: about 2.2%.
        let rate = Self.falsePositives(Self.never(20_000)) { memory.recall($0) != .new }
        #expect(rate < 0.03, "false positive rate \(rate)")
        try log.close()
    }
}

@Suite("the retry memory's settled answers")
struct SettledAnswersTests {
    @Test("answers further back than a client's last few keep their result, not their ticket, and answer the same")
    func settledInPlace() {
        let window = RetryWindow(
            recentPerClient: 10_000, maximumAge: .seconds(3600), maximumPerClient: 10_000, maximumTotal: 100_000)
        let memory = RetryMemory(window: window)
        let kept = 256
        let sent = (0..<(kept + 40)).map { CommandOrigin(clientID: "court-1", commandID: "\($0)") }
        var tickets: [CommitTicket] = []
        for (number, origin) in sent.enumerated() {
            let ticket = CommitTicket()
            tickets.append(ticket)
            memory.remember(origin, ticket, at: Timestamp(milliseconds: 1_000 + Int64(number)))
            // Every command but the first is settled as soon as it is sent: the first stays in flight.
            if number > 0 {
                ticket.complete(.success(Receipt(gameID: "g1", version: number, sequence: Int64(number))))
            }
        }
        // Passed by the client's last `kept`: settled ones keep their result; the one in flight its ticket.
        #expect(!memory.keepsResultOnly(sent[0]))
        #expect(memory.answer(to: sent[0]) === tickets[0])
        for origin in sent[1..<40] { #expect(memory.keepsResultOnly(origin), "\(origin)") }
        for origin in sent[40...] { #expect(!memory.keepsResultOnly(origin), "\(origin)") }
        // The same answers either way.
        for (number, origin) in sent.enumerated().dropFirst() {
            #expect(
                memory.answer(to: origin)?.result == .success(Receipt(gameID: "g1", version: number, sequence: Int64(number))))
        }
    }
}
