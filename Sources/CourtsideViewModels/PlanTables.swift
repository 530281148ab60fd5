import CourtsideLocalization
public import CourtsideModel

/// A drawn and planned tournament as text, before anything is published: each division's pools
/// and knockout, and the day as a court-by-time grid (`courtside tournament plan`).
public enum PlanTables {
    /// Each division's pools with their teams in seed order (seed in brackets), then the games
    /// its slots fill, round by round ("Semi-finals: open-sf1 A1 v B2").
    public static func draw(_ schedule: Schedule) -> [String] {
        let divisions = schedule.divisions.isEmpty ? [nil] : schedule.divisions.map(Optional.some)
        var lines: [String] = []
        for division in divisions {
            if let division {
                if !lines.isEmpty { lines.append("") }
                lines.append("\(division.name) (\(division.teams.count) teams)")
            }
            let indent = division == nil ? "" : "  "
            for group in schedule.groups where group.division == division?.id {
                let teams = group.teams.map { team in
                    let name = schedule.teams[team]?.name ?? team.rawValue
                    return schedule.seeds[team].map { "\(name) [\($0)]" } ?? name
                }
                lines.append("\(indent)\(group.name): \(teams.joined(separator: ", "))")
            }
            let filled = schedule.games.filter { game in
                game.division == division?.id && !(game.home.isTeam && game.away.isTeam)
            }
            var round: String?? = .none
            for game in filled {
                if round != .some(game.round) {
                    lines.append("\(indent)\(game.round ?? "Games"):")
                    round = .some(game.round)
                }
                lines.append(
                    "\(indent)  \(game.id.rawValue.padded(12)) \(side(game.home, schedule)) v \(side(game.away, schedule))")
            }
            let knownGames = schedule.games.filter { $0.division == division?.id && $0.home.isTeam && $0.away.isTeam }
            if schedule.groups.allSatisfy({ $0.division != division?.id }) && !knownGames.isEmpty {
                lines.append("\(indent)First games: \(knownGames.count), every team known")
            }
        }
        return lines
    }

    /// The day as a grid: a row per start time, a column per court, each cell a game's id and
    /// its sides as short as they go ("o-A-1 Owls v Lions", "open-sf1 A1 v B2").
    public static func grid(_ schedule: Schedule) -> [String] {
        let grid = DayGrid(schedule)
        guard !grid.courts.isEmpty, !grid.starts.isEmpty else { return ["no game has a court and a start"] }
        let cells = grid.starts.map { start in
            grid.courts.map { court in
                grid.game(at: start, on: court).map {
                    "\($0.id.rawValue) \(short($0.home, schedule)) v \(short($0.away, schedule))"
                }
                    ?? ""
            }
        }
        var widths = grid.courts.map(\.count)
        for row in cells {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ first: String, _ columns: [String]) -> String {
            ([first.padded(5)] + columns.enumerated().map { $0.element.padded(widths[$0.offset]) })
                .joined(separator: " | ").trimmingTrailingSpaces()
        }
        var lines = [line("", grid.courts)]
        lines.append(String(repeating: "-", count: lines[0].count))
        for (start, row) in zip(grid.starts, cells) { lines.append(line(start, row)) }
        return lines
    }

    /// The day's games by start and court: the rows and columns of a court-by-time grid, as the
    /// text grid above and the desk's Setup page (``SetupPreview``) draw it.
    public struct DayGrid: Hashable, Sendable {
        /// The columns: the schedule's courts, or, when it names none, those its games name, sorted.
        public var courts: [String]
        /// The rows: every game's start, earliest first.
        public var starts: [String]
        /// The game at a start on a court (the last listed, should two share a cell).
        private var games: [String: [String: ScheduledGame]]

        public init(_ schedule: Schedule) {
            courts = schedule.courts.isEmpty ? Array(Set(schedule.games.compactMap(\.court))).sorted() : schedule.courts
            starts = Array(Set(schedule.games.compactMap(\.start))).sorted { minutes($0) < minutes($1) }
            games = [:]
            for game in schedule.games {
                guard let start = game.start, let court = game.court else { continue }
                games[start, default: [:]][court] = game
            }
        }

        /// The game that starts at `start` on `court`, if any.
        public func game(at start: String, on court: String) -> ScheduledGame? { games[start]?[court] }
    }

    /// A slot as the draw names it: a team's name, "A1" for a group's rank, "winner sf1" for a winner,
    /// the model's words for the best of a rank across groups.
    static func side(_ slot: Slot, _ schedule: Schedule) -> String {
        switch slot {
        case .team(let team): schedule.teams[team]?.name ?? team.rawValue
        case .winner(let game): "winner \(game.rawValue)"
        case .loser(let game): "loser \(game.rawValue)"
        case .groupRank(let group, let rank): "\(groupLabel(group, schedule))\(rank)"
        case .bestOfRank(let rank, let place, let groups):
            // The model's words, with the groups' short labels: "2nd best of the 3rd-placed teams of groups A, B, C, D".
            Slot.bestOfRank(rank: rank, place: place, groups: groups.map { groupLabel($0, schedule) }).description
        case .swissPairing(_, _, let pairing, let side): "pairing \(pairing) \(side.rawValue)"
        }
    }

    /// A slot as the draw names it, in `words`' language: as ``side(_:_:)`` says it in English.
    static func side(_ slot: Slot, _ schedule: Schedule, words: Words) -> String {
        switch slot {
        case .team, .groupRank: side(slot, schedule)
        case .winner(let game): words(.deskSetupSlotWinner, ["game": game.rawValue])
        case .loser(let game): words(.deskSetupSlotLoser, ["game": game.rawValue])
        case .bestOfRank(let rank, let place, let groups):
            Slot.bestOfRank(rank: rank, place: place, groups: groups.map { groupLabel($0, schedule) }).words(words)
        case .swissPairing(_, _, let pairing, let side):
            words(
                .deskSetupSlotPairing,
                ["pairing": words.number(pairing), "side": words(side == .home ? .sideHome : .sideAway)])
        }
    }

    /// A slot in a grid cell: a team's id, the group and rank, "W game" or "L game".
    static func short(_ slot: Slot, _ schedule: Schedule) -> String {
        switch slot {
        case .team(let team): team.rawValue
        case .winner(let game): "W \(game.rawValue)"
        case .loser(let game): "L \(game.rawValue)"
        case .groupRank(let group, let rank): "\(groupLabel(group, schedule))\(rank)"
        case .bestOfRank(let rank, let place, _): "best\(rank)#\(place)"
        case .swissPairing(_, let round, let pairing, let side): "R\(round)#\(pairing)\(side == .home ? "h" : "a")"
        }
    }

    /// A group's short label: its name's last word ("Pool A" → "A").
    static func groupLabel(_ group: String, _ schedule: Schedule) -> String {
        let name = schedule.groups.first { $0.id == group }?.name ?? group
        return name.split(separator: " ").last.map(String.init) ?? group
    }

    /// A start's minutes into the day, read by the model's rule for start times
    /// (``TextRule/time(_:)``); one that is none goes last.
    static func minutes(_ start: String) -> Int {
        TextRule.time(start).map { $0.hour * 60 + $0.minute } ?? Int.max
    }
}

extension Slot {
    /// Whether the slot names its team already.
    var isTeam: Bool {
        if case .team = self { return true }
        return false
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
