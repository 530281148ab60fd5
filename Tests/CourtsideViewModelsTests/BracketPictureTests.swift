import CourtsideFormats
import CourtsideModel
import CourtsideViewModels
import Testing

@Suite("a division's knockout as a picture")
struct BracketPictureTests {
    /// Teams `t1`... named `Team 1`..., entered in seed order.
    static func teams(_ count: Int) -> [TeamID: Team] {
        Dictionary(
            uniqueKeysWithValues: (1...count).map { number in
                let id = TeamID("t\(number)")
                return (id, Team(id: id, name: "Team \(number)", players: [Player(id: PlayerID("p\(number)"), name: "P")]))
            })
    }

    /// A single elimination of `count` teams as a plan, with its game for third place.
    static func knockout(_ count: Int, thirdPlace: Bool = true) throws -> Schedule {
        let draw = try Formats.singleElimination(
            (1...count).map { Entrant(id: TeamID("t\($0)")) }, prefix: "ko", thirdPlace: thirdPlace)
        return Schedule(teams: teams(count), rounds: draw.rounds, games: draw.games)
    }

    static func box(_ picture: BracketPicture, _ game: String) -> BracketPicture.Box? {
        picture.boxes.first { $0.game == game }
    }

    @Test("8 teams: 4 + 2 + 1 boxes in 3 columns, a connector from each quarter-final to its semi-final")
    func eight() throws {
        let pictures = BracketPicture.pictures(try Self.knockout(8, thirdPlace: false))
        #expect(pictures.count == 1)
        let picture = try #require(pictures.first)
        #expect(picture.columns == 3)
        #expect(picture.teams == 8)
        let columns = Dictionary(grouping: picture.boxes, by: \.x).sorted { $0.key < $1.key }.map { $0.value.count }
        #expect(columns == [4, 2, 1])
        #expect(picture.labels.map(\.text) == ["Quarter-finals", "Semi-finals", "Final"])
        let links = Set(picture.connectors.map { "\($0.from)>\($0.to)" })
        #expect(
            links == [
                "ko-qf1>ko-sf1", "ko-qf2>ko-sf1", "ko-qf3>ko-sf2", "ko-qf4>ko-sf2", "ko-sf1>ko-final", "ko-sf2>ko-final",
            ])
        // Each connector leaves its game's right edge and enters the next game's line for it.
        for connector in picture.connectors {
            let from = try #require(Self.box(picture, connector.from))
            let to = try #require(Self.box(picture, connector.to))
            #expect(connector.path.hasPrefix("M\(from.x + from.width) \(from.y + from.height / 2) "))
            #expect(connector.path.hasSuffix(" H\(to.x)"))
        }
        // The first round reads its teams; later rounds the winners they wait on.
        let sf1 = try #require(Self.box(picture, "ko-sf1"))
        #expect([sf1.home.text, sf1.away.text] == ["Winner of ko-qf1", "Winner of ko-qf2"])
        #expect(sf1.home.classes == "line slot")
        let qf1 = try #require(Self.box(picture, "ko-qf1"))
        #expect([qf1.home.text, qf1.away.text] == ["Team 1", "Team 8"])
        #expect(qf1.home.classes == "line team")
        // A semi-final sits midway between its quarter-finals.
        let qf2 = try #require(Self.box(picture, "ko-qf2"))
        #expect(sf1.y == (qf1.y + qf2.y) / 2)
        #expect(picture.summary == "Knockout: 8 teams")
    }

    @Test("6 teams: the top two seeds' byes leave their first-round boxes out; they enter the semi-finals")
    func byes() throws {
        let picture = try #require(BracketPicture.pictures(try Self.knockout(6, thirdPlace: false)).first)
        #expect(picture.teams == 6)
        #expect(picture.columns == 3)
        let columns = Dictionary(grouping: picture.boxes, by: \.x).sorted { $0.key < $1.key }.map { $0.value.count }
        #expect(columns == [2, 2, 1])
        let sf1 = try #require(Self.box(picture, "ko-sf1"))
        #expect([sf1.home.text, sf1.away.text] == ["Team 1", "Winner of ko-qf1"])
        #expect(picture.connectors.count == 4)
        // The bye takes a row of its own: the semi-final is below its one quarter-final's top.
        let qf1 = try #require(Self.box(picture, "ko-qf1"))
        #expect(sf1.y < qf1.y)
    }

    @Test("the game for third place is drawn apart, below the final, under its own heading")
    func thirdPlace() throws {
        let picture = try #require(BracketPicture.pictures(try Self.knockout(4)).first)
        let final = try #require(Self.box(picture, "ko-final"))
        let third = try #require(Self.box(picture, "ko-3rd"))
        #expect(third.isApart && !final.isApart)
        #expect(third.classes == "box pending apart")
        #expect(third.x == final.x)
        #expect(third.y > (picture.boxes.filter { !$0.isApart }.map { $0.y + $0.height }.max() ?? 0))
        #expect(Set([third.home.text, third.away.text]) == ["Loser of ko-sf1", "Loser of ko-sf2"])
        #expect(!picture.connectors.contains { $0.to == "ko-3rd" || $0.from == "ko-3rd" })
        #expect(picture.labels.contains { $0.text == "Third place" && $0.classes == "heading apart" })
        #expect(picture.teams == 4)
    }

    @Test("a knockout after pools: slots read A1 and 2nd best third; pool games are not drawn; each division its own")
    func poolRanks() throws {
        let entrants = (1...9).map { Entrant(id: TeamID("t\($0)")) }
        let pools = try Formats.pools(entrants, prefix: "open", count: 3)
        let knockout = try Formats.knockout(after: pools, top: 2, bestOfNextRank: 2, prefix: "open")
        var schedule = Schedule(
            teams: Self.teams(9), groups: knockout.groups, rounds: knockout.rounds, games: knockout.games)
        schedule.divisions = [Division(id: "open", name: "Open", teams: entrants.map(\.id))]
        for index in schedule.games.indices { schedule.games[index].division = "open" }
        for index in schedule.groups.indices { schedule.groups[index].division = "open" }
        let picture = try #require(BracketPicture.pictures(schedule).first)
        #expect(picture.title == "Open knockout")
        #expect(picture.id == "open")
        let drawn = Set(picture.boxes.map(\.game))
        #expect(drawn == Set(knockout.games.filter { $0.group == nil }.map(\.id.rawValue)))
        #expect(!drawn.isEmpty && drawn.count < schedule.games.count)
        let words = Set(picture.boxes.flatMap { [$0.home.text, $0.away.text] })
        #expect(words.isSuperset(of: ["A1", "B1", "C1", "A2", "B2", "C2"]), "\(words)")
        #expect(words.contains("Best third") && words.contains("2nd best third"), "\(words)")
        #expect(picture.teams == 8)

        #expect(BracketPicture.words(.groupRank(group: "open-A", rank: 1), division: "open") == "A1")
        #expect(BracketPicture.words(.groupRank(group: "B", rank: 2)) == "B2")
        #expect(BracketPicture.words(.bestOfRank(rank: 3, place: 1, groups: ["A", "B"])) == "Best third")
        #expect(BracketPicture.words(.bestOfRank(rank: 3, place: 2, groups: ["A", "B"])) == "2nd best third")
        #expect(BracketPicture.words(.winner(of: "open-qf1")) == "Winner of open-qf1")
        #expect(BracketPicture.words(.loser(of: "sf2")) == "Loser of sf2")
    }

    @Test("a game played shows its score and marks its winner; the next game names the winner; the summary says who won")
    func played() throws {
        func entry(_ game: String, _ home: Slot, _ away: Slot, teams: (String, String)?, state: BracketState = .pending)
            -> BracketEntry
        {
            BracketEntry(
                game: GameID(game), round: nil, group: nil, court: "Court 1", start: "16:20", home: home, away: away,
                homeTeam: teams.map { TeamID($0.0) }, awayTeam: teams.map { TeamID($0.1) }, state: state, score: nil,
                winner: nil, division: "women")
        }
        var sf1 = entry("sf1", .team("lions"), .team("tigers"), teams: ("lions", "tigers"), state: .final)
        (sf1.score, sf1.winner) = (SideValues(home: 13, away: 15), "tigers")
        var sf2 = entry("sf2", .team("bears"), .team("wolves"), teams: ("bears", "wolves"), state: .live)
        sf2.score = SideValues(home: 4, away: 2)
        var final = entry("final", .winner(of: "sf1"), .winner(of: "sf2"), teams: nil)
        final.homeTeam = "tigers"
        let names: [TeamID: String] = ["lions": "Lions", "tigers": "Tigers <&>", "bears": "Bears", "wolves": "Wolves"]
        var picture = try #require(
            BracketPicture.pictures([sf1, sf2, final], teamNames: names, divisionNames: ["women": "Women"]).first)
        let played = try #require(Self.box(picture, "sf1"))
        #expect([played.home.score, played.away.score] == ["13", "15"])
        #expect(!played.home.isWinner && played.away.isWinner)
        #expect(played.away.classes == "line team winner")
        #expect(played.winnerLine == played.away)
        #expect(played.caption == "sf1 · 16:20 · Court 1")
        #expect(played.tooltip == "sf1: Lions 13 - 15 Tigers <&>, Tigers <&> won")
        let live = try #require(Self.box(picture, "sf2"))
        #expect([live.home.score, live.away.score] == ["4", "2"])
        #expect(live.winnerLine == nil && live.classes == "box live")
        let next = try #require(Self.box(picture, "final"))
        #expect([next.home.text, next.away.text] == ["Tigers <&>", "Winner of sf2"])
        #expect([next.home.score, next.away.score] == ["", ""])
        #expect(picture.summary == "Women knockout: 4 teams, final at 16:20")

        final.winner = "tigers"
        picture = try #require(BracketPicture.pictures([sf1, sf2, final], teamNames: names).first)
        #expect(picture.title == "Women knockout")
        #expect(picture.summary == "Women knockout: 4 teams, final at 16:20, won by Tigers <&>")
    }

    @Test("one picture a division with a knockout, in the order of their first knockout games")
    func divisions() {
        func entry(_ game: String, _ division: String, group: String? = nil, home: Slot, away: Slot) -> BracketEntry {
            BracketEntry(
                game: GameID(game), round: nil, group: group, court: nil, start: nil, home: home, away: away, homeTeam: nil,
                awayTeam: nil, state: .pending, score: nil, winner: nil, division: division)
        }
        let bracket = [
            entry("w-1", "women", group: "women-A", home: .team("a"), away: .team("b")),
            entry("m-1", "mixed", group: "mixed-A", home: .team("c"), away: .team("d")),
            entry("o-1", "open", group: "open-A", home: .team("e"), away: .team("f")),
            entry("o-final", "open", home: .groupRank(group: "open-A", rank: 1), away: .groupRank(group: "open-A", rank: 2)),
            entry("w-final", "women", home: .groupRank(group: "women-A", rank: 1), away: .groupRank(group: "women-A", rank: 2)),
        ]
        let pictures = BracketPicture.pictures(bracket, teamNames: [:], divisionNames: ["open": "Open"])
        #expect(pictures.map(\.title) == ["Open knockout", "Women knockout"])
        #expect(pictures.map { $0.boxes.map(\.game) } == [["o-final"], ["w-final"]])
        #expect(pictures.first?.boxes.first.map { [$0.home.text, $0.away.text] } == ["A1", "A2"])
    }

    @Test("a long name is cut to fit beside the score")
    func longName() {
        let entry = BracketEntry(
            game: "final", round: "Final", group: nil, court: nil, start: nil, home: .team("a"), away: .team("b"),
            homeTeam: "a", awayTeam: "b", state: .ready, score: nil, winner: nil)
        let picture = BracketPicture.pictures([entry], teamNames: ["a": "The Extraordinarily Long Name", "b": "B"]).first
        #expect(picture?.boxes.first?.home.text == "The Extraordinarily…")
        #expect(picture?.boxes.first?.home.text.count == BracketPicture.Metrics.nameCharacters)
        #expect(picture?.teams == 2)
        #expect(picture?.summary == "Knockout: 2 teams")
    }

    @Test("no two boxes overlap, and the picture holds them all, from 2 to 128 teams")
    func noOverlap() throws {
        for count in 2...128 {
            let schedule = try Self.knockout(count)
            let picture = try #require(BracketPicture.pictures(schedule).first, "\(count) teams")
            #expect(picture.boxes.count == schedule.games.count, "\(count) teams")
            #expect(picture.teams == count, "\(count) teams")
            let boxes = picture.boxes
            for box in boxes {
                // The caption above the box is part of what must not meet another.
                let fits =
                    box.x >= 0 && box.captionY - 20 >= 0 && box.x + box.width <= picture.width
                    && box.y + box.height <= picture.height
                #expect(fits, "\(count) teams: \(box.game) outside the picture")
            }
            for (index, a) in boxes.enumerated() {
                for b in boxes[(index + 1)...] {
                    let apart =
                        a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.captionY - 20
                        || b.y + b.height <= a.captionY - 20
                    if !apart {
                        Issue.record("\(count) teams: \(a.game) and \(b.game) overlap")
                        return
                    }
                }
            }
        }
    }
}
