/// What no plan can beat, as times of day (minutes) at which the last game ends.
struct Bounds: Sendable {
    /// The courts' capacity alone.
    var capacity: Int
    /// The longest chain of dependent games, and each team's own games, alone.
    var chain: Int
    /// The largest of the bounds, and of what capacity and chains give together.
    var combined: Int

    /// No plan at all: the courts' hours cannot hold the games.
    static let none = Bounds(capacity: Window.open, chain: Window.open, combined: Window.open)
}

extension Problem {
    /// The bounds on the day's end over these court windows, the first game starting at `start`
    /// or later.
    ///
    /// Beside capacity and chains, two bounds combine them. Sorted by the chain after them
    /// (``tails``), the first i games must all have started by the end minus the i-th tail, and
    /// the courts cannot start i games before the i-th earliest start they offer (nor can one
    /// team start all its games among them sooner than its rests allow). Sorted by the chain
    /// before them (``heads``), the games from the i-th on cannot start before its head, and
    /// the courts start them no sooner than they can start that many games from then.
    func bounds(windows: [[Window]], start: Int) -> Bounds {
        guard count > 0 else { return Bounds(capacity: start, chain: start, combined: start) }
        let starts = Self.earliestStarts(windows, from: start, count: count, slot: slot, length: length)
        guard starts.count == count, let open = starts.first else { return .none }

        let capacity = starts[count - 1] + length
        var chain = 0
        for game in 0..<count { chain = max(chain, open + heads[game] + tails[game]) }
        var gamesOfTeam = Array(repeating: 0, count: teamIDs.count)
        for names in teams {
            for team in names { gamesOfTeam[team] += 1 }
        }
        for games in gamesOfTeam where games > 0 { chain = max(chain, open + games * step - rest) }

        var combined = max(capacity, chain)
        var counted = Array(repeating: 0, count: teamIDs.count)
        var most = 0
        for (place, game) in (0..<count).sorted(by: { tails[$0] > tails[$1] }).enumerated() {
            for team in teams[game] {
                counted[team] += 1
                most = max(most, counted[team])
            }
            combined = max(combined, starts[place] + tails[game], open + (most - 1) * step + tails[game])
        }
        let byHead = (0..<count).sorted { heads[$0] < heads[$1] }
        for (place, game) in byHead.enumerated() where place == 0 || heads[byHead[place - 1]] < heads[game] {
            let later = Self.earliestStarts(
                windows, from: open + heads[game], count: count - place, slot: slot, length: length)
            guard later.count == count - place else { return .none }
            combined = max(combined, later[count - place - 1] + length)
        }
        return Bounds(capacity: capacity, chain: chain, combined: combined)
    }

    /// The earliest `count` starts the courts offer from `from` on, games back to back in their
    /// windows, teams and order aside; fewer when the windows close first.
    static func earliestStarts(_ windows: [[Window]], from: Int, count: Int, slot: Int, length: Int) -> [Int] {
        var all: [Int] = []
        for court in windows {
            var found = 0
            for window in court where found < count {
                var start = max(from, window.from)
                while found < count, start + length <= window.until {
                    all.append(start)
                    found += 1
                    start += slot
                }
            }
        }
        all.sort()
        return Array(all.prefix(count))
    }
}
