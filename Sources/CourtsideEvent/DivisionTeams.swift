public import CourtsideModel

extension EventPlanner {
    /// The rows of a registration CSV that enter `division`: those whose division cell names it,
    /// by its id or its name, case aside (`open`, `Open`, `OPEN`); and, when `division` is the
    /// only division of the event that reads `file`, those whose cell is empty.
    ///
    /// Every row is checked, whichever division asks, so that no team drops out unseen. Throws
    /// ``CourtsideError/Code/invalidCSV``, naming `file` and the team, for a row whose division
    /// is none of the event's (the message lists them), names two of them, or names one that
    /// takes its teams from elsewhere; and for a row without a division in a file that two or
    /// more divisions read. `file` is the path as the description gives it
    /// (``TeamsSource/csv(path:)``), which is how the divisions reading one file are found.
    public static func teams(
        from rows: [RegisteredTeam], file: String, for division: DivisionDescription, of event: EventDescription
    ) throws(EventError) -> [RegisteredTeam] {
        let readers = event.divisions.filter { $0.id == division.id || $0.teams == .csv(path: file) }
        func failure(_ row: RegisteredTeam, _ message: String, _ problem: CSVProblem) -> EventError {
            EventError(
                .invalidCSV, "\(file): team \(row.team.name): \(message)", problem: .csv(file: file, line: nil, problem))
        }
        func listed(_ divisions: [DivisionDescription]) -> String {
            divisions.map { $0.name == $0.id ? $0.id : "\($0.id) (\($0.name))" }.joined(separator: ", ")
        }
        var entering: [RegisteredTeam] = []
        for row in rows {
            let target: DivisionDescription
            if let cell = row.division {
                let key = cell.lowercased()
                let named = event.divisions.filter { $0.id.lowercased() == key || $0.name.lowercased() == key }
                guard let only = named.first else {
                    throw failure(
                        row, "division\(TeamsCSV.shown(cell)) is none of the event's divisions (\(listed(event.divisions)))",
                        .unknownDivision(team: row.team.name, divisions: listed(event.divisions)))
                }
                guard named.count == 1 else {
                    throw failure(
                        row, "division\(TeamsCSV.shown(cell)) names divisions \(listed(named)): give its id",
                        .severalDivisions(team: row.team.name, divisions: listed(named)))
                }
                guard readers.contains(where: { $0.id == only.id }) else {
                    let source =
                        switch only.teams {
                        case .csv(let path): "from \(path)"
                        case .list: "from its list in the event's description"
                        }
                    throw failure(
                        row, "division \(only.id) takes its teams \(source), not from \(file)",
                        .divisionElsewhere(team: row.team.name, division: only.name))
                }
                target = only
            } else {
                guard readers.count == 1 else {
                    throw failure(
                        row, "no division, and divisions \(listed(readers)) read \(file): give the team's in its division column",
                        .noDivision(team: row.team.name, divisions: listed(readers)))
                }
                target = division
            }
            if target.id == division.id { entering.append(row) }
        }
        return entering
    }
}
