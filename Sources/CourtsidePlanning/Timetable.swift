/// A start and a court for every game, as minutes since midnight and court indices.
struct Timetable: Hashable, Sendable {
    var starts: [Int]
    var courts: [Int]

    /// When the last game ends.
    func end(length: Int) -> Int { starts.max().map { $0 + length } ?? 0 }
}

/// What the schedule builder needs of a problem: the problem itself forwards, or mirrored in
/// time (a start s becomes -s - length) to push every game as late as it goes.
struct Layout: Sendable {
    let length: Int
    let slot: Int
    let rest: Int
    /// The games that must have been placed, and ended a rest earlier, before each game.
    let before: [[Int]]
    let conflicts: [[Int]]
    let teams: [[Int]]
    let teamCount: Int
    let windows: [[Window]]
    /// No game starts earlier.
    let release: Int

    /// The problem forwards, on these windows.
    init(_ problem: Problem, windows: [[Window]], release: Int) {
        self.init(problem, before: problem.before, windows: windows, release: release)
    }

    /// The problem mirrored in time, every game ending by `deadline`: a game's successors come
    /// first, a window [from, until] becomes [-until, -from].
    init(mirroring problem: Problem, windows: [[Window]], deadline: Int) {
        self.init(
            problem, before: problem.after,
            windows: windows.map { court in court.reversed().map { Window(from: -$0.until, until: -$0.from) } },
            release: -deadline)
    }

    private init(_ problem: Problem, before: [[Int]], windows: [[Window]], release: Int) {
        length = problem.length
        slot = problem.slot
        rest = problem.rest
        self.before = before
        conflicts = problem.conflicts
        teams = problem.teams
        teamCount = problem.teamIDs.count
        self.windows = windows
        self.release = release
    }

    /// The serial schedule: each game of `order` (every game after those it waits for) at the
    /// earliest start any court offers it, in a gap between games already placed if one fits.
    /// Of the courts that offer the same start, the one its teams have played on least, then the
    /// one that leaves the least idle time before it. Nil when some game finds no room at all.
    func build(order: [Int]) -> Timetable? {
        let unplaced = Int.min
        var starts = Array(repeating: unplaced, count: order.count)
        var courtOf = Array(repeating: -1, count: order.count)
        var onCourt = Array(repeating: [Int](), count: windows.count)
        var played = Array(repeating: 0, count: teamCount * windows.count)
        let step = length + rest
        for game in order {
            var earliest = release
            for other in before[game] { earliest = max(earliest, starts[other] + step) }
            var best: (start: Int, spread: Int, idle: Int, court: Int)?
            for court in windows.indices {
                guard
                    let (start, idle) = earliestStart(
                        game, on: court, from: earliest, starts: starts, times: onCourt[court], unplaced: unplaced)
                else { continue }
                if let best, start > best.start { continue }
                var spread = 0
                for team in teams[game] { spread += played[team * windows.count + court] }
                let candidate = (start: start, spread: spread, idle: idle, court: court)
                if let current = best, (current.start, current.spread, current.idle) <= (start, spread, idle) { continue }
                best = candidate
            }
            guard let best else { return nil }
            starts[game] = best.start
            courtOf[game] = best.court
            let times = onCourt[best.court]
            onCourt[best.court].insert(best.start, at: Self.firstIndex(in: times, notBelow: best.start))
            for team in teams[game] { played[team * windows.count + best.court] += 1 }
        }
        return Timetable(starts: starts, courts: courtOf)
    }

    /// The earliest start from `from` on at which `game` fits on `court` (in a window, a slot
    /// from every game on the court, a game and a rest from every game it may share a team
    /// with), and the idle time it leaves on the court before it.
    private func earliestStart(
        _ game: Int, on court: Int, from: Int, starts: [Int], times: [Int], unplaced: Int
    ) -> (Int, Int)? {
        let windows = self.windows[court]
        let apart = length + rest
        var start = from
        var window = 0
        search: while true {
            while window < windows.count, windows[window].until - length < start { window += 1 }
            guard window < windows.count else { return nil }
            start = max(start, windows[window].from)
            let next = Self.firstIndex(in: times, notBelow: start - slot + 1)
            if next < times.count, times[next] < start + slot {
                start = times[next] + slot
                continue search
            }
            for other in conflicts[game] {
                let theirs = starts[other]
                if theirs != unplaced, theirs < start + apart, start < theirs + apart {
                    start = theirs + apart
                    continue search
                }
            }
            let previousEnd = next > 0 ? max(times[next - 1] + slot, windows[window].from) : windows[window].from
            return (start, start - previousEnd)
        }
    }

    /// The index of the first of `sorted` that is `value` or more.
    private static func firstIndex(in sorted: [Int], notBelow value: Int) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
