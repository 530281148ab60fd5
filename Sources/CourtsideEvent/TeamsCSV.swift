public import CourtsideModel

/// A team as a registration form lists it: the team and its roster, and what the draw needs to
/// know of it.
public struct RegisteredTeam: Hashable, Sendable {
    /// The team: its id, its name and its players (none when the file lists none).
    public var team: Team
    /// The organiser's seed, 1 for the best; nil when unseeded.
    public var seed: Int?
    /// Ranking points (FIBA 3x3's), more is better; nil when unknown.
    public var rankingPoints: Double?
    /// The team's club, for separation rules; nil when none.
    public var club: String?
    /// The division the team enters, when one file holds several; nil when the file does not say.
    public var division: String?

    public init(team: Team, seed: Int? = nil, rankingPoints: Double? = nil, club: String? = nil, division: String? = nil) {
        self.team = team
        self.seed = seed
        self.rankingPoints = rankingPoints
        self.club = club
        self.division = division
    }
}

/// Teams read from a registration CSV, as registration forms export them (Google Forms,
/// Tournify, FIBA 3x3 Event Maker).
///
/// The first non-blank line is the header. Columns are found by name, case-insensitively, with
/// surrounding spaces trimmed and `_` or `-` read as a space; columns of other names (a time
/// stamp, an e-mail) are ignored:
/// - `name`, `team` or `team name`: the team's name, the one column required;
/// - `id` or `team id`: the team's id; when absent or blank, one is made from the name;
/// - `players` (or `roster`): one cell of names separated by `;`, `|` or line breaks; or
///   `player 1`, `player 2`, ... `player N` columns (`player 1 name` too), in that order;
/// - `seed`: a whole number, 1 for the best;
/// - `ranking points`, `points`: a number, 0 or more;
/// - `club`; `division`.
///
/// The text is RFC 4180: quoted fields may hold separators, doubled quotes and line breaks;
/// lines end in CRLF, LF or CR; a UTF-8 byte order mark and blank lines are skipped. The
/// separator is `;` when the header line has more `;` than `,` (European Excel exports); in
/// such a file, ranking points may have a decimal comma.
///
/// An id made from a name is the name lowercased, its letters and digits kept and every other
/// run of characters made one `-`, cut to 56 bytes and made unique with `-2`, `-3`, ...; a name
/// that makes no valid id (``GameSetup/problem(withID:)``: ASCII only) gives `team-<line>`.
/// Player ids are made likewise, unique across the file (`player-<line>-<n>` when the name
/// makes none).
public enum TeamsCSV {
    /// The teams of a registration CSV, in the file's order.
    ///
    /// Nothing partial: any broken line throws `invalid_csv`, naming `file` and the line
    /// (1-based, physical lines, the header's line 1): an unclosed quote, a row with more cells
    /// than the header, a missing name, a seed that is no whole number of 1 or more, ranking
    /// points that are no number, a name or id that breaks the text or id rule, two teams
    /// with one id or one name (names compared case-insensitively). A file without a header
    /// or without a name column, or an empty file, throws too. A header without rows gives no
    /// teams.
    public static func read(_ text: String, file: String = "teams.csv") throws(EventError) -> [RegisteredTeam] {
        var scalars = Substring(text).unicodeScalars
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        let separator = separator(of: scalars)
        let records = try records(of: Array(scalars), separator: separator, file: file).filter { !$0.isBlank }
        guard let header = records.first else {
            throw EventError(.invalidCSV, "\(file): the file is empty", problem: .csv(file: file, line: nil, .empty))
        }
        let columns = try Columns(header, file: file)

        var entries: [Entry] = []
        var lineOfID: [String: Int] = [:]
        var lineOfName: [String: Int] = [:]
        for record in records.dropFirst() {
            let entry = try Entry(record, columns, decimalComma: separator == ";", file: file)
            if let id = entry.id {
                if let first = lineOfID[id] {
                    throw failure(
                        file, entry.line, "another team (line \(first)) has the id '\(id)'", .idTwice(id: id, firstLine: first))
                }
                lineOfID[id] = entry.line
            }
            // Case aside, two teams of one name are one team registered twice, or two that no
            // scoreboard could tell apart.
            let key = entry.name.lowercased()
            if let first = lineOfName[key] {
                throw failure(
                    file, entry.line, "another team (line \(first)) has the name '\(entry.name)'",
                    .nameTwice(name: entry.name, firstLine: first))
            }
            lineOfName[key] = entry.line
            entries.append(entry)
        }

        // The file's own ids are taken first, so that no id made from a name takes one that a
        // later line gives.
        var teamIDs = Set(lineOfID.keys)
        var playerIDs = Set<String>()
        var teams: [RegisteredTeam] = []
        for entry in entries {
            let id = entry.id ?? unique(madeID(entry.name) ?? "team-\(entry.line)", among: &teamIDs)
            var players: [Player] = []
            for (offset, name) in entry.players.enumerated() {
                let playerID = unique(madeID(name) ?? "player-\(entry.line)-\(offset + 1)", among: &playerIDs)
                players.append(Player(id: PlayerID(playerID), name: name))
            }
            teams.append(
                RegisteredTeam(
                    team: Team(id: TeamID(id), name: entry.name, players: players), seed: entry.seed,
                    rankingPoints: entry.rankingPoints, club: entry.club, division: entry.division))
        }
        return teams
    }
}

