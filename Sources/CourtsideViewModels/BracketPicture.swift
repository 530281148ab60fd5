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
    public static func pictures(
        _ bracket: [BracketEntry], teamNames: [TeamID: String], divisionNames: [String: String] = [:]
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
                division: division, name: name, entries: byDivision[division] ?? [], teamNames: teamNames)
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
    init?(division: String?, name: String?, entries: [BracketEntry], teamNames: [TeamID: String]) {
        let games = Self.knockout(entries)
        guard !games.isEmpty else { return nil }
        let forest = Forest(games)
        let title = name.map { "\($0) knockout" } ?? "Knockout"
        var layout = Layout(forest: forest, teamNames: teamNames, division: division)
        layout.draw()
        let final = forest.byID[forest.main]
        var summary = "\(title): \(layout.teams) teams"
        if let start = final?.start { summary += ", final at \(start)" }
        if let winner = final?.winner { summary += ", won by \(teamNames[winner] ?? winner.rawValue)" }
        self.init(
            division: division, id: division ?? "knockout", title: title, summary: summary, teams: layout.teams,
            columns: forest.height, width: layout.width, height: layout.height, labels: layout.labels, boxes: layout.boxes,
            connectors: layout.connectors)
    }

    /// A slot in words, for a box whose team is not known yet: "Winner of qf1", "Loser of sf2",
    /// "A1" (a group's rank; a division's prefix on the group left off), "2nd best third", "To
    /// be paired" (a Swiss round not paired yet).
    public static func words(_ slot: Slot, teamNames: [TeamID: String] = [:], division: String? = nil) -> String {
        switch slot {
        case .team(let team): return teamNames[team] ?? team.rawValue
        case .winner(let game): return "Winner of \(game.rawValue)"
        case .loser(let game): return "Loser of \(game.rawValue)"
        case .groupRank(let group, let rank): return "\(shortGroup(group, division: division))\(rank)"
        case .bestOfRank(let rank, let place, _):
            let placed = rank >= 1 && rank <= rankWords.count ? rankWords[rank - 1] : "\(rank)\(Slot.ordinal(rank))-placed"
            return place == 1 ? "Best \(placed)" : "\(place)\(Slot.ordinal(place)) best \(placed)"
        case .swissPairing: return "To be paired"
        }
    }

    private static let rankWords = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]

    private static func shortGroup(_ group: String, division: String?) -> String {
        guard let division, group.hasPrefix(division + "-"), group.count > division.count + 1 else { return group }
        return String(group.dropFirst(division.count + 1))
    }
}

/// The knockout's games as trees: each game's children are the games whose winners it takes.
/// The main tree is the largest fed by no loser; the others (third place, places 5 to 8) are
/// drawn apart below it.
struct Forest {
    var byID: [GameID: BracketEntry] = [:]
    var order: [GameID] = []
    /// The games whose winners a game takes, by side (nil: a slot of another kind).
    var children: [GameID: [GameID?]] = [:]
    var depth: [GameID: Int] = [:]
    /// The roots: the main tree's first, then those drawn apart, latest played first (third
    /// place before fifth).
    var roots: [GameID] = []
    var main: GameID { roots[0] }
    /// Columns: the deepest tree's levels.
    var height = 1

