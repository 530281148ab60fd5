/// A general graph's matching by Edmonds' blossom algorithm (augmenting paths through odd
/// cycles), for the pairing's question: can the teams left still all be paired anew?
struct MatchingGraph {
    let size: Int
    private(set) var adjacent: [[Int]]
    private var isEdge: [[Bool]]
    private var active: [Bool]
    private(set) var mate: [Int?]

    init(size: Int) {
        self.size = size
        adjacent = Array(repeating: [], count: size)
        isEdge = Array(repeating: Array(repeating: false, count: size), count: size)
        active = Array(repeating: true, count: size)
        mate = Array(repeating: nil, count: size)
    }

    mutating func connect(_ a: Int, _ b: Int) {
        guard !isEdge[a][b] else { return }
        isEdge[a][b] = true
        isEdge[b][a] = true
        adjacent[a].append(b)
        adjacent[b].append(a)
    }

    /// Only these vertices take part from now on; the matching starts empty.
    mutating func restrict(to vertices: [Int]) {
        active = Array(repeating: false, count: size)
        for vertex in vertices { active[vertex] = true }
        mate = Array(repeating: nil, count: size)
    }

    /// A maximum matching of the active vertices; returns its size.
    mutating func maximumMatching(preferring order: [Int]? = nil) -> Int {
        let order = order ?? (0..<size).filter { active[$0] }
        // A greedy start in the preferred order (often already perfect), then augmenting paths.
        for a in order where active[a] && mate[a] == nil {
            if let b = order.first(where: { $0 != a && active[$0] && mate[$0] == nil && isEdge[a][$0] }) {
                mate[a] = b
                mate[b] = a
            }
        }
        for vertex in 0..<size where active[vertex] && mate[vertex] == nil { _ = augment(from: vertex) }
        return (0..<size).filter { active[$0] && mate[$0] != nil }.count / 2
    }

    /// Whether the active vertices can all be matched; leaves such a matching when they can.
    mutating func completeMatching(preferring order: [Int]) -> Bool {
        let activeCount = (0..<size).filter { active[$0] }.count
        return 2 * maximumMatching(preferring: order + (0..<size).filter { active[$0] && !order.contains($0) }) == activeCount
    }

    /// With a perfect matching of the active vertices: takes `a` and `b` out as a pair if the
    /// others can still all be matched (and returns true), else changes nothing.
    mutating func tryFix(_ a: Int, _ b: Int) -> Bool {
        guard active[a], active[b], isEdge[a][b] else { return false }
        if mate[a] == b {
            active[a] = false
            active[b] = false
            return true
        }
        let saved = mate
        guard let x = mate[a], let y = mate[b] else { return false }
        mate[a] = b
        mate[b] = a
        mate[x] = nil
        mate[y] = nil
        active[a] = false
        active[b] = false
        // Two vertices are left unmatched; an augmenting path between them repairs the matching.
        if augment(from: x) { return true }
        mate = saved
        active[a] = true
        active[b] = true
        return false
    }

    /// Finds an augmenting path from the unmatched `root` and flips it; false if there is none.
    private mutating func augment(from root: Int) -> Bool {
        var base = Array(0..<size)
        var parent: [Int?] = Array(repeating: nil, count: size)
        var used = Array(repeating: false, count: size)
        var queue = [root]
        var head = 0
        used[root] = true

        func lowestCommonAncestor(_ a: Int, _ b: Int) -> Int {
            var seen = Array(repeating: false, count: size)
            var a = a
            while true {
                a = base[a]
                seen[a] = true
                guard let next = mate[a], let up = parent[next] else { break }
                a = up
            }
            var b = b
            while true {
                b = base[b]
                if seen[b] { return b }
                guard let next = mate[b], let up = parent[next] else { return b }
                b = up
            }
        }
        func markPath(_ vertex: Int, _ blossomBase: Int, _ child: Int, _ inBlossom: inout [Bool]) {
            var vertex = vertex
            var child = child
            while base[vertex] != blossomBase {
                let partner = mate[vertex]!
                inBlossom[base[vertex]] = true
                inBlossom[base[partner]] = true
                parent[vertex] = child
                child = partner
                vertex = parent[partner]!
            }
        }

        while head < queue.count {
            let vertex = queue[head]
            head += 1
            for to in adjacent[vertex] where active[to] {
                if base[vertex] == base[to] || mate[vertex] == to { continue }
                if to == root || (mate[to].flatMap { parent[$0] } != nil) {
                    // An odd cycle: shrink it into its base and search on from every vertex in it.
                    let blossomBase = lowestCommonAncestor(vertex, to)
                    var inBlossom = Array(repeating: false, count: size)
                    markPath(vertex, blossomBase, to, &inBlossom)
                    markPath(to, blossomBase, vertex, &inBlossom)
                    for index in 0..<size where active[index] && inBlossom[base[index]] {
                        base[index] = blossomBase
                        if !used[index] {
                            used[index] = true
                            queue.append(index)
                        }
                    }
                } else if parent[to] == nil {
                    parent[to] = vertex
                    guard let next = mate[to] else {
                        // Flip the path from `to` back to the root.
                        var end: Int? = to
                        while let current = end {
                            let previous = parent[current]!
                            let further = mate[previous]
                            mate[current] = previous
                            mate[previous] = current
                            end = further
                        }
                        return true
                    }
                    used[next] = true
                    queue.append(next)
                }
            }
        }
        return false
    }
}
