public import CourtsideModel

/// Why an event cannot be read or drawn: a stable code (the model's, and the event's below), a
/// message for people in English (what `courtside tournament plan` prints), and, for what an
/// organiser meets at the desk (a registration CSV's line, a day the games do not fit), the
/// same problem typed with its values, so a page can word it in its own language.
public struct EventError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The model's stable error codes, with the event's own (below).
    public typealias Code = CourtsideError.Code

    public let code: Code
    public let message: String
    /// The problem with its values; nil for one only said in ``message``.
    public let problem: EventProblem?

    public init(_ code: Code, _ message: String, problem: EventProblem? = nil) {
        (self.code, self.message, self.problem) = (code, message, problem)
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

/// The event's error codes; new ones may be added.
extension CourtsideError.Code {
    /// A registration CSV cannot be read: a broken line, a header without a name column, a bad
    /// value, or two teams with one id or name. The message names the file and the line:
    /// "teams.csv line 7: a quoted field is never closed".
    public static let invalidCSV = Self(rawValue: "invalid_csv")
    /// The event's description is unusable (its divisions, teams, formats, courts or hours);
    /// the message says what is wrong.
    public static let invalidEvent = Self(rawValue: "invalid_event")
}
