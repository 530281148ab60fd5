import CourtsideEvent
import CourtsideModel
import Testing

/// One registration CSV read by several divisions: each row goes to the division its cell names,
/// by id or name, case aside; a row that would go nowhere, or everywhere, is an error.
@Suite("A shared CSV split by division")
struct DivisionTeamsTests {
    static let format = FormatDescription(.roundRobin)

    /// Open and Women read `teams.csv`; U18 lists its teams.
    static func event(sharing file: String = "teams.csv", readers: [String] = ["open", "women"]) -> EventDescription {
        func teams(_ id: String) -> TeamsSource {
            readers.contains(id) ? .csv(path: file) : .list([ListedTeam(name: "\(id) team", players: ["P"])])
        }
        return EventDescription(
            tournament: "Summer 3x3", courts: [CourtDescription("Court 1")], start: "09:00", gameMinutes: 10,
            divisions: [
                DivisionDescription(id: "open", name: "Open", teams: teams("open"), format: format),
                DivisionDescription(id: "women", name: "Women", teams: teams("women"), format: format),
                DivisionDescription(id: "u18", name: "Under 18", teams: teams("u18"), format: format),
            ])
    }

    static func row(_ name: String, _ division: String?) -> RegisteredTeam {
        RegisteredTeam(
            team: Team(id: TeamID(name.lowercased()), name: name, players: [Player(id: PlayerID("\(name)-p"), name: "P")]),
            division: division)
    }

    /// Each division's names of the rows it takes, or the error.
    static func split(_ rows: [RegisteredTeam], _ event: EventDescription, file: String = "teams.csv") throws(EventError)
        -> [String: [String]]
    {
        var names: [String: [String]] = [:]
        for division in event.divisions where division.teams == .csv(path: file) {
            names[division.id] = try EventPlanner.teams(from: rows, file: file, for: division, of: event).map(\.team.name)
        }
        return names
    }

    static func error(_ rows: [RegisteredTeam], _ event: EventDescription) -> EventError? {
        do {
            _ = try split(rows, event)
            return nil
        } catch { return error }
    }

    @Test("a row's division matches a division's id or name, case aside")
    func matchesIDOrName() throws {
        let rows = [
            Self.row("Hawks", "open"), Self.row("Owls", "Open"), Self.row("Lions", "OPEN"), Self.row("Stars", "women"),
            Self.row("Comets", "WOMEN"), Self.row("Moons", "Women"),
        ]
        #expect(
            try Self.split(rows, Self.event()) == ["open": ["Hawks", "Owls", "Lions"], "women": ["Stars", "Comets", "Moons"]])
        // A name of several words, in another case, is the division's too.
        let under18 = Self.event(readers: ["open", "u18"])
        #expect(
            try Self.split([Self.row("Kids", "under 18"), Self.row("Hawks", "Open")], under18)
                == ["open": ["Hawks"], "u18": ["Kids"]])
    }

    @Test("a row naming no division of the event is an error naming the file, the team and the known divisions")
    func unknownDivision() throws {
        for division in ["Opne", "mixed", "open women"] {
            let error = try #require(Self.error([Self.row("Hawks", "open"), Self.row("Owls", division)], Self.event()))
            #expect(error.code == .invalidCSV)
            #expect(
                error.message
                    == "teams.csv: team Owls: division '\(division)' is none of the event's divisions (open (Open), women (Women), u18 (Under 18))"
            )
        }
    }

    @Test("a row without a division in a file two divisions read is an error naming the team")
    func emptyCellInASharedFile() throws {
        let error = try #require(Self.error([Self.row("Hawks", "open"), Self.row("Owls", nil)], Self.event()))
        #expect(error.code == .invalidCSV)
        #expect(
            error.message.hasPrefix("teams.csv: team Owls: no division, and divisions open (Open), women (Women) read teams.csv"))
        // Whichever division asks first: the women's call finds the open file's row too.
        let women = try #require(Self.event().divisions.first { $0.id == "women" })
        #expect(throws: EventError.self) {
            try EventPlanner.teams(from: [Self.row("Owls", nil)], file: "teams.csv", for: women, of: Self.event())
        }
    }

    @Test("with one division reading the file, a row without a division is that division's")
    func emptyCellInAFileOfOne() throws {
        let event = Self.event(readers: ["open"])
        #expect(try Self.split([Self.row("Hawks", nil), Self.row("Owls", "Open")], event) == ["open": ["Hawks", "Owls"]])
        // Another division's file is another file.
        var withOwn = Self.event(readers: ["open"])
        withOwn.divisions[1].teams = .csv(path: "women.csv")
        #expect(try Self.split([Self.row("Hawks", nil)], withOwn) == ["open": ["Hawks"]])
        #expect(try Self.split([Self.row("Stars", nil)], withOwn, file: "women.csv") == ["women": ["Stars"]])
    }

    @Test("a row naming a division that takes its teams from elsewhere, or two divisions, is an error too")
    func elsewhereOrAmbiguous() throws {
        let elsewhere = try #require(Self.error([Self.row("Kids", "u18")], Self.event()))
        #expect(elsewhere.code == .invalidCSV)
        #expect(
            elsewhere.message
                == "teams.csv: team Kids: division u18 takes its teams from its list in the event's description, not from teams.csv"
        )
        var event = Self.event()
        event.divisions[2].name = "OPEN"
        event.divisions[2].teams = .csv(path: "teams.csv")
        let ambiguous = try #require(Self.error([Self.row("Hawks", "open")], event))
        #expect(ambiguous.message.contains("names divisions open (Open), u18 (OPEN): give its id"))
    }

    @Test("a CSV read, split and drawn: every team in the division its row names")
    func drawn() throws {
        let text = """
            division,name,players
            Open,Hawks,Ann;Bo
            OPEN,Owls,Cy;Di
            women,Stars,Eve;Flo
            Women,Comets,Gil;Hal
            """
        let rows = try TeamsCSV.read(text)
        var event = Self.event()
        event.divisions.removeLast()
        var teams: [String: [RegisteredTeam]] = [:]
        for division in event.divisions {
            teams[division.id] = try EventPlanner.teams(from: rows, file: "teams.csv", for: division, of: event)
        }
        let draft = try EventPlanner.draw(event, teams: teams, seed: 1)
        #expect(draft.schedule.divisions.map(\.teams) == [["hawks", "owls"], ["stars", "comets"]])
    }
}
