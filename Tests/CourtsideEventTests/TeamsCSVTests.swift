import CourtsideEvent
import CourtsideModel
import Testing

/// Registration CSVs as the forms export them, read into teams; every broken line refused with
/// its line number.
@Suite("Teams CSV")
struct TeamsCSVTests {
    static func team(_ id: String, _ name: String, _ players: [(String, String)] = []) -> Team {
        Team(id: TeamID(id), name: name, players: players.map { Player(id: PlayerID($0.0), name: $0.1) })
    }

    /// A row as a CSV writer writes it: cells quoted when they hold a separator, quote or line break.
    static func csvLine(_ cells: [String], separator: String = ",") -> String {
        cells.map { cell in
            let quoted = cell.contains { $0 == "\"" || $0 == "\n" || $0 == "\r\n" || String($0) == separator }
            return quoted ? "\"" + cell.replacing("\"", with: "\"\"") + "\"" : cell
        }.joined(separator: separator)
    }

    @Test("a Tournify-like export: BOM, CRLF, quoted names with commas and quotes, player 1 to 4")
    func tournifyExport() throws {
        let text =
            "\u{FEFF}Timestamp,Team Name,Club,Seed,Ranking Points,Player 1,Player 2,Player 3,Player 4,Captain e-mail\r\n"
            + "2025-05-01 10:00,\"Hoops, Inc.\",Downtown,1,1250.5,Ann Lee,Bo Chan,Cy Diaz,Di Eng,ann@example.com\r\n"
            + "2025-05-01 10:05,\"The \"\"Real\"\" Ballers\",,2,980,Ann Lee,Eve Fox,Gus Hall,,eve@example.com\r\n"
            + "2025-05-01 10:07,Zone Defence,\"Club, North\",,,Ivy Jones,\"Kai \"\"K\"\" Lo\",,,\r\n"
            + "\r\n"
        let teams = try TeamsCSV.read(text)
        #expect(
            teams == [
                RegisteredTeam(
                    team: Self.team(
                        "hoops-inc", "Hoops, Inc.",
                        [("ann-lee", "Ann Lee"), ("bo-chan", "Bo Chan"), ("cy-diaz", "Cy Diaz"), ("di-eng", "Di Eng")]),
                    seed: 1, rankingPoints: 1250.5, club: "Downtown"),
                RegisteredTeam(
                    team: Self.team(
                        "the-real-ballers", "The \"Real\" Ballers",
                        [("ann-lee-2", "Ann Lee"), ("eve-fox", "Eve Fox"), ("gus-hall", "Gus Hall")]),
                    seed: 2, rankingPoints: 980),
                RegisteredTeam(
                    team: Self.team("zone-defence", "Zone Defence", [("ivy-jones", "Ivy Jones"), ("kai-k-lo", "Kai \"K\" Lo")]),
                    club: "Club, North"),
            ])
    }

    @Test("a players cell: names split on ';', '|' and line breaks inside quotes; divisions; a team without players")
    func playersCell() throws {
        let text = """
            name,players,division
            Ballers,Ann; Bo | Cy,Open
            "Night Owls","Di
            Eve
              Fox  ",Women
            Solo,,Open
            """
        let teams = try TeamsCSV.read(text)
        #expect(
            teams == [
                RegisteredTeam(
                    team: Self.team("ballers", "Ballers", [("ann", "Ann"), ("bo", "Bo"), ("cy", "Cy")]), division: "Open"),
                RegisteredTeam(
                    team: Self.team("night-owls", "Night Owls", [("di", "Di"), ("eve", "Eve"), ("fox", "Fox")]),
                    division: "Women"),
                RegisteredTeam(team: Self.team("solo", "Solo"), division: "Open"),
            ])
    }

    @Test("a semicolon-separated file (European Excel), with a decimal comma in the ranking points")
    func semicolons() throws {
        let text = "Team;Club;Ranking points;Seed;Players\n\"Hoops; Inc.\";Nord, Süd;1234,5;3;Ann|Bo\nZone;;17;;\n"
        let teams = try TeamsCSV.read(text)
        #expect(
            teams == [
                RegisteredTeam(
                    team: Self.team("hoops-inc", "Hoops; Inc.", [("ann", "Ann"), ("bo", "Bo")]), seed: 3, rankingPoints: 1234.5,
                    club: "Nord, Süd"),
                RegisteredTeam(team: Self.team("zone", "Zone"), rankingPoints: 17),
            ])
        // A comma is a decimal comma only where it cannot be the separator.
        #expect(throws: EventError.self) { try TeamsCSV.read("name,points\nA,\"12,5\"\n") }
    }

    @Test("ids made from names: de-duplicated, the file's own ids kept, a fallback for names that make none")
    func madeIDs() throws {
        let long = String(repeating: "abcdefghi ", count: 8)
        let text = """
            id,name,players
            ,Downtown Ballers,Ann
            ,Downtown-Ballers!,Ann
            downtown-ballers-2,Others,Ann
            ,東京ファイターズ,さくら;Ann
            ,!!!,
            ,\(long),
            """
        let teams = try TeamsCSV.read(text)
        // Line 3's id skips -2: line 4 gives it, though later in the file.
        #expect(
            teams.map(\.team.id.rawValue) == [
                "downtown-ballers", "downtown-ballers-3", "downtown-ballers-2", "team-5", "team-6",
                "abcdefghi-abcdefghi-abcdefghi-abcdefghi-abcdefghi-abcdef",
            ])
        #expect(teams.flatMap(\.team.players).map(\.id.rawValue) == ["ann", "ann-2", "ann-3", "player-5-1", "ann-4"])
        #expect(teams[3].team.players.map(\.name) == ["さくら", "Ann"])
        #expect(teams[5].team.name == String(long.dropLast()))
        for team in teams {
            #expect(GameSetup.problem(withID: team.team.id.rawValue) == nil)
            for player in team.team.players { #expect(GameSetup.problem(withID: player.id.rawValue) == nil) }
        }
    }

    @Test("headers: case, spaces, '_' and '-' ignored, synonyms, player N spellings, unknown columns skipped")
    func headers() throws {
        let text = """
             TEAM_NAME ,Ranking_Points, Club ,DIVISION,Team-ID,Player #2,player1 name,Notes
            Ballers,10.25,North,Open,b1,Bo,Ann,whatever
            """
        let teams = try TeamsCSV.read(text)
        #expect(
            teams == [
                RegisteredTeam(
                    team: Self.team("b1", "Ballers", [("ann", "Ann"), ("bo", "Bo")]), rankingPoints: 10.25, club: "North",
                    division: "Open")
            ])
        #expect(try TeamsCSV.read("Team,Points\nA,3\n") == [RegisteredTeam(team: Self.team("a", "A"), rankingPoints: 3)])
        #expect(try TeamsCSV.read("name\n").isEmpty)
        // A byte order mark is no part of the first header.
        #expect(try TeamsCSV.read("\u{FEFF}name,seed\nA,1\n") == [RegisteredTeam(team: Self.team("a", "A"), seed: 1)])
    }

    @Test("line ends: LF, CRLF or CR, with or without one at the end; blank rows skipped")
    func lineEnds() throws {
        let expected = [RegisteredTeam(team: Self.team("a", "A"), seed: 1), RegisteredTeam(team: Self.team("b", "B"), seed: 2)]
        for end in ["\n", "\r\n", "\r"] {
            let lines = ["name,seed", "A,1", "", ",", "B,2"]
            #expect(try TeamsCSV.read(lines.joined(separator: end)) == expected)
            #expect(try TeamsCSV.read(lines.joined(separator: end) + end) == expected)
        }
    }

    /// A broken file and the message it is refused with.
    struct Broken: Sendable, CustomTestStringConvertible {
        var text: String
        var message: String
        var file = "teams.csv"
        var testDescription: String { message }
    }

    static let broken: [Broken] = [
        Broken(
            text: "name,club\nA,x\nB,y\nC,z\nD,w\nE,v\n\"Open,Downtown\nF,u\n",
            message: "teams.csv line 7: a quoted field is never closed"),
        Broken(text: "name,club\nA,x\nB,y,z\n", message: "teams.csv line 3: 3 cells, but the header has 2 columns"),
        Broken(text: "name,club\nA,x\n ,y\n", message: "teams.csv line 3: the team has no name"),
        Broken(text: "club,name\nx,A\ny\n", message: "teams.csv line 3: the team has no name"),
        Broken(text: "name,seed\nA,1\nB,0\n", message: "teams.csv line 3: seed '0' is not a whole number of 1 or more"),
        Broken(text: "name,seed\nA,1.5\n", message: "teams.csv line 2: seed '1.5' is not a whole number of 1 or more"),
        Broken(text: "name,seed\nA,first\n", message: "teams.csv line 2: seed 'first' is not a whole number of 1 or more"),
        // A value that breaks the text rule is not shown.
        Broken(text: "name,seed\nA,\"1\u{0}\"\n", message: "teams.csv line 2: seed is not a whole number of 1 or more"),
        Broken(
            text: "name,points\nA,12\nB,lots\n", message: "teams.csv line 3: ranking points 'lots' are not a number of 0 or more"),
        Broken(text: "name,points\nA,-3\n", message: "teams.csv line 2: ranking points '-3' are not a number of 0 or more"),
        Broken(text: "name,points\nA,nan\n", message: "teams.csv line 2: ranking points 'nan' are not a number of 0 or more"),
        Broken(text: "id,name\nx,A\ny,B\nx,C\n", message: "teams.csv line 4: another team (line 2) has the id 'x'"),
        Broken(text: "name\nBallers\nOwls\nballers\n", message: "teams.csv line 4: another team (line 2) has the name 'ballers'"),
        Broken(text: "name\nA\n\"B\tC\"\n", message: "teams.csv line 3: name: contains U+0009, a control character"),
        Broken(
            text: "name\n" + String(repeating: "x", count: 81) + "\n",
            message: "teams.csv line 2: name: is 81 characters long; the most is 80"),
        Broken(
            text: "name,player 1,player 2\nA,Ann,\"Bo\u{202E}x\"\n",
            message: "teams.csv line 2: player 2: contains U+202E, a bidirectional embedding, override or isolate"),
        Broken(
            text: "name,players\nA,\"Ann;Bo\u{7F}\"\n",
            message: "teams.csv line 2: player 2: contains U+007F, a control character"
        ),
        Broken(text: "name,club\nA,\"x\ny\"\n", message: "teams.csv line 2: club: contains U+000A, a control character"),
        Broken(
            text: "id,name\nhas space,A\n",
            message:
                "teams.csv line 2: id: game ids may hold only letters, digits, '-', '.' and '_' (team ids follow the rule for game ids)"
        ),
        Broken(text: "club,seed\nx,1\n", message: "teams.csv line 1: the header has no name column (name, team or team name)"),
        // No header: the first line is a team.
        Broken(text: "Ballers,Ann,Bo\n", message: "teams.csv line 1: the header has no name column (name, team or team name)"),
        Broken(text: "\n\nclub\n", message: "teams.csv line 3: the header has no name column (name, team or team name)"),
        Broken(text: "name,team\nA,B\n", message: "teams.csv line 1: columns 1 and 2 both hold the team's name"),
        Broken(
            text: "name,players,player 1\n",
            message: "teams.csv line 1: the header has both a players column and player 1, player 2, ... columns; keep one"),
        Broken(text: "name\n\"A\"x\n", message: "teams.csv line 2: text after the closing quote of a quoted field"),
        Broken(text: "", message: "teams.csv: the file is empty"),
        Broken(text: "\u{FEFF}\r\n \r\n,,\r\n", message: "teams.csv: the file is empty"),
        // Lines are physical: blank ones and those inside quotes count, a CRLF once.
        Broken(
            text: "name,players\r\n\r\nA,\"Ann\r\nBo\"\r\nB,Cy\r\n\r\nA,Di\r\n",
            message: "teams.csv line 7: another team (line 3) has the name 'A'"),
        Broken(
            text: "name;seed\nA;1\nB;x\n", message: "open.csv line 3: seed 'x' is not a whole number of 1 or more",
            file: "open.csv"),
    ]

    @Test("a broken file is refused, naming the file and line, with no teams", arguments: broken)
    func refused(_ broken: Broken) {
        do {
            let teams = try TeamsCSV.read(broken.text, file: broken.file)
            Issue.record("read \(teams.count) teams, expected: \(broken.message)")
        } catch {
            #expect(error.code == .invalidCSV)
            #expect(error.message == broken.message)
        }
    }

    @Test("128 generated teams written as a CSV read back as they were, with the file's ids or ids made from names")
    func roundTrip() throws {
        let divisions = ["Open", "Women", "U18"]
        let teams = (1...128).map { (number: Int) -> RegisteredTeam in
            let players = (1..<(number % 5 + 1)).map { ("p\(number)-\($0)", "P\(number) \($0)") }
            let seed: Int? = number % 3 == 0 ? nil : number
            let points: Double? = number % 4 == 0 ? nil : Double(number) * 12.5
            let club: String? = number % 5 == 0 ? nil : "Club \(number % 7), Ltd"
            return RegisteredTeam(
                team: Self.team("t\(number)", "Team \(number), \"No. \(number)\"", players), seed: seed,
                rankingPoints: points, club: club, division: divisions[number % 3])
        }
        func rows(withIDs: Bool) -> [[String]] {
            let header = ["name", "player 1", "player 2", "player 3", "player 4", "seed", "ranking points", "club", "division"]
            let body = teams.map { (entry: RegisteredTeam) -> [String] in
                let players: [String] = entry.team.players.map(\.name)
                let id: [String] = withIDs ? [entry.team.id.rawValue] : []
                let cells: [String] = (0..<4).map { $0 < players.count ? players[$0] : "" }
                let seed = entry.seed.map { String($0) } ?? ""
                let points = entry.rankingPoints.map { "\($0)" } ?? ""
                return id + [entry.team.name] + cells + [seed, points, entry.club ?? "", entry.division ?? ""]
            }
            return [(withIDs ? ["id"] : []) + header] + body
        }

        let withIDs = rows(withIDs: true).map { Self.csvLine($0) }.joined(separator: "\r\n") + "\r\n"
        #expect(try TeamsCSV.read(withIDs) == teams)

        let semicolons = rows(withIDs: true).map { Self.csvLine($0, separator: ";") }.joined(separator: "\n")
        #expect(try TeamsCSV.read(semicolons) == teams)

        let made = try TeamsCSV.read(rows(withIDs: false).map { Self.csvLine($0) }.joined(separator: "\n"))
        #expect(made.map(\.team.id.rawValue) == (1...128).map { "team-\($0)-no-\($0)" })
        var renamed = made
        for index in renamed.indices { renamed[index].team.id = teams[index].team.id }
        #expect(renamed == teams)
    }

    @Test("EventError: its codes and description")
    func eventError() {
        #expect(EventError.Code.invalidCSV.rawValue == "invalid_csv")
        #expect(EventError.Code.invalidEvent.rawValue == "invalid_event")
        let error = EventError(.invalidCSV, "teams.csv line 7: a quoted field is never closed")
        #expect(error.description == "invalid_csv: teams.csv line 7: a quoted field is never closed")
    }
}
