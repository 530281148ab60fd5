public import CourtsideModel

/// Why the planner cannot place the games: a stable code, a message for people and, when the
/// games do not fit, by how much.
public struct PlanningError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The model's stable error codes, with the planner's own (below).
    public typealias Code = CourtsideError.Code

    public let code: Code
    public let message: String
    /// For ``Code/doesNotFit``: how many courts, each available the whole day, the games need
    /// to end by the day's end; nil when no number of courts is enough (the longest chain of
    /// dependent games alone ends too late).
    public let courtsNeeded: Int?
    /// For ``Code/doesNotFit``: when the last game would end on the courts given, were the day
    /// longer; nil when the courts' own closing hours leave some game no room at all.
    public let endWithCourtsGiven: TimeOfDay?

    public init(_ code: Code, _ message: String, courtsNeeded: Int? = nil, endWithCourtsGiven: TimeOfDay? = nil) {
        self.code = code
        self.message = message
        self.courtsNeeded = courtsNeeded
        self.endWithCourtsGiven = endWithCourtsGiven
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

/// The planner's error codes; new ones may be added.
extension CourtsideError.Code {
    /// The games do not fit on the courts by the day's end: ``PlanningError/courtsNeeded`` and
    /// ``PlanningError/endWithCourtsGiven`` say by how much.
    public static let doesNotFit = Self(rawValue: "does_not_fit")
    /// The games cannot be planned as they are: a duplicate id, a slot naming a game or group
    /// that is not among them, one team twice in a game, or games that wait on each other.
    public static let invalidGames = Self(rawValue: "invalid_games")
    /// The venue is unusable: no courts, a court twice, hours that end before they start, a
    /// game of no length, a negative rest or changeover.
    public static let invalidVenue = Self(rawValue: "invalid_venue")
}
