/// Where and when the games are played: the courts and their hours, the day, the length of a
/// game's slot and the rest a team has between its games.
public struct Venue: Hashable, Sendable {
    /// The courts, in the order the organiser names them (ties go to the first).
    public var courts: [Court]
    /// When the first game may start.
    public var start: TimeOfDay
    /// When the last game must have ended: midnight when the organiser gives no end.
    public var end: TimeOfDay
    /// A game's length on the clock of the day, in minutes.
    public var gameMinutes: Int
    /// The time between one game's end and the next game's start on a court, in minutes.
    public var changeoverMinutes: Int
    /// The least time a team has between the end of one of its games and the start of its next.
    public var restMinutes: Int

    public init(
        courts: [Court], start: TimeOfDay, end: TimeOfDay = .endOfDay, gameMinutes: Int, changeoverMinutes: Int,
        restMinutes: Int
    ) {
        self.courts = courts
        self.start = start
        self.end = end
        self.gameMinutes = gameMinutes
        self.changeoverMinutes = changeoverMinutes
        self.restMinutes = restMinutes
    }

    /// A game's slot on a court: its length plus the changeover.
    public var slotMinutes: Int { gameMinutes + changeoverMinutes }
}

/// A court and the hours it can be played on.
public struct Court: Hashable, Sendable {
    public var name: String
    /// When the court is available, in order; empty for the whole day.
    public var hours: [Hours]

    public init(_ name: String, hours: [Hours] = []) {
        self.name = name
        self.hours = hours
    }

    /// A court available from `from` (the day's start when nil) until `until` (the day's end when nil).
    public init(_ name: String, from: TimeOfDay?, until: TimeOfDay? = nil) {
        self.init(name, hours: [Hours(from: from, until: until)])
    }
}

/// A stretch of time a court is available: a game starts at `from` or later and ends by `until`.
public struct Hours: Hashable, Sendable {
    /// The day's start when nil.
    public var from: TimeOfDay?
    /// The day's end when nil.
    public var until: TimeOfDay?

    public init(from: TimeOfDay? = nil, until: TimeOfDay? = nil) {
        self.from = from
        self.until = until
    }
}
