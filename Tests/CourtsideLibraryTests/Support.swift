import CourtsideLibrary
import CourtsideModel
import CourtsideStorage
import Foundation
import Logging
import Synchronization

/// A clock the test moves by hand.
final class ManualClock: TimeSource {
    private let current = Mutex(Timestamp(milliseconds: 1_700_000_000_000))
    func now() -> Timestamp { current.withLock { $0 } }
    func advance(seconds: Double) { current.withLock { $0 = $0.adding(milliseconds: Int64(seconds * 1000)) } }
}

/// Wraps a log to count its transactions, to see group commit at work.
final class CountingLog: ForwardingEventLog {
    let base: any EventLog
    private let counts = Mutex((appends: 0, events: 0))
    init(_ base: any EventLog) { self.base = base }
    var appends: Int { counts.withLock { $0.appends } }
    func append(_ events: [GameEvent], refusals: [CommandRefusal]) throws {
        try base.append(events, refusals: refusals)
        counts.withLock {
            $0.appends += 1
            $0.events += events.count
        }
    }
}

/// A fresh data directory, removed when the test is done with it.
struct TemporaryDirectory: ~Copyable {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("courtside-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
}

enum Tournament {
    /// A game between two teams of three whose ids derive from the game's.
    static func setup(_ id: String, rules: RuleSet = .standard) -> GameSetup {
        func team(_ side: String) -> Team {
            Team(
                id: TeamID("\(id)-\(side)"), name: "\(side.capitalized) of \(id)",
                players: (1...3).map { Player(id: PlayerID("\(id)-\(side)\($0)"), name: "Player \($0)") })
        }
        return GameSetup(id: GameID(id), home: team("home"), away: team("away"), rules: rules)
    }

    static func player(_ game: String, _ side: Side, _ number: Int = 1) -> PlayerID {
        PlayerID("\(game)-\(side.rawValue)\(number)")
    }

    static let logger = Logger(label: "courtside.test")

    static func open(_ directory: URL, clock: any TimeSource = ManualClock()) throws -> GameLibrary {
        try GameLibrary(log: SQLiteEventLog(directory: directory), clock: clock, logger: logger)
    }
}

/// A unique origin per call.
func origin(_ client: String = "keeper", _ command: String = UUID().uuidString) -> CommandOrigin {
    CommandOrigin(clientID: client, commandID: command)
}

/// How long a library suite's test may take before it counts as hung. Alone each takes seconds;
/// but `swift test` runs these async tests in one process with the daemon suites, whose sync
/// tests hold the cooperative pool's threads (as many as the machine has cores) while they wait
/// on a daemon or a browser, a minute and more for a browser's check. An async test may wait
/// that long for a thread; a real hang still fails.
enum LibraryTestLimits {
    static let minutes = 5
}
