import CourtsideFormats
import CourtsideModel
import Testing

/// Entrants t1...tN in seed order.
func entrants(_ count: Int) -> [Entrant] {
    (0..<count).map { Entrant(id: TeamID("t\($0 + 1)"), seed: $0 + 1) }
}

/// The seed a test team's id stands for (t7 is 7).
func seed(_ team: TeamID) -> Int { Int(team.rawValue.dropFirst()) ?? 0 }

/// Team counts 2...128, which every property test walks.
let teamCounts = Array(2...128)

/// The counts the costliest checks of the biggest formats run on: every count to 33, the
/// powers of two and their neighbours, and a spread between.
let sampledCounts: Set<Int> = Set(2...33).union([47, 63, 64, 65, 81, 96, 100, 113, 127, 128])

/// Checks every draw must pass: ids unique and valid, rounds named and listed in order, every
/// slot naming a game or group of the draw, each game after those it waits on, and a schedule
/// of it with no problem. Collected, then one expectation: thousands of them in a loop are slow.
func expectSound(_ draw: Draw, teams: [Entrant], sourceLocation: SourceLocation = #_sourceLocation) {
    var problems: [String] = []
    let ids = draw.games.map(\.id)
    let order = Dictionary(ids.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
    if order.count != ids.count { problems.append("game ids repeat") }
    for id in ids where GameSetup.problem(withID: id.rawValue) != nil { problems.append("invalid game id \(id)") }
    let known = Set(teams.map(\.id))
    let groups = Set(draw.groups.map(\.id))
    let roundIndex = Dictionary(draw.rounds.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
    if roundIndex.count != draw.rounds.count { problems.append("rounds repeat") }
    let dependencies = draw.dependencies
    var lastRound = -1
    for (index, game) in draw.games.enumerated() {
        guard let round = game.round.flatMap({ roundIndex[$0] }) else {
            problems.append("game \(game.id) has no listed round")
            continue
        }
        if round < lastRound { problems.append("game \(game.id) out of round order") }
        lastRound = max(lastRound, round)
        if let group = game.group, !groups.contains(group) { problems.append("game \(game.id) in unknown group \(group)") }
        for slot in [game.home, game.away] {
            switch slot {
            case .team(let team): if !known.contains(team) { problems.append("unknown team \(team)") }
            case .winner(let other), .loser(let other):
                if order[other] == nil { problems.append("\(game.id): \(slot) names no game") }
            case .groupRank(let group, _): if !groups.contains(group) { problems.append("\(game.id): \(slot) names no group") }
            case .bestOfRank(_, _, let named):
                if !named.allSatisfy(groups.contains) { problems.append("\(game.id): \(slot) names no group") }
            case .swissPairing(let group, _, _, _):
                if game.group != group { problems.append("\(game.id): \(slot) is not in its own group") }
            }
        }
        for dependency in dependencies[game.id] ?? [] where (order[dependency] ?? .max) >= index {
            problems.append("\(game.id) waits on \(dependency), which is not before it")
        }
    }
    if let problem = schedule(draw, teams: teams).problem { problems.append(problem) }
    #expect(problems.isEmpty, "\(problems.prefix(5))", sourceLocation: sourceLocation)
}

/// A schedule of the draw with a one-player team for each entrant.
func schedule(_ draw: Draw, teams: [Entrant]) -> Schedule {
    Schedule(
        teams: Dictionary(
            uniqueKeysWithValues: teams.map {
                ($0.id, Team(id: $0.id, name: $0.id.rawValue, players: [Player(id: PlayerID("\($0.id)-p"), name: "P")]))
            }),
        groups: draw.groups, rounds: draw.rounds, games: draw.games)
}

/// The teams a game names directly.
func namedTeams(_ game: ScheduledGame) -> [TeamID] {
    [game.home, game.away].compactMap { if case .team(let team) = $0 { team } else { nil } }
}

/// The error code a draw throws, or nil when it draws.
func code(_ body: () throws(FormatError) -> Draw) -> FormatError.Code? {
    do {
        _ = try body()
        return nil
    } catch {
        return error.code
    }
}

/// Plays a schedule out through the model, in its order: each game, once the results so far
/// decide its teams, is won 15-10 by the team `winner` picks (the better seed unless told).
/// Returns the games, or records an issue for a game whose teams are still open.
func playOut(
    _ schedule: Schedule, winner: (TeamID, TeamID) -> TeamID = { seed($0) < seed($1) ? $0 : $1 },
    sourceLocation: SourceLocation = #_sourceLocation
) -> [GameID: Game] {
    var games: [GameID: Game] = [:]
    for scheduled in schedule.games {
        guard let lineup = schedule.lineup(for: scheduled, games) else {
            Issue.record("\(scheduled.id): teams still open", sourceLocation: sourceLocation)
            return games
        }
        games[scheduled.id] = played(scheduled, lineup, winner: winner)
    }
    return games
}

/// A game of the schedule with these teams, won 15-10 by the team `winner` picks.
func played(_ scheduled: ScheduledGame, _ lineup: Lineup, winner: (TeamID, TeamID) -> TeamID) -> Game {
    var game = Game(setup: GameSetup(id: scheduled.id, home: lineup.home, away: lineup.away, rules: scheduled.rules))
    let winning: Side = winner(lineup.home.id, lineup.away.id) == lineup.home.id ? .home : .away
    for (side, points) in [(winning.opponent, 10), (winning, 15)] {
        let player = lineup.team(side).players[0].id
        for _ in 0..<points {
            game.apply(
                GameEvent(
                    gameID: game.id, version: game.version + 1, at: Timestamp(milliseconds: 0),
                    origin: CommandOrigin(clientID: "t", commandID: "\(game.version)"),
                    kind: .move(player: player, move: .onePoint)))
        }
    }
    return game
}

extension Lineup {
    func team(_ side: Side) -> Team { side == .home ? home : away }
}

extension Draw {
    /// The games that must end before a game can start: those its winner and loser slots
    /// name, and every game of each group whose ranking its slots take. Only the checks need
    /// it: the model finds cycles itself (`Schedule.problem`), the planner its own waits.
    func dependencies(of game: ScheduledGame) -> [GameID] {
        dependencies(of: game, byGroup: gamesByGroup)
    }

    /// Every game's ``dependencies(of:)``, by game id.
    var dependencies: [GameID: [GameID]] {
        let byGroup = gamesByGroup
        return Dictionary(games.map { ($0.id, dependencies(of: $0, byGroup: byGroup)) }, uniquingKeysWith: { first, _ in first })
    }

    private var gamesByGroup: [String: [GameID]] {
        var byGroup: [String: [GameID]] = [:]
        for game in games { if let group = game.group { byGroup[group, default: []].append(game.id) } }
        return byGroup
    }

    private func dependencies(of game: ScheduledGame, byGroup: [String: [GameID]]) -> [GameID] {
        var found: [GameID] = []
        for slot in [game.home, game.away] {
            switch slot {
            case .team: break
            case .winner(let other), .loser(let other): found.append(other)
            case .groupRank(let group, _): found += byGroup[group] ?? []
            case .bestOfRank(_, _, let groups): found += groups.flatMap { byGroup[$0] ?? [] }
            case .swissPairing(let group, let round, _, _):
                // The games of the rounds before: those paired already, and those paired earlier.
                found += (byGroup[group] ?? []).filter { id in
                    (games.first { $0.id == id }?.swissRound ?? 1) < round
                }
            }
        }
        var seen = Set<GameID>()
        return found.filter { seen.insert($0).inserted }
    }
}
