/// Why a copy of an event log, or the check of one against another, did not succeed.
public struct EventLogCopyError: Error, CustomStringConvertible, Sendable {
    enum Code: String, Sendable {
        /// The target already holds events or refusals: a copy never adds to a log.
        case targetNotEmpty = "target_not_empty"
        /// The two logs are not the same: ``EventLogCopyError/difference`` says where first.
        case logsDiffer = "logs_differ"
    }

    let code: Code
    /// What went wrong, in words.
    public let message: String
    /// Where the logs first differ, when that is what went wrong.
    public let difference: EventLogDifference?
    /// Where the error was made.
    public let file: String
    /// The line where the error was made.
    public let line: Int

    init(_ code: Code, _ message: String, difference: EventLogDifference? = nil, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.message = message
        self.difference = difference
        self.file = file
        self.line = line
    }

    /// A copy refused: the target holds events (when `hasEvents`) and `refusals` refusals.
    static func targetNotEmpty(hasEvents: Bool, refusals: Int) -> EventLogCopyError {
        let holds = [hasEvents ? "events" : nil, refusals > 0 ? "\(refusals) refusals" : nil].compactMap { $0 }
        return EventLogCopyError(
            .targetNotEmpty,
            "the target log already holds \(holds.joined(separator: " and ")); nothing was written. "
                + "Copy into an empty log (a new data directory, or a new database)")
    }

    /// The logs differ at `difference`.
    static func logsDiffer(_ difference: EventLogDifference) -> EventLogCopyError {
        EventLogCopyError(.logsDiffer, "the logs differ: \(difference)", difference: difference)
    }

    /// The stable string of this error's kind: `target_not_empty` or `logs_differ`.
    public var codeString: String { code.rawValue }

    public var description: String { "\(code.rawValue): \(message) (\(file):\(line))" }
}
