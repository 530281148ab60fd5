public import CourtsidePlanning

extension EventPlanner {
    /// Each division's teams, by division id: read from its registration CSV (the rows
    /// ``teams(from:file:for:of:)`` gives it) or taken from its list.
    ///
    /// `readCSV` gives the text of a CSV by the path the description names
    /// (``TeamsSource/csv(path:)``): `courtside tournament plan` reads the file beside the event's,
    /// the desk's Setup page gives the text pasted into its form. Its errors pass through as they
    /// are; a CSV that cannot be read is ``CourtsideError/Code/invalidCSV`` naming the file and
    /// the line, a list that cannot be ``CourtsideError/Code/invalidEvent`` naming the division.
    public static func teams(of event: EventDescription, readCSV: (String) throws -> String) throws
        -> [String: [RegisteredTeam]]
    {
        var teams: [String: [RegisteredTeam]] = [:]
        for division in event.divisions {
            switch division.teams {
            case .list(let listed):
                do {
                    teams[division.id] = try registered(listed)
                } catch {
                    throw EventError(error.code, "division \(division.id): \(error.message)")
                }
            case .csv(let file):
                let rows = try TeamsCSV.read(try readCSV(file), file: file)
                teams[division.id] = try Self.teams(from: rows, file: file, for: division, of: event)
            }
        }
        return teams
    }

    /// The event drawn with `seed` and fitted to its courts: ``draw(_:teams:seed:)``, then
    /// ``plan(_:venue:effort:)`` on the ``venue(_:)`` it describes.
    public static func planned(
        _ event: EventDescription, teams: [String: [RegisteredTeam]], seed: UInt64, effort: Planning.Effort = .standard
    ) throws(EventError) -> PlannedEvent {
        try plan(try draw(event, teams: teams, seed: seed), venue: try venue(event), effort: effort)
    }
}
