public import CourtsideLocalization
public import CourtsideModel

/// One division's knockout drawn as a tree, every coordinate and word worked out here, so that
/// a template (`bracket.mustache`, SVG) only binds them: the rounds as columns, each game a box
/// of two lines (a team, or the words of the slot it waits on: "Winner of open-qf1", "A1",
/// "2nd best third"), its score once played and its winner marked, and a connector from each
/// game to the game its winner goes to. Games fed by losers (third place, places 5 to 8) are
/// drawn apart below the tree; pool games are not drawn.
///
/// Made from a ``Schedule`` alone (a plan, before anything is played), or from the bracket as
/// the results fill it (``BracketEntry``s, as the daemon sends them).
public struct BracketPicture: Hashable, Sendable {
    /// One line of a box: a team, or the slot's words while the team is not known.
    public struct Line: Hashable, Sendable {
        /// The team's name, or the slot's words ("Winner of qf1"), cut to fit the box.
        public var text: String
        /// The score once the game has started, else empty.
        public var score: String
        /// `home` or `away`.
        public var side: String
        /// A team is known (not the slot's words).
        public var isTeam: Bool
        public var isWinner: Bool
        /// `line`, then `team` or `slot`, and `winner` for the winner.
        public var classes: String
        /// The line's band in the box, and where its name and score are written.
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
        public var textX: Int
        public var textY: Int
        public var scoreX: Int
    }

    /// One game's box.
    public struct Box: Hashable, Sendable {
        public var game: String
        public var round: String
        /// The game, its time and its court: "qf1 · 10:30 · Court 1".
        public var caption: String
        public var captionY: Int
        /// The whole game in words, for a tooltip: "qf1: Lions 15 - 9 Tigers, Lions won".
        public var tooltip: String
        public var state: BracketState
        /// Drawn apart from the tree (a game of the losers: third place, places 5 to 8).
        public var isApart: Bool
        /// `box`, the state (`pending`, `ready`, `live`, `final`), and `apart` when apart.
        public var classes: String
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
        public var home: Line
        public var away: Line
        /// The winner's line, if decided (the template's section for its mark).
        public var winnerLine: Line?
    }

    /// The line from a game to the game its winner goes to.
    public struct Connector: Hashable, Sendable {
        public var from: String
        public var to: String
        /// An SVG path: right from the game, down or up, right into the next game's line.
        public var path: String
    }

    /// A word on the picture: a column's round, or the heading of games drawn apart.
    public struct Label: Hashable, Sendable {
        public var text: String
        public var x: Int
        public var y: Int
        public var classes: String
    }

    /// The division's id, nil for a tournament of none.
    public var division: String?
    /// A name for an HTML id: the division's id, or `knockout`.
    public var id: String
    /// "Open knockout", or "Knockout".
    public var title: String
    /// "Open knockout: 8 teams, final at 16:20": the picture in words, for screen readers.
    public var summary: String
    /// Teams entering the tree (byes count: the seats the first games' slots and the later
    /// games' non-winner slots name).
    public var teams: Int
    /// Rounds from the first to the final.
    public var columns: Int
    public var width: Int
    public var height: Int
    public var labels: [Label]
    public var boxes: [Box]
    public var connectors: [Connector]

    /// Sizes in the SVG's pixels: a big screen reads 20 px names at 1920x1080, a phone
    /// scrolls the picture in its own box.
    public enum Metrics {
        public static let boxWidth = 300
        public static let lineHeight = 34
        public static let captionHeight = 24
        public static let rowGap = 16
        public static let columnGap = 64
        public static let margin = 12
        public static let headerHeight = 36
        public static let apartHeadingHeight = 40
        /// Characters of a name that fit beside a two-digit score at 20 px, bold.
        public static let nameCharacters = 20

        static var boxHeight: Int { 2 * lineHeight }
        static var rowHeight: Int { captionHeight + boxHeight + rowGap }
        static var columnPitch: Int { boxWidth + columnGap }
    }
}

