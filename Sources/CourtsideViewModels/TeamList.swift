public import CourtsideLocalization
public import CourtsideModel
import Foundation

/// Every team, by division, each linking to its own page: `/teams`; and the printable sheet of
/// the same teams, each with the address of its page for a QR code: `/teams/sheet`.
public struct TeamList: Hashable, Sendable, Encodable {
    /// One team's link.
    public struct Entry: Hashable, Sendable, Encodable {
        public var team: TeamID
        public var name: String
        /// The team's page: `/teams/ID`.
        public var path: String
    }

    /// A division's teams by name; `name` is nil where the tournament has fewer than two divisions.
    public struct Block: Hashable, Sendable, Encodable {
        public var name: String?
        public var teams: [Entry]
    }

    public var blocks: [Block]
    public var hasTeams: Bool
    public var title: String
    public var heading: String
    public var noTeamsText: String
    public var sheetText: String
    /// The page's language: what `<html lang>` says.
    public var lang: String

    /// The teams of `teams` (the tournament as it stands) and any others the standings or the
    /// games name, in `divisions`' order, each block by name in `words`' collation (``Collation``);
    /// teams in no division last. Every word in `words`' language.
    public init(
        teams: [Team] = [], divisions: [Division] = [], games: [GameID: Game], standings: [GroupStandings],
        words: Words = .english
    ) {
        let names = TeamPage.names(teams: teams, games: games, standings: standings)
        let collation = Collation(words.language)
        let byName = { (ids: [TeamID]) in
            ids.compactMap { id in names[id].map { Entry(team: id, name: $0, path: TeamPage.path(of: id)) } }
                .sorted { a, b in
                    let order = collation.compare(a.name, b.name)
                    return order == .orderedSame ? a.team < b.team : order == .orderedAscending
                }
        }
        let named = divisions.count > 1
        var placed = Set<TeamID>()
        var blocks: [Block] = []
        for division in divisions {
            let ids = division.teams.filter { names[$0] != nil && placed.insert($0).inserted }
            if !ids.isEmpty { blocks.append(Block(name: named ? division.name : nil, teams: byName(ids))) }
        }
        let rest = names.keys.filter { !placed.contains($0) }
        if !rest.isEmpty { blocks.append(Block(name: nil, teams: byName(rest))) }
        // With one division or none, its teams and any others are one list.
        if !named, blocks.count > 1 { blocks = [Block(name: nil, teams: byName(blocks.flatMap { $0.teams.map(\.team) }))] }
        self.blocks = blocks
        hasTeams = !names.isEmpty
        (title, heading, noTeamsText, sheetText) = (
            words(.teamsTitle), words(.teamsHeading), words(.teamsNone), words(.teamsSheet)
        )
        lang = words.language.code
    }
}

/// The printable sheet of the teams: for each a card with its name and its page's address,
/// which the gateway draws as a QR code (``Card/qr``, filled in by it).
public struct TeamSheet: Hashable, Sendable, Encodable {
    public struct Card: Hashable, Sendable, Encodable {
        public var team: TeamID
        public var name: String
        /// The division's name where there are several.
        public var division: String?
        /// The page's whole address: what the QR code holds.
        public var url: String
        /// The QR code as SVG, drawn by the gateway (this target draws nothing).
        public var qr = ""
    }

    public var cards: [Card]
    public var title: String
    public var lead: String
    /// The sheet's language: what `<html lang>` says.
    public var lang: String

    /// The cards of `list`, whose addresses start with `baseURL` (such as `http://192.168.1.20:8080`),
    /// its words in `words`' language.
    public init(_ list: TeamList, baseURL: String, words: Words = .english) {
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        cards = list.blocks.flatMap { block in
            block.teams.map { Card(team: $0.team, name: $0.name, division: block.name, url: base + $0.path) }
        }
        (title, lead, lang) = (words(.teamSheetTitle), words(.teamSheetLead), words.language.code)
    }
}