extension TeamsCSV {
    /// The longest id made from a name, in bytes: room is left for a `-2` ... `-9999999` within
    /// the id rule's 64.
    static let madeIDLength = 56

    /// An id made from a name, or nil when the name makes no valid one.
    static func madeID(_ name: String) -> String? {
        var id = ""
        var separated = false
        for character in name.lowercased() {
            guard character.isLetter || character.isNumber else {
                separated = true
                continue
            }
            if separated && !id.isEmpty { id.append("-") }
            separated = false
            id.append(character)
        }
        // Cut whole characters, and leave no '-' at the end.
        while id.utf8.count > madeIDLength || id.hasSuffix("-") { id.removeLast() }
        return id.isEmpty || GameSetup.problem(withID: id) != nil ? nil : id
    }

    /// `base`, or `base-2`, `base-3`, ..., the first not in `taken`, which then holds it.
    static func unique(_ base: String, among taken: inout Set<String>) -> String {
        if taken.insert(base).inserted { return base }
        var suffix = 2
        while !taken.insert("\(base)-\(suffix)").inserted { suffix += 1 }
        return "\(base)-\(suffix)"
    }

    fileprivate static func failure(_ file: String, _ line: Int, _ message: String, _ problem: CSVProblem) -> EventError {
        EventError(.invalidCSV, "\(file) line \(line): \(message)", problem: .csv(file: file, line: line, problem))
    }

    /// A value as a message may show it: quoted, or left out when it breaks the text rule (it
    /// may hold what the rule keeps out of logs and screens).
    static func shown(_ value: String) -> String {
        TextRule.problem(value, as: .line) == nil ? " '\(value)'" : ""
    }

    fileprivate static func trimmed(_ text: some StringProtocol) -> String {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }), let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(text[first...last])
    }
}

// MARK: - Records

extension TeamsCSV {
    /// A row of the file: its cells, and the physical line it starts on (1-based).
    fileprivate struct Record {
        var cells: [String]
        var line: Int

        /// No cell holds anything: an empty line, or only separators (spreadsheets export
        /// their empty rows so).
        var isBlank: Bool { cells.allSatisfy { TeamsCSV.trimmed($0).isEmpty } }
    }

    /// `;` when the header line (the first that is not blank) has more `;` than `,`.
    fileprivate static func separator(of scalars: Substring.UnicodeScalarView) -> Unicode.Scalar {
        var semicolons = 0
        var commas = 0
        var blank = true
        for scalar in scalars {
            switch scalar {
            case "\n", "\r":
                if !blank { return semicolons > commas ? ";" : "," }
            case ";": semicolons += 1
            case ",": commas += 1
            default: break
            }
            if !scalar.properties.isWhitespace { blank = false }
        }
        return semicolons > commas ? ";" : ","
    }

