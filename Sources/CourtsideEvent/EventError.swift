public import CourtsideModel

/// Why an event cannot be read or drawn: the model's own error, a stable code (the event's are
/// below) and a message for people; a struct of our own would repeat it field for field.
public typealias EventError = CourtsideError

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
