public import CourtsideModel

/// A court and a start for every game, and the figures that say how good the plan is.
public struct Plan: Hashable, Sendable {
    /// Where and when one game is played.
    public struct Placement: Hashable, Sendable {
        public let game: GameID
        public let court: String
        public let start: TimeOfDay
        /// When the game ends: its start plus the game's length (the changeover follows).
        public let end: TimeOfDay
    }

    /// One placement per game, in the order the games were given.
    public let placements: [Placement]
    public let figures: PlanFigures

    /// Where and when `game` is played, or nil when it is not among the plan's games.
    public func placement(of game: GameID) -> Placement? { placements.first { $0.game == game } }

    /// `games` with the court and start of their placement (as `HH:MM`); a game the plan does
    /// not hold is left as it is.
    public func applied(to games: [ScheduledGame]) -> [ScheduledGame] {
        let byID = Dictionary(placements.map { ($0.game, $0) }, uniquingKeysWith: { first, _ in first })
        return games.map { game in
            guard let placement = byID[game.id] else { return game }
            var placed = game
            placed.court = placement.court
            placed.start = placement.start.description
            return placed
        }
    }
}

/// How good a plan is, beside what no plan can beat. Waits and rests are counted for every team
/// that could be in a game: a ``Slot/winner(of:)`` from the game it comes from, a
/// ``Slot/groupRank(group:rank:)`` from the last game of each team of the group.
public struct PlanFigures: Hashable, Sendable {
    /// When the day starts.
    public let start: TimeOfDay
    /// When the last game ends.
    public let end: TimeOfDay
    /// No plan ends earlier: the largest of ``capacityBound``, ``chainBound`` and what they
    /// give together (the games that still have a long chain after them must all have started
    /// by the time the courts could start that many games).
    public let lowerBound: TimeOfDay
    /// The courts' capacity alone: the end of the last game if the courts ran back to back
    /// through their hours, ignoring teams and the order of games.
    public let capacityBound: TimeOfDay
    /// The longest chain of dependent games alone, with the rests between them, and each
    /// team's own games with rests between them.
    public let chainBound: TimeOfDay
    /// The longest a team waits between the end of one game and the start of its next, in minutes.
    public let longestWait: Int?
    /// The median over teams of each team's longest wait, in minutes: against ``longestWait``,
    /// how far the worst-off team is from the others.
    public let medianLongestWait: Int?
    /// The shortest rest of a team between two of its games, in minutes (a dependent game
    /// counts from the end of every game that feeds it).
    public let smallestRest: Int?
    /// The most games one team plays on one court.
    public let mostGamesOnOneCourt: Int
    /// Games a team plays on a court it has played on before, beyond those it must (when it has
    /// more games than there are courts): 0 when every game of every team is on a new court.
    /// Not always reachable: a pool of 4 playing its 3 rounds on 4 courts repeats one.
    public let courtRepeats: Int
    /// When each division's last game ends.
    public let divisionEnds: [String: TimeOfDay]

    /// The day's length against its lower bound's, from the day's start: 1.0 is a plan no
    /// other can beat.
    public var ratio: Double {
        let bound = lowerBound.minutes - start.minutes
        return bound > 0 ? Double(end.minutes - start.minutes) / Double(bound) : 1
    }
}