    /// The records of the text, RFC 4180 with the leniencies of hand-edited files: spaces
    /// before an opening or after a closing quote, and a quote inside an unquoted field kept
    /// as it is. Line breaks inside quotes become LF.
    fileprivate static func records(of scalars: [Unicode.Scalar], separator: Unicode.Scalar, file: String)
        throws(EventError) -> [Record]
    {
        var records: [Record] = []
        var cells: [String] = []
        var field = String.UnicodeScalarView()
        var line = 1
        var recordLine = 1
        // The line the open quoted field began on, for the error when it never closes.
        var quoteLine: Int?
        // The field was quoted and its quote is closed: only spaces may follow.
        var closed = false
        var index = 0

        func endField() {
            cells.append(String(field))
            field = String.UnicodeScalarView()
            closed = false
        }
        // Steps over the LF of a CRLF, so that it counts as one line end.
        func skipLineFeed(after scalar: Unicode.Scalar) {
            if scalar == "\r", index < scalars.count, scalars[index] == "\n" { index += 1 }
        }

        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if quoteLine != nil {
                switch scalar {
                case "\"" where index < scalars.count && scalars[index] == "\"":
                    field.append("\"")
                    index += 1
                case "\"":
                    quoteLine = nil
                    closed = true
                case "\r", "\n":
                    skipLineFeed(after: scalar)
                    field.append("\n")
                    line += 1
                default:
                    field.append(scalar)
                }
                continue
            }
            switch scalar {
            case separator:
                endField()
            case "\r", "\n":
                skipLineFeed(after: scalar)
                endField()
                records.append(Record(cells: cells, line: recordLine))
                cells = []
                line += 1
                recordLine = line
            case "\"" where !closed && field.allSatisfy({ $0 == " " || $0 == "\t" }):
                field = String.UnicodeScalarView()
                quoteLine = line
            case " " where closed, "\t" where closed:
                break
            default:
                if closed { throw failure(file, line, "text after the closing quote of a quoted field", .textAfterQuote) }
                field.append(scalar)
            }
        }
        if let quoteLine { throw failure(file, quoteLine, "a quoted field is never closed", .quoteNeverClosed) }
        // The last line, when the file does not end with a line break.
        if !cells.isEmpty || !field.isEmpty || closed {
            endField()
            records.append(Record(cells: cells, line: recordLine))
        }
        return records
    }
}

// MARK: - Columns

extension TeamsCSV {
    /// What a column holds.
    fileprivate enum Field: Hashable {
        case id, name, players, seed, rankingPoints, club, division
        /// One player of `player 1`, `player 2`, ...
        case player(Int)

        /// The field of a column's header, nil when the reader has no use for it.
        init?(header: String) {
            // "Team_Name", " team-name " and "TEAM  NAME" are one header.
            let key = String(header.lowercased().map { $0 == "_" || $0 == "-" ? " " : $0 })
                .split(whereSeparator: \.isWhitespace).joined(separator: " ")
            switch key {
            case "name", "team", "team name": self = .name
            case "id", "team id": self = .id
            case "players", "roster": self = .players
            case "seed": self = .seed
            case "ranking points", "points": self = .rankingPoints
            case "club": self = .club
            case "division": self = .division
            default:
                // "player 1", "player1", "player #1", "player 1 name".
                guard key.hasPrefix("player") else { return nil }
                var number = Substring(key.dropFirst("player".count))
                if number.hasSuffix(" name") { number = number.dropLast(" name".count) }
                number = Substring(TeamsCSV.trimmed(number))
                if number.hasPrefix("#") { number = Substring(TeamsCSV.trimmed(number.dropFirst())) }
                guard !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isWholeNumber }), let value = Int(number) else {
                    return nil
                }
                self = .player(value)
            }
        }

        /// The field as a message names it.
        var label: String {
            switch self {
            case .id: "the team id"
            case .name: "the team's name"
            case .players: "the players"
            case .seed: "the seed"
            case .rankingPoints: "the ranking points"
            case .club: "the club"
            case .division: "the division"
            case .player(let number): "player \(number)"
            }
        }
    }

    /// Where each field is in a row.
    fileprivate struct Columns {
        /// Each field's column, 0-based.
        var index: [Field: Int] = [:]
        /// The `player N` columns' numbers, in order.
        var playerNumbers: [Int] = []
        /// The header's cells, so the most a row may have.
        var count: Int

        init(_ header: Record, file: String) throws(EventError) {
            count = header.cells.count
            for (column, cell) in header.cells.enumerated() {
                guard let field = Field(header: cell) else { continue }
                // Two columns for one field: which to read would be a guess.
                if let other = index[field] {
                    throw TeamsCSV.failure(
                        file, header.line, "columns \(other + 1) and \(column + 1) both hold \(field.label)",
                        .columnTwice(first: other + 1, second: column + 1))
                }
                index[field] = column
                if case .player(let number) = field { playerNumbers.append(number) }
            }
            playerNumbers.sort()
            guard index[.name] != nil else {
                throw TeamsCSV.failure(
                    file, header.line, "the header has no name column (name, team or team name)", .noNameColumn)
            }
            if index[.players] != nil, !playerNumbers.isEmpty {
                throw TeamsCSV.failure(
                    file, header.line, "the header has both a players column and player 1, player 2, ... columns; keep one",
                    .playersTwice)
            }
        }
    }
}

