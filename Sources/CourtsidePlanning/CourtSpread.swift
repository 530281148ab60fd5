extension Problem {
    /// `timetable` with its starts kept and its games moved between courts so that each team
    /// plays on as many courts as it can: a game moves to a court free at its time, or trades
    /// courts with a game that starts at the same time, whenever that leaves fewer pairs of one
    /// team's games on one court.
    func spreadOverCourts(_ timetable: Timetable, windows: [[Window]]) -> Timetable {
        let courtCount = windows.count
        guard courtCount > 1 else { return timetable }
        var courts = timetable.courts
        let starts = timetable.starts
        var counts = Array(repeating: 0, count: teamIDs.count * courtCount)
        var onCourt = Array(repeating: [Int](), count: courtCount)
        for game in 0..<count {
            onCourt[courts[game]].append(game)
            for team in teams[game] { counts[team * courtCount + courts[game]] += 1 }
        }
        // The other games of `game`'s teams on `court` (`game` itself left out).
        func others(_ game: Int, on court: Int) -> Int {
            teams[game].reduce(0) { $0 + counts[$1 * courtCount + court] - (courts[game] == court ? 1 : 0) }
        }
        func move(_ game: Int, to court: Int) {
            let from = courts[game]
            for team in teams[game] {
                counts[team * courtCount + from] -= 1
                counts[team * courtCount + court] += 1
            }
            onCourt[from].removeAll { $0 == game }
            onCourt[court].append(game)
            courts[game] = court
        }
        func isFree(_ court: Int, for game: Int) -> Bool {
            let start = starts[game]
            guard windows[court].contains(where: { $0.from <= start && start + length <= $0.until }) else { return false }
            return onCourt[court].allSatisfy { abs(starts[$0] - start) >= slot }
        }
        let byStart = (0..<count).sorted { (starts[$0], $0) < (starts[$1], $1) }
        for _ in 0..<4 {
            var improved = false
            for game in byStart where !teams[game].isEmpty {
                let home = courts[game]
                for court in 0..<courtCount where court != home {
                    let stay = others(game, on: home)
                    let go = others(game, on: court)
                    if go < stay, isFree(court, for: game) {
                        move(game, to: court)
                        improved = true
                        break
                    }
                    guard let partner = onCourt[court].first(where: { starts[$0] == starts[game] }) else { continue }
                    let before = stay + others(partner, on: court)
                    move(game, to: court)
                    move(partner, to: home)
                    if others(game, on: court) + others(partner, on: home) < before {
                        improved = true
                        break
                    }
                    move(partner, to: court)
                    move(game, to: home)
                }
            }
            if !improved { break }
        }
        return Timetable(starts: starts, courts: courts)
    }
}
