public import CourtsidePlanning

/// A problem of an event an organiser can mend, with its values: what ``EventError/message``
/// says in English, for a page to word in its own language.
public enum EventProblem: Hashable, Sendable {
    /// A registration CSV's problem, on `line` of `file` (nil: the file as a whole).
    case csv(file: String, line: Int?, CSVProblem)
    /// `games` games do not fit on `courts` courts by `end`: they need `courtsNeeded` courts
    /// available all day (nil: no number is enough), or until `until` on the courts given (nil:
    /// the courts' closing hours leave some game no room).
    case doesNotFit(games: Int, courts: Int, end: TimeOfDay, courtsNeeded: Int?, until: TimeOfDay?)
    /// The format of the division named `division` cannot draw its `teams` teams.
    case format(division: String, teams: Int, FormatProblem)
}

/// Why a division's format cannot draw its teams.
public enum FormatProblem: Hashable, Sendable {
    /// Too few teams for the format (`too_few_teams`).
    case tooFewTeams
    /// More teams than the format can draw (`too_many_teams`).
    case tooManyTeams
    /// Options that do not suit the teams (pools, qualifiers, rounds): the message details them.
    case options
}

/// What is wrong with a line of a registration CSV.
public enum CSVProblem: Hashable, Sendable {
    /// The file holds nothing, not even a header.
    case empty
    /// A quoted field opened on this line is never closed.
    case quoteNeverClosed
    /// Text after the closing quote of a quoted field.
    case textAfterQuote
    /// A row with more cells than the header has columns.
    case tooManyCells(cells: Int, columns: Int)
    /// Two columns (1-based) of the header hold one field.
    case columnTwice(first: Int, second: Int)
    /// The header has no name column.
    case noNameColumn
    /// The header has both a players column and numbered player columns.
    case playersTwice
    /// The row's team has no name.
    case noName
    /// A cell breaks the text rule (a control character, too long, ...).
    case unusableText(CSVField)
    /// The team id breaks the rule for ids.
    case unusableID
    /// The seed is not a whole number of 1 or more.
    case badSeed
    /// The ranking points are not a number of 0 or more.
    case badPoints
    /// Another team, on `firstLine`, has this `id`.
    case idTwice(id: String, firstLine: Int)
    /// Another team, on `firstLine`, has this `name`.
    case nameTwice(name: String, firstLine: Int)
    /// The `team`'s division cell names none of the event's `divisions` (listed by id and name).
    case unknownDivision(team: String, divisions: String)
    /// The `team`'s division cell names more than one of `divisions`.
    case severalDivisions(team: String, divisions: String)
    /// The `team`'s division takes its teams from another file or its list.
    case divisionElsewhere(team: String, division: String)
    /// The `team` names no division, and the `divisions` listed read the file.
    case noDivision(team: String, divisions: String)
}

/// A cell of a registration CSV's row a problem is about.
public enum CSVField: Hashable, Sendable {
    case name
    case club
    case division
    /// The `number`th player (1-based), from a players cell or a numbered player column.
    case player(Int)
}