// MARK: - Rows

extension TeamsCSV {
    /// A row's team, checked, before its ids are made.
    fileprivate struct Entry {
        var line: Int
        /// The id the file gives; nil when one is to be made from the name.
        var id: String?
        var name: String
        var players: [String]
        var seed: Int?
        var rankingPoints: Double?
        var club: String?
        var division: String?

        init(_ record: Record, _ columns: Columns, decimalComma: Bool, file: String) throws(EventError) {
            let line = record.line
            func fail(_ message: String, _ problem: CSVProblem) -> EventError { TeamsCSV.failure(file, line, message, problem) }
            // A cell, trimmed; nil when blank or beyond the row's end (short rows are read as
            // if their last cells were blank).
            func value(_ field: Field) -> String? {
                guard let column = columns.index[field], column < record.cells.count else { return nil }
                let value = TeamsCSV.trimmed(record.cells[column])
                return value.isEmpty ? nil : value
            }
            func text(_ field: Field, _ label: String, _ cell: CSVField) throws(EventError) -> String? {
                guard let text = value(field) else { return nil }
                if let problem = TextRule.problem(text, as: .line) { throw fail("\(label): \(problem)", .unusableText(cell)) }
                return text
            }

            guard record.cells.count <= columns.count else {
                throw fail(
                    "\(record.cells.count) cells, but the header has \(columns.count) columns",
                    .tooManyCells(cells: record.cells.count, columns: columns.count))
            }
            self.line = line
            guard let name = try text(.name, "name", .name) else { throw fail("the team has no name", .noName) }
            self.name = name

            if let id = value(.id), let problem = GameSetup.problem(withID: id) {
                throw fail("id: \(problem) (team ids follow the rule for game ids)", .unusableID)
            }
            id = value(.id)

            players = []
            if let cell = value(.players) {
                let names = cell.split(whereSeparator: { $0 == ";" || $0 == "|" || $0 == "\n" }).map(TeamsCSV.trimmed)
                for (offset, name) in names.filter({ !$0.isEmpty }).enumerated() {
                    if let problem = TextRule.problem(name, as: .line) {
                        throw fail("player \(offset + 1): \(problem)", .unusableText(.player(offset + 1)))
                    }
                    players.append(name)
                }
            }
            for number in columns.playerNumbers {
                if let name = try text(.player(number), "player \(number)", .player(number)) { players.append(name) }
            }

            if let text = value(.seed) {
                guard text.allSatisfy({ $0.isASCII && $0.isWholeNumber }), let seed = Int(text), seed >= 1 else {
                    throw fail("seed\(TeamsCSV.shown(text)) is not a whole number of 1 or more", .badSeed)
                }
                self.seed = seed
            }

            if let text = value(.rankingPoints) {
                guard let points = Self.number(text, decimalComma: decimalComma) else {
                    throw fail("ranking points\(TeamsCSV.shown(text)) are not a number of 0 or more", .badPoints)
                }
                rankingPoints = points
            }

            club = try text(.club, "club", .club)
            division = try text(.division, "division", .division)
        }

        /// Digits with at most one decimal point (or comma, in a `;` file), nothing else:
        /// `Double(_:)` alone would take "nan", "-1", "1e9" and hexadecimal.
        static func number(_ text: String, decimalComma: Bool) -> Double? {
            let text = decimalComma && !text.contains(".") ? String(text.map { $0 == "," ? "." : $0 }) : text
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isWholeNumber } })
            else { return nil }
            return Double(text)
        }
    }
}
