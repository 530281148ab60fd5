import CourtsideModel

extension Problem {
    /// The best timetable the search finds on these windows, or nil when some game finds no
    /// room on any court. See ``Planning`` for the method.
    func search(windows: [[Window]], release: Int, effort: Planning.Effort) -> (Timetable, Measures)? {
        guard count > 0 else { return (Timetable(starts: [], courts: []), measure(.init(starts: [], courts: []), courtCount: 0)) }
        let forwards = Layout(self, windows: windows, release: release)
        var best: (Timetable, Measures)?
        var random = SeededRandom(seed: effort.seed)
        // Each division's chains stretched to the longest division's: its first games rank with
        // the other divisions' first games, so divisions take turns from the start of the day.
        var longestOfDivision: [String: Int] = [:]
        for game in 0..<count {
            longestOfDivision[games[game].division ?? "", default: 0] = max(
                longestOfDivision[games[game].division ?? "", default: 0], tails[game])
        }
        let longest = longestOfDivision.values.max() ?? 1
        let stretched = (0..<count).map { game in
            tails[game] * longest / max(1, longestOfDivision[games[game].division ?? ""] ?? 1)
        }
        for attempt in 0...max(0, effort.restarts) where attempt != 1 || stretched != tails {
            // The first two attempts take the chains as they are, then stretched; the others
            // shake them by less than a game and a rest.
            let base = attempt % 2 == 0 ? tails : stretched
            let keys = base.map { attempt < 2 ? $0 : $0 + Int.random(in: 0..<max(1, step), using: &random) }
            let order = feasibleOrder(
                (0..<count).sorted {
                    (-keys[$0], progress[$0], $0) < (-keys[$1], progress[$1], $1)
                })
            guard let built = forwards.build(order: order) else { continue }
            let improved = justified(built, forwards: forwards, windows: windows, courtCount: windows.count)
            if let current = best, !improved.1.isBetter(than: current.1) { continue }
            best = improved
        }
        guard let (timetable, _) = best else { return nil }
        let spread = spreadOverCourts(timetable, windows: windows)
        return (spread, measure(spread, courtCount: windows.count))
    }

    /// `timetable` pushed late and back early until that no longer helps: each game as late
    /// as the games after it allow, latest end first, then each as early as the games before
    /// it allow, earliest start first. This closes gaps that the first pass left.
    private func justified(
        _ timetable: Timetable, forwards: Layout, windows: [[Window]], courtCount: Int
    ) -> (Timetable, Measures) {
        var current = timetable
        var measures = measure(timetable, courtCount: courtCount)
        for _ in 0..<8 {
            let latestFirst = (0..<count).sorted {
                (-current.starts[$0], $0) < (-current.starts[$1], $1)
            }
            let backwards = Layout(mirroring: self, windows: windows, deadline: measures.end)
            guard let mirrored = backwards.build(order: latestFirst) else { break }
            let late = mirrored.starts.map { -$0 - length }
            let earliestFirst = (0..<count).sorted { (late[$0], $0) < (late[$1], $1) }
            guard let early = forwards.build(order: earliestFirst) else { break }
            let earlyMeasures = measure(early, courtCount: courtCount)
            guard earlyMeasures.isBetter(than: measures) else { break }
            (current, measures) = (early, earlyMeasures)
        }
        return (current, measures)
    }

    /// `preferred` changed as little as it takes to put every game after the games it waits
    /// for: each step takes the most preferred game whose games before it are all taken.
    private func feasibleOrder(_ preferred: [Int]) -> [Int] {
        var rank = Array(repeating: 0, count: count)
        for (place, game) in preferred.enumerated() { rank[game] = place }
        var waiting = before.map(\.count)
        var ready = Heap()
        for game in 0..<count where waiting[game] == 0 { ready.push(rank[game]) }
        var order: [Int] = []
        order.reserveCapacity(count)
        while let next = ready.pop() {
            let game = preferred[next]
            order.append(game)
            for other in after[game] {
                waiting[other] -= 1
                if waiting[other] == 0 { ready.push(rank[other]) }
            }
        }
        return order
    }
}

/// A binary min-heap of integers.
private struct Heap {
    private var items: [Int] = []

    mutating func push(_ item: Int) {
        items.append(item)
        var child = items.count - 1
        while child > 0, items[(child - 1) / 2] > items[child] {
            items.swapAt(child, (child - 1) / 2)
            child = (child - 1) / 2
        }
    }

    mutating func pop() -> Int? {
        guard let first = items.first else { return nil }
        let last = items.removeLast()
        guard !items.isEmpty else { return first }
        items[0] = last
        var parent = 0
        while true {
            var smallest = parent
            for child in [2 * parent + 1, 2 * parent + 2] where child < items.count && items[child] < items[smallest] {
                smallest = child
            }
            if smallest == parent { return first }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