extension BracketPicture {
    /// Each division's knockout (or the tournament's) from a plan, with the results of `games`
    /// if any: what the Setup page draws before the schedule is published.
    public static func pictures(_ schedule: Schedule, games: [GameID: Game] = [:]) -> [BracketPicture] {
        pictures(
            schedule.bracket(games), teamNames: schedule.teams.mapValues(\.name),
            divisionNames: Dictionary(schedule.divisions.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first }))
    }

    /// Each division's knockout from the bracket as the results fill it, in the order of the
    /// divisions' first games outside groups; none for a division without a knockout. A division without a
    /// name in `divisionNames` is named by its id, capitalised.
    /// Every word (titles, slots, tooltips) in `words`' language.
    public static func pictures(
        _ bracket: [BracketEntry], teamNames: [TeamID: String], divisionNames: [String: String] = [:],
        words: Words = .english
    ) -> [BracketPicture] {
        var order: [String?] = []
        var byDivision: [String?: [BracketEntry]] = [:]
        for entry in bracket {
            if entry.group == nil, !order.contains(entry.division) { order.append(entry.division) }
            byDivision[entry.division, default: []].append(entry)
        }
        return order.compactMap { division in
            let name = division.map { divisionNames[$0] ?? Self.capitalised($0) }
            return BracketPicture(
                division: division, name: name, entries: byDivision[division] ?? [], teamNames: teamNames, words: words)
        }
    }

    private static func capitalised(_ id: String) -> String { id.prefix(1).uppercased() + id.dropFirst() }

    /// The games of a knockout among `entries`: those outside any group that wait on another
    /// game's result or a group's ranking, or whose result another such game waits on. A lone
    /// game of two named teams is a knockout of two when it is the only game outside groups.
    static func knockout(_ entries: [BracketEntry]) -> [BracketEntry] {
        let outside = entries.filter { $0.group == nil }
        var fed = Set<GameID>()
        for entry in outside {
            for slot in [entry.home, entry.away] {
                switch slot {
                case .winner(let game), .loser(let game): fed.insert(game)
                default: break
                }
            }
        }
        let drawn = outside.filter { entry in
            fed.contains(entry.game) || [entry.home, entry.away].contains { if case .team = $0 { false } else { true } }
        }
        if drawn.isEmpty, outside.count == 1 { return outside }
        return drawn
    }

    /// The picture of one division's knockout, nil when it has none.
    init?(division: String?, name: String?, entries: [BracketEntry], teamNames: [TeamID: String], words: Words = .english) {
        let games = Self.knockout(entries)
        guard !games.isEmpty else { return nil }
        let forest = Forest(games)
        let title = name.map { words(.bracketTitle, ["division": $0]) } ?? words(.bracketTitlePlain)
        var layout = Layout(forest: forest, teamNames: teamNames, division: division, words: words)
        layout.draw()
        let final = forest.byID[forest.main]
        var summary = words.plural(.bracketSummary, count: layout.teams, ["title": title])
        if let start = final?.start { summary = words(.bracketSummaryFinal, ["summary": summary, "time": start]) }
        if let winner = final?.winner {
            summary = words(.bracketSummaryWinner, ["summary": summary, "team": teamNames[winner] ?? winner.rawValue])
        }
        self.init(
            division: division, id: division ?? "knockout", title: title, summary: summary, teams: layout.teams,
            columns: forest.height, width: layout.width, height: layout.height, labels: layout.labels, boxes: layout.boxes,
            connectors: layout.connectors)
    }

    /// A slot in words, for a box whose team is not known yet: "Winner of qf1", "Loser of sf2",
    /// "A1" (a group's rank; a division's prefix on the group left off), "2nd best third", "To
    /// be paired" (a Swiss round not paired yet).
    /// In `words`' language: "A組1位" is still "A1", the words around it the catalog's.
    public static func words(
        _ slot: Slot, teamNames: [TeamID: String] = [:], division: String? = nil, words: Words = .english
    ) -> String {
        switch slot {
        case .team(let team): return teamNames[team] ?? team.rawValue
        case .winner(let game): return words(.bracketWinner, ["game": game.rawValue])
        case .loser(let game): return words(.bracketLoser, ["game": game.rawValue])
        case .groupRank(let group, let rank): return "\(shortGroup(group, division: division))\(rank)"
        case .bestOfRank(let rank, let place, _):
            // English says the rank in words ("best third"); a catalog may take {rank} instead.
            let placed = rank >= 1 && rank <= rankWords.count ? rankWords[rank - 1] : "\(rank)\(Slot.ordinal(rank))-placed"
            let values = [
                "placed": placed, "rank": words.number(rank), "place": words.number(place),
                "placeOrdinal": "\(place)\(Slot.ordinal(place))",
            ]
            return words(place == 1 ? .bracketBest : .bracketBestPlace, values)
        case .swissPairing: return words(.bracketToBePaired)
        }
    }

    private static let rankWords = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]

    private static func shortGroup(_ group: String, division: String?) -> String {
        guard let division, group.hasPrefix(division + "-"), group.count > division.count + 1 else { return group }
        return String(group.dropFirst(division.count + 1))
    }
}
