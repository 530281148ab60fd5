import Logging
import Synchronization
import Testing

@testable import CourtsideWeb

@Suite("the gateway's log: a connection closed mid-upgrade is no error")
struct UpgradeEndLogHandlerTests {
    /// What reached the recorder, level and message.
    final class Lines: Sendable {
        let mutex = Mutex<[(Logger.Level, String)]>([])
        var all: [(Logger.Level, String)] { mutex.withLock { $0 } }
    }

    /// Keeps what reaches it, as the gateway's stream handler would print it.
    struct Recorder: LogHandler {
        let lines: Lines
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?
        var logLevel: Logger.Level

        init(level: Logger.Level, into lines: Lines) {
            (self.logLevel, self.lines) = (level, lines)
        }

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            lines.mutex.withLock { $0.append((event.level, event.message.description)) }
        }
    }

    private func logged(at level: Logger.Level, _ body: (Logger) -> Void) -> [(Logger.Level, String)] {
        let lines = Lines()
        let logger = Logger(label: "test") { _ in Recorder(level: level, into: lines) }
        body(logger.quietingUpgradeEnds)
        return lines.all
    }

    @Test("at the default info level the library's line is not written; other errors are")
    func infoLevel() {
        let lines = logged(at: .info) { logger in
            logger.error("Error handling upgrade result", metadata: ["error.type": "inappropriateOperationForState"])
            logger.error("Something else failed")
            logger.info("Server started")
        }
        #expect(lines.map(\.1) == ["Something else failed", "Server started"])
        #expect(lines.map(\.0) == [.error, .info])
    }

    @Test("at debug level the library's line is written at debug")
    func debugLevel() {
        let lines = logged(at: .debug) { logger in
            logger.error("Error handling upgrade result")
            logger.warning("Error handling upgrade result, and more")
        }
        #expect(lines.map(\.0) == [.debug, .warning], "only the exact line is demoted")
    }

    @Test("the wrapped logger keeps its level and metadata")
    func passesThrough() {
        var logger = Logger(label: "test") { _ in Recorder(level: .notice, into: Lines()) }
        logger[metadataKey: "peer"] = "10.0.0.7"
        let quiet = logger.quietingUpgradeEnds
        #expect(quiet.logLevel == .notice)
        #expect(quiet[metadataKey: "peer"] == "10.0.0.7")
    }
}
