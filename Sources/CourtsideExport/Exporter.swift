public import CourtsideModel
public import Foundation

/// Everything an export is made of, all of it derived from the event log.
public struct TournamentRecord: Sendable {
    public var games: [Game]
    public var standings: [GroupStandings]
    public var bracket: [BracketEntry]
    /// Each game's full trail from the log, retractions included.
    public var trails: [GameID: [GameEvent]]

    public init(games: [Game], standings: [GroupStandings], bracket: [BracketEntry], trails: [GameID: [GameEvent]]) {
        self.games = games.sorted { $0.id < $1.id }
        self.standings = standings
        self.bracket = bracket
        self.trails = trails
    }
}

/// Results, standings, box scores and play-by-play, as CSV files or one JSON document.
public enum Exporter {
    /// The tables, each a header and rows of strings.
    public static func tables(_ record: TournamentRecord) -> [(name: String, header: [String], rows: [[String]])] {
        let rounds = Dictionary(record.bracket.map { ($0.game, $0) }, uniquingKeysWith: { first, _ in first })
        let results = record.games.map { game -> [String] in
            let entry = rounds[game.id]
            return [
                game.id.rawValue, entry?.round ?? "", entry?.group ?? "", game.setup.court ?? "", game.setup.home.id.rawValue,
                game.setup.away.id.rawValue, "\(game.score.home)", "\(game.score.away)", game.status.rawValue,
                game.winner.map { game.setup.team($0).id.rawValue } ?? "", game.endReason?.rawValue ?? "",
            ]
        }
        let standings = record.standings.flatMap { table in
            table.rows.map { row in
                [
                    table.group, "\(row.rank)", row.team.rawValue, row.name, "\(row.played)", "\(row.won)", "\(row.lost)",
                    "\(row.pointsFor)", "\(row.pointsAgainst)", "\(row.difference)",
                ]
            }
        }
        let boxScores = record.games.flatMap { game in
            Side.allCases.flatMap { side in
                game.setup.team(side).players.map { player in
                    let counts = game.counts[player.id] ?? MoveCounts()
                    return [
                        game.id.rawValue, game.setup.team(side).id.rawValue, player.id.rawValue, player.name,
                        "\(counts.onePoint)", "\(counts.twoPoints)", "\(counts.freeThrow)", "\(counts.assist)",
                        "\(counts.rebound)", "\(counts.foul)", "\(counts.points)",
                    ]
                }
            }
        }
        let plays = record.games.flatMap { game in
            let retractedBy = Dictionary(
                game.plays.compactMap { play in play.retractedBy.map { (play.version, $0) } }, uniquingKeysWith: { a, _ in a })
            return (record.trails[game.id] ?? []).map { event in
                var player = ""
                var move = ""
                var target = ""
                switch event.kind {
                case .move(let who, let what): (player, move) = (who.rawValue, what.rawValue)
                case .retraction(let version, _): target = "\(version)"
                case .timeout(let side): player = side.rawValue
                default: break
                }
                return [
                    game.id.rawValue, "\(event.version)", "\(event.sequence)", iso8601(event.at), event.origin.clientID,
                    event.origin.commandID, event.kind.typeName, player, move, target,
                    retractedBy[event.version].map { "\($0)" } ?? "",
                ]
            }
        }
        return [
            (
                "results",
                [
                    "game", "round", "group", "court", "home", "away", "home_score", "away_score", "status", "winner",
                    "end_reason",
                ], results
            ),
            (
                "standings",
                ["group", "rank", "team", "name", "played", "won", "lost", "points_for", "points_against", "difference"],
                standings
            ),
            (
                "box_scores",
                [
                    "game", "team", "player", "name", "one_point", "two_points", "free_throw", "assist", "rebound", "foul",
                    "points",
                ], boxScores
            ),
            (
                "play_by_play",
                [
                    "game", "version", "sequence", "at", "client_id", "command_id", "type", "player", "move", "target_version",
                    "retracted_by",
                ], plays
            ),
        ]
    }

    /// One CSV file per table: `results.csv`, `standings.csv`, `box_scores.csv`, `play_by_play.csv`.
    public static func csvFiles(_ record: TournamentRecord) -> [String: String] {
        var files: [String: String] = [:]
        for table in tables(record) {
            files["\(table.name).csv"] =
                ([table.header] + table.rows).map { $0.map(csvField).joined(separator: ",") }
                .joined(separator: "\n") + "\n"
        }
        return files
    }

    /// One JSON document with every table as a list of objects.
    public static func json(_ record: TournamentRecord) -> Data {
        var document: [String: [[String: String]]] = [:]
        for table in tables(record) {
            document[table.name] = table.rows.map { Dictionary(uniqueKeysWithValues: zip(table.header, $0)) }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(document)) ?? Data("{}".utf8)
    }

    static func csvField(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func iso8601(_ time: Timestamp) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: Double(time.rawValue) / 1000))
    }
}