    init(_ games: [BracketEntry]) {
        for entry in games where byID[entry.game] == nil {
            byID[entry.game] = entry
            order.append(entry.game)
        }
        // A game's winner goes to one game: the first that names it (a plan that sends it to
        // two is drawn with the first).
        var parent: [GameID: GameID] = [:]
        for id in order {
            let entry = byID[id]!
            children[id] = [entry.home, entry.away].map { slot in
                guard case .winner(let child) = slot, child != id, byID[child] != nil, parent[child] == nil else { return nil }
                parent[child] = id
                return child
            }
        }
        // Roots and depths; a cycle (a plan not checked yet) is cut where it closes.
        var seen = Set<GameID>()
        var depth: [GameID: Int] = [:]
        let (links, entries) = (children, byID)
        func visit(_ id: GameID, _ level: Int) -> Tree {
            guard seen.insert(id).inserted else { return Tree(size: 0, losers: false, height: 0) }
            depth[id] = level
            let entry = entries[id]!
            var tree = Tree(size: 1, losers: false, height: level + 1)
            for (slot, child) in zip([entry.home, entry.away], links[id] ?? []) {
                if case .loser = slot { tree.losers = true }
                guard let child else { continue }
                let below = visit(child, level + 1)
                tree = Tree(
                    size: tree.size + below.size, losers: tree.losers || below.losers, height: max(tree.height, below.height))
            }
            return tree
        }
        var trees: [(root: GameID, tree: Tree)] = order.filter { parent[$0] == nil }.map { ($0, visit($0, 0)) }
        // Games left unseen wait on each other in a cycle: each such cycle is drawn from its first game.
        for id in order where !seen.contains(id) { trees.append((id, visit(id, 0))) }
        self.depth = depth
        let index = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        // The main tree: not fed by losers, then the largest, then the last played.
        func key(_ root: GameID, _ tree: Tree) -> (Int, Int, Int) { (tree.losers ? 0 : 1, tree.size, index[root]!) }
        let main = trees.max { key($0.root, $0.tree) < key($1.root, $1.tree) }!.root
        roots = [main] + trees.map(\.root).filter { $0 != main }.sorted { index[$0]! > index[$1]! }
        height = trees.map(\.tree.height).max() ?? 1
    }

    /// A tree's size, whether a loser is among its seats, and its levels below its root's depth.
    private struct Tree {
        var size: Int
        var losers: Bool
        var height: Int
    }

    /// The column of a game: the final's is the last.
    func column(_ id: GameID) -> Int { height - 1 - (depth[id] ?? 0) }
}

/// Places the boxes: each tree's leaves (and the seats a game takes straight from outside the
/// tree, such as a top seed's bye) get a row each, top to bottom; a game sits midway between
/// the games and seats that feed it. Subtrees take rows one after the other, so no two boxes
/// of a column meet.
struct Layout {
    typealias M = BracketPicture.Metrics
    let forest: Forest
    let teamNames: [TeamID: String]
    let division: String?
    var labels: [BracketPicture.Label] = []
    var boxes: [BracketPicture.Box] = []
    var connectors: [BracketPicture.Connector] = []
    var teams = 0
    var width = 0
    var height = 0
    /// Rows taken so far in the tree being laid out, and its top in pixels.
    private var rows = 0.0
    private var top = 0
    private var boxByGame: [GameID: Int] = [:]

    init(forest: Forest, teamNames: [TeamID: String], division: String?) {
        (self.forest, self.teamNames, self.division) = (forest, teamNames, division)
    }

    mutating func draw() {
        width = 2 * M.margin + forest.height * M.columnPitch - M.columnGap
        top = M.headerHeight
        for (index, root) in forest.roots.enumerated() {
            rows = 0
            if index > 0 {
                let heading = forest.byID[root]?.round ?? "Placement"
                labels.append(.init(text: heading, x: x(forest.column(root)), y: top + 26, classes: "heading apart"))
                top += M.apartHeadingHeight
            }
            _ = place(root, apart: index > 0)
            top += Int(rows) * M.rowHeight
        }
        height = top + M.margin
        // A column is named by its games' round in the main tree, else by any of its games'.
        let headings = (0..<forest.height).compactMap { column -> BracketPicture.Label? in
            let games = boxes.filter { $0.x == x(column) }
            guard let round = (games.first { !$0.isApart } ?? games.first)?.round, !round.isEmpty else { return nil }
            return .init(text: round, x: x(column), y: 24, classes: "heading")
        }
        labels = headings + labels
    }

    private func x(_ column: Int) -> Int { M.margin + column * M.columnPitch }

