public import CourtsideModel
public import CourtsideViewModels

/// How a display's connection stands, for its status line.
public struct SyncStatus: Sendable {
    public var endpoint: String
    public var isStale: Bool
    /// The reason and age in seconds of the last resync, if any.
    public var lastResync: (reason: String, secondsAgo: Int)?
    public var resyncs: Int

    public init(endpoint: String, isStale: Bool, lastResync: (reason: String, secondsAgo: Int)?, resyncs: Int) {
        self.endpoint = endpoint
        self.isStale = isStale
        self.lastResync = lastResync
        self.resyncs = resyncs
    }

    /// "live from tcp://..." or "STALE: ..." plus the last resync.
    public var line: String {
        var text = isStale ? "STALE: no heartbeat from \(endpoint); showing the last known state" : "live from \(endpoint)"
        if let lastResync {
            text += "  |  resynced (\(lastResync.reason)) \(lastResync.secondsAgo)s ago, \(resyncs) in all"
        }
        return text
    }
}

/// Screens as lines of text, drawn from view models only.
public enum Screens {
    /// One game, large: the court scoreboard.
    public static func board(_ game: GameViewModel, status: SyncStatus) -> [String] {
        var lines = [
            "Courtside  \(game.id)\(game.court.map { "  \($0)" } ?? "")",
            "",
            "   \(game.homeName)   \(game.score)   \(game.awayName)",
            "",
            "   \(game.clock)   \(game.statusLabel)\(game.winner.map { "   \($0) won" } ?? "")"
                + (game.shotClock.map { "   \($0)" } ?? "") + (game.rules.map { "   [\($0)]" } ?? ""),
            "",
        ]
        for (name, fouls, timeouts) in [
            (game.homeName, game.homeFouls, game.homeTimeouts), (game.awayName, game.awayFouls, game.awayTimeouts),
        ] where fouls != nil || timeouts != nil {
            lines.append("   \(name): " + [fouls, timeouts].compactMap { $0 }.joined(separator: ", "))
        }
        if game.homeFouls != nil || game.homeTimeouts != nil { lines.append("") }
        lines += boxScore(game)
        lines += ["", "Last plays:"] + (game.lastPlays.isEmpty ? ["  (none yet)"] : game.lastPlays.map { "  " + $0 })
        lines += ["", status.line, "q: quit"]
        return lines
    }

    /// Every game, one line each, then the group standings: the big screen.
    public static func bigScreen(_ tournament: TournamentViewModel, standings: [GroupStandings] = [], status: SyncStatus)
        -> [String]
    {
        var lines = ["Courtside  all games", ""] + (tournament.lines.isEmpty ? ["(no games)"] : tournament.lines)
        if !standings.isEmpty { lines += [""] + TournamentTables.standings(standings) }
        return lines + ["", status.line, "q: quit"]
    }

    /// The box score: per player, the five moves and the points.
    public static func boxScore(_ game: GameViewModel) -> [String] {
        func row(_ name: String, _ values: [String]) -> String {
            name.padding(toLength: 18, withPad: " ", startingAt: 0) + values.map { $0.leftPadded(to: 8) }.joined()
        }
        let header = row("", ["1 pt", "2 pts", "FT", "assist", "rebound", "foul", "points"])
        var lines: [String] = []
        for (team, players) in [(game.homeName, game.homePlayers), (game.awayName, game.awayPlayers)] {
            lines.append(row(team, []))
            lines.append(header)
            for player in players {
                let counts = player.counts
                lines.append(
                    row(
                        "  " + player.name,
                        [
                            counts.onePoint, counts.twoPoints, counts.freeThrow, counts.assist, counts.rebound, counts.foul,
                            player.points,
                        ].map {
                            "\($0)"
                        }))
            }
        }
        return lines
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
