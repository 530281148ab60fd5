import CourtsideModel

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