    /// Lays out a game and the games that feed it; returns its centre in rows.
    private mutating func place(_ id: GameID, apart: Bool) -> Double {
        let entry = forest.byID[id]!
        let children = forest.children[id] ?? [nil, nil]
        var centres: [Double] = []
        if children.allSatisfy({ $0 == nil }) {
            centres = [rows + 0.5]
            rows += 1
            if !apart { teams += 2 }
        } else {
            for child in children {
                if let child {
                    centres.append(place(child, apart: apart))
                } else {
                    // A seat from outside the tree beside a game of it: a row of its own.
                    centres.append(rows + 0.5)
                    rows += 1
                    if !apart { teams += 1 }
                }
            }
        }
        let centre = centres.reduce(0, +) / Double(centres.count)
        let column = forest.column(id)
        // The box sits below its caption: the row's middle is the caption's and the box's together.
        let boxTop = top + Int((centre * Double(M.rowHeight)).rounded()) - M.boxHeight / 2 + (M.captionHeight - M.rowGap) / 2
        boxes.append(box(entry, x: x(column), y: boxTop, apart: apart))
        boxByGame[id] = boxes.count - 1
        for (side, child) in children.enumerated() {
            guard let child, let from = boxByGame[child] else { continue }
            let source = boxes[from]
            let (x1, y1) = (source.x + source.width, source.y + source.height / 2)
            let line = side == 0 ? boxes[boxes.count - 1].home : boxes[boxes.count - 1].away
            let (x2, y2) = (x(column), line.y + line.height / 2)
            let middle = x1 + M.columnGap / 2
            connectors.append(
                .init(from: child.rawValue, to: id.rawValue, path: "M\(x1) \(y1) H\(middle) V\(y2) H\(x2)"))
        }
        return centre
    }

    private func box(_ entry: BracketEntry, x: Int, y: Int, apart: Bool) -> BracketPicture.Box {
        let played = entry.state == .live || entry.state == .final
        func line(_ side: Side, _ index: Int) -> BracketPicture.Line {
            let (slot, team) = side == .home ? (entry.home, entry.homeTeam) : (entry.away, entry.awayTeam)
            let score = played ? entry.score.map { "\(side == .home ? $0.home : $0.away)" } ?? "" : ""
            let isWinner = team != nil && entry.winner == team
            let text = team.map { teamNames[$0] ?? $0.rawValue } ?? BracketPicture.words(slot, division: division)
            let lineY = y + index * M.lineHeight
            return .init(
                text: Self.fit(text), score: score, side: side.rawValue, isTeam: team != nil, isWinner: isWinner,
                classes: "line \(team != nil ? "team" : "slot")\(isWinner ? " winner" : "")", x: x, y: lineY,
                width: M.boxWidth, height: M.lineHeight,
                textX: x + 12, textY: lineY + 23, scoreX: x + M.boxWidth - 10)
        }
        let home = line(.home, 0)
        let away = line(.away, 1)
        let caption = [entry.game.rawValue, entry.start, entry.court].compactMap { $0 }.joined(separator: " · ")
        func full(_ slot: Slot, _ team: TeamID?) -> String {
            team.map { teamNames[$0] ?? $0.rawValue } ?? BracketPicture.words(slot, division: division)
        }
        let score = played ? entry.score.map { " \($0.home) - \($0.away) " } ?? " v " : " v "
        var tooltip = "\(entry.game.rawValue): \(full(entry.home, entry.homeTeam))\(score)\(full(entry.away, entry.awayTeam))"
        if let winner = entry.winner { tooltip += ", \(teamNames[winner] ?? winner.rawValue) won" }
        return .init(
            game: entry.game.rawValue, round: entry.round ?? "", caption: caption, captionY: y - 7, tooltip: tooltip,
            state: entry.state, isApart: apart, classes: "box \(entry.state.rawValue)\(apart ? " apart" : "")", x: x, y: y,
            width: M.boxWidth, height: M.boxHeight, home: home, away: away,
            winnerLine: home.isWinner ? home : away.isWinner ? away : nil)
    }

    /// A name cut to what fits beside the score.
    static func fit(_ text: String) -> String {
        text.count <= M.nameCharacters ? text : String(text.prefix(M.nameCharacters - 1)) + "…"
    }
}
