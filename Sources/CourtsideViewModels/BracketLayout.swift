import CourtsideLocalization
import CourtsideModel

/// Places the boxes: each tree's leaves (and the seats a game takes straight from outside the
/// tree, such as a top seed's bye) get a row each, top to bottom; a game sits midway between
/// the games and seats that feed it. Subtrees take rows one after the other, so no two boxes
/// of a column meet.
struct Layout {
    typealias M = BracketPicture.Metrics
    let forest: Forest
    let teamNames: [TeamID: String]
    let division: String?
    let words: Words
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

    init(forest: Forest, teamNames: [TeamID: String], division: String?, words: Words = .english) {
        (self.forest, self.teamNames, self.division, self.words) = (forest, teamNames, division, words)
    }

    mutating func draw() {
        width = 2 * M.margin + forest.height * M.columnPitch - M.columnGap
        top = M.headerHeight
        for (index, root) in forest.roots.enumerated() {
            rows = 0
            if index > 0 {
                let heading = forest.byID[root]?.round ?? words(.bracketPlacement)
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
            let text = team.map { teamNames[$0] ?? $0.rawValue } ?? BracketPicture.words(slot, division: division, words: words)
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
            team.map { teamNames[$0] ?? $0.rawValue } ?? BracketPicture.words(slot, division: division, words: words)
        }
        let sides = [
            "game": entry.game.rawValue, "home": full(entry.home, entry.homeTeam), "away": full(entry.away, entry.awayTeam),
        ]
        var tooltip =
            if played, let score = entry.score {
                words(.bracketTooltipScore, sides.merging(["homeScore": "\(score.home)", "awayScore": "\(score.away)"]) { $1 })
            } else {
                words(.bracketTooltip, sides)
            }
        if let winner = entry.winner {
            tooltip = words(.bracketTooltipWon, ["tooltip": tooltip, "team": teamNames[winner] ?? winner.rawValue])
        }
        return .init(
            game: entry.game.rawValue, round: entry.round ?? "", caption: caption, captionY: y - 7, tooltip: tooltip,
            state: entry.state, isApart: apart, classes: "box \(entry.state.rawValue)\(apart ? " apart" : "")", x: x, y: y,
            width: M.boxWidth, height: M.boxHeight, home: home, away: away,
            winnerLine: home.isWinner ? home : away.isWinner ? away : nil)
    }

    /// A name cut to what fits beside the score: a wide character (kana, kanji, hangul, an emoji)
    /// takes two of ``BracketPicture/Metrics/nameCharacters``.
    static func fit(_ text: String) -> String {
        guard text.reduce(0, { $0 + width($1) }) > M.nameCharacters else { return text }
        var (cut, used) = ("", 0)
        for character in text {
            used += width(character)
            guard used <= M.nameCharacters - 1 else { break }
            cut.append(character)
        }
        return cut + "…"
    }

    /// How many of a Latin letter's widths `character` takes: 2 for East Asian wide ones and emoji.
    static func width(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 1 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1FAFF, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(scalar.value) } || scalar.properties.isEmojiPresentation ? 2 : 1
    }
}
