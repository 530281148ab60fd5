/// A timetable's figures in minutes, and the order in which the search prefers timetables.
struct Measures: Sendable {
    var end: Int
    var longestWait: Int?
    var medianLongestWait: Int?
    var smallestRest: Int?
    /// The sum of every wait's square: of two plans with the same longest wait, the one whose
    /// waits are more even.
    var waitSquares: Int
    var mostGamesOnOneCourt: Int
    var courtRepeats: Int
    var divisionEnds: [String: Int]
    /// The latest first start of a division: 0 when every division has a game at the start.
    var divisionLag: Int

    /// Earlier end first, then every division under way sooner, the shorter longest wait, the
    /// more even waits, the better spread.
    func isBetter(than other: Measures) -> Bool {
        (end, divisionLag, longestWait ?? 0, waitSquares, courtRepeats)
            < (other.end, other.divisionLag, other.longestWait ?? 0, other.waitSquares, other.courtRepeats)
    }
}

extension Problem {
    /// The figures of `timetable` on `courtCount` courts.
    func measure(_ timetable: Timetable, courtCount: Int) -> Measures {
        let starts = timetable.starts
        var waits: [Int] = []
        var smallestRest: Int?
        func rested(_ gap: Int) { smallestRest = min(smallestRest ?? gap, gap) }

        // Each named team's own games, in order.
        var gamesOfTeam = Array(repeating: [Int](), count: teamIDs.count)
        for (game, names) in teams.enumerated() {
            for team in names { gamesOfTeam[team].append(game) }
        }
        var longestOfTeam: [Int] = []
        var mostOnOneCourt = 0
        var repeats = 0
        for games in gamesOfTeam {
            let ordered = games.sorted { starts[$0] < starts[$1] }
            var longest: Int?
            for (first, second) in zip(ordered, ordered.dropFirst()) {
                let gap = starts[second] - starts[first] - length
                waits.append(gap)
                rested(gap)
                longest = max(longest ?? gap, gap)
            }
            if let longest { longestOfTeam.append(longest) }
            var onCourt: [Int: Int] = [:]
            for game in games { onCourt[timetable.courts[game], default: 0] += 1 }
            mostOnOneCourt = max(mostOnOneCourt, onCourt.values.max() ?? 0)
            repeats += games.count - onCourt.count - max(0, games.count - courtCount)
        }

        // Teams the results bring: from the game they come from, or from their own last game
        // in their group.
        var lastEnds: [Int: [Int: Int]] = [:]
        for (game, fed) in feeds.enumerated() {
            for feed in fed {
                switch feed {
                case .game(let other):
                    let gap = starts[game] - starts[other] - length
                    waits.append(gap)
                    rested(gap)
                case .groups(let groups):
                    for group in groups {
                        if lastEnds[group] == nil {
                            var ends: [Int: Int] = [:]
                            for member in groupGames[group] {
                                for team in teams[member] { ends[team] = max(ends[team] ?? 0, starts[member] + length) }
                            }
                            lastEnds[group] = ends
                        }
                        for end in (lastEnds[group] ?? [:]).values { waits.append(starts[game] - end) }
                        let groupEnd = groupGames[group].map { starts[$0] + length }.max() ?? starts[game]
                        rested(starts[game] - groupEnd)
                    }
                case .round(let earlier):
                    // Who plays is not known: the least rest any team of the round may have.
                    let roundEnd = earlier.map { starts[$0] + length }.max() ?? starts[game]
                    waits.append(starts[game] - roundEnd)
                    rested(starts[game] - roundEnd)
                }
            }
        }
        for (game, others) in conflicts.enumerated() {
            for other in others where starts[other] >= starts[game] { rested(starts[other] - starts[game] - length) }
        }

        var divisionEnds: [String: Int] = [:]
        var divisionStarts: [String: Int] = [:]
        for (game, start) in starts.enumerated() {
            let division = games[game].division ?? ""
            divisionStarts[division] = min(divisionStarts[division] ?? start, start)
            guard games[game].division != nil else { continue }
            divisionEnds[division] = max(divisionEnds[division] ?? 0, start + length)
        }
        let firstStart = starts.min() ?? 0
        longestOfTeam.sort()
        return Measures(
            end: timetable.end(length: length), longestWait: waits.max(),
            medianLongestWait: longestOfTeam.isEmpty ? nil : longestOfTeam[longestOfTeam.count / 2],
            smallestRest: smallestRest, waitSquares: waits.reduce(0) { $0 + $1 * $1 }, mostGamesOnOneCourt: mostOnOneCourt,
            courtRepeats: repeats, divisionEnds: divisionEnds,
            divisionLag: (divisionStarts.values.max() ?? firstStart) - firstStart)
    }
}
