import CourtsideModel

/// The games as the planner works on them: indexed, with the games each waits for, the games it
/// may share a team with, and the least time before and after it that any plan leaves.
struct Problem: Sendable {
    /// Where a slot's team comes from, when the slot does not name it.
    enum Feed: Hashable, Sendable {
        /// The winner or loser of a game.
        case game(Int)
        /// A rank in a group, or the best of a rank across groups: the team played every game
        /// of the group it was in, one of these.
        case groups([Int])
        /// A Swiss round's pairing: a team of the group that played one of these games (the
        /// rounds before), which the pairing is made from once all have ended.
        case round([Int])
    }

    let games: [GameToPlace]
    /// A game's length, the changeover and the rest, in minutes.
    let length: Int
    let changeover: Int
    let rest: Int
    /// The games each game waits for (with rest): those its slots name, and every game of a
    /// group it takes a rank of.
    let before: [[Int]]
    let after: [[Int]]
    /// Games neither before nor after each other that may share a team, so they may not overlap
    /// and the rest holds between them: games naming the same team, above all.
    let conflicts: [[Int]]
    /// The teams each game names, as indices into ``teamIDs``.
    let teams: [[Int]]
    let teamIDs: [TeamID]
    /// Each game's slots that the results fill.
    let feeds: [[Feed]]
    /// Each group's games.
    let groupGames: [[Int]]
    /// The least time from the first possible start to a game's start, and from its start to
    /// the end of the day, that the chains of dependent games and the teams' own games leave.
    let heads: [Int]
    let tails: [Int]
    /// A game's place among its division's games, from 0 to 1: ties go to the division that is
    /// further behind, so divisions take turns on the courts.
    let progress: [Double]

    var count: Int { games.count }
    var slot: Int { length + changeover }
    /// The least time from one game's start to a dependent game's start.
    var step: Int { length + rest }

    init(games: [GameToPlace], venue: Venue) throws(PlanningError) {
        self.games = games
        length = venue.gameMinutes
        changeover = venue.changeoverMinutes
        rest = venue.restMinutes
        let count = games.count

        var index: [GameID: Int] = [:]
        for (at, game) in games.enumerated() {
            if index.updateValue(at, forKey: game.id) != nil {
                throw PlanningError(.invalidGames, "game \(game.id) is given twice")
            }
        }
        var groupIndex: [String: Int] = [:]
        var groupGames: [[Int]] = []
        for (at, game) in games.enumerated() {
            guard let group = game.group else { continue }
            if let known = groupIndex[group] {
                groupGames[known].append(at)
            } else {
                groupIndex[group] = groupGames.count
                groupGames.append([at])
            }
        }

        var tokens = TokenTable()
        var teamIndex: [TeamID: Int] = [:]
        var teamIDs: [TeamID] = []
        var slotTokens: [[Int]] = []
        var teams: [[Int]] = []
        var feeds: [[Feed]] = []
        var before: [[Int]] = []
        for game in games {
            var own: [Int] = []
            var named: [Int] = []
            var fed: [Feed] = []
            var waits: [Int] = []
            for slot in [game.home, game.away] {
                let token: Token
                switch slot {
                case .team(let team):
                    let at = teamIndex[team] ?? teamIDs.count
                    if at == teamIDs.count {
                        teamIndex[team] = at
                        teamIDs.append(team)
                    }
                    token = .team(at)
                    named.append(at)
                case .winner(let other), .loser(let other):
                    guard let at = index[other] else {
                        throw PlanningError(.invalidGames, "game \(game.id): \(slot) is not among the games to place")
                    }
                    if case .winner = slot { token = .winner(at) } else { token = .loser(at) }
                    fed.append(.game(at))
                    waits.append(at)
                case .groupRank(let group, let rank):
                    guard let at = groupIndex[group] else {
                        throw PlanningError(.invalidGames, "game \(game.id): group \(group) has no game among the games to place")
                    }
                    if rank < 1 { throw PlanningError(.invalidGames, "game \(game.id): group \(group) has no rank \(rank)") }
                    token = .rank(group: at, rank: rank)
                    fed.append(.groups([at]))
                    waits.append(contentsOf: groupGames[at])
                case .bestOfRank(let rank, let place, let names):
                    var groups: [Int] = []
                    for group in names {
                        guard let at = groupIndex[group] else {
                            throw PlanningError(
                                .invalidGames, "game \(game.id): group \(group) has no game among the games to place")
                        }
                        groups.append(at)
                    }
                    groups = Array(Set(groups)).sorted()
                    if groups.isEmpty || rank < 1 || place < 1 || place > groups.count {
                        throw PlanningError(.invalidGames, "game \(game.id): \(slot) can never be filled")
                    }
                    // The ranks it picks from are tokens too, though no slot may name them.
                    for group in groups { _ = tokens.index(.rank(group: group, rank: rank)) }
                    token = .best(rank: rank, place: place, groups: groups)
                    fed.append(.groups(groups))
                    for group in groups { waits.append(contentsOf: groupGames[group]) }
                case .swissPairing(let group, let round, let pairing, let side):
                    guard let at = groupIndex[group], game.group == group else {
                        throw PlanningError(.invalidGames, "game \(game.id): \(slot) is not a game of group \(group)")
                    }
                    let earlier = groupGames[at].filter { (games[$0].swissRound ?? 1) < round }
                    if earlier.isEmpty || pairing < 1 {
                        throw PlanningError(.invalidGames, "game \(game.id): \(slot) can never be filled")
                    }
                    token = .swiss(group: at, round: round, pairing: pairing, side: side)
                    fed.append(.round(earlier))
                    waits.append(contentsOf: earlier)
                }
                own.append(tokens.index(token))
            }
            if own[0] == own[1] { throw PlanningError(.invalidGames, "game \(game.id): \(game.home) plays against itself") }
            slotTokens.append(own)
            teams.append(named)
            feeds.append(fed)
            before.append(Array(Set(waits)).sorted())
        }
        var after = Array(repeating: [Int](), count: count)
        for (game, waits) in before.enumerated() {
            for other in waits { after[other].append(game) }
        }
        let topological = try Self.topologicalOrder(before: before, after: after, games: games)

        self.before = before
        self.after = after
        self.teams = teams
        self.teamIDs = teamIDs
        self.feeds = feeds
        self.groupGames = groupGames

        var ancestors = Array(repeating: Bits(count: count), count: count)
        for game in topological {
            for other in before[game] {
                ancestors[game].insert(other)
                ancestors[game].formUnion(ancestors[other])
            }
        }
        var descendants = Array(repeating: Bits(count: count), count: count)
        for game in topological.reversed() {
            for other in after[game] {
                descendants[game].insert(other)
                descendants[game].formUnion(descendants[other])
            }
        }

        var overlap = TeamOverlap(
            tokens: tokens, slotTokens: slotTokens, groupGames: groupGames, teamCount: teamIDs.count, topological: topological)
        var conflicts = Array(repeating: [Int](), count: count)
        for game in 0..<count {
            for other in (game + 1)..<count
            where !ancestors[game].contains(other) && !descendants[game].contains(other)
                && overlap.mayShareTeam(slotTokens[game], slotTokens[other])
            {
                conflicts[game].append(other)
                conflicts[other].append(game)
            }
        }
        self.conflicts = conflicts

        let step = length + rest
        let teamCount = teamIDs.count
        func mostGamesOfOneTeam(_ among: Bits) -> Int {
            var counts = Array(repeating: 0, count: teamCount)
            var most = 0
            for game in among.members {
                for team in teams[game] {
                    counts[team] += 1
                    most = max(most, counts[team])
                }
            }
            return most
        }
        var heads = Array(repeating: 0, count: count)
        for game in topological {
            var head = mostGamesOfOneTeam(ancestors[game]) * step
            for other in before[game] { head = max(head, heads[other] + step) }
            heads[game] = head
        }
        var tails = Array(repeating: 0, count: count)
        for game in topological.reversed() {
            var tail = length + mostGamesOfOneTeam(descendants[game]) * step
            for other in after[game] { tail = max(tail, step + tails[other]) }
            tails[game] = tail
        }
        self.heads = heads
        self.tails = tails

        var divisionSizes: [String: Int] = [:]
        for game in games { divisionSizes[game.division ?? "", default: 0] += 1 }
        var seen: [String: Int] = [:]
        progress = games.map { game in
            let division = game.division ?? ""
            let place = seen[division, default: 0]
            seen[division] = place + 1
            return Double(place) / Double(divisionSizes[division] ?? 1)
        }
    }

    /// Every game after the games it waits for, or the error naming games that wait on each other.
    private static func topologicalOrder(before: [[Int]], after: [[Int]], games: [GameToPlace]) throws(PlanningError)
        -> [Int]
    {
        var waiting = before.map(\.count)
        var ready = Array(waiting.indices.filter { waiting[$0] == 0 }.reversed())
        var order: [Int] = []
        order.reserveCapacity(games.count)
        while let game = ready.popLast() {
            order.append(game)
            for other in after[game] {
                waiting[other] -= 1
                if waiting[other] == 0 { ready.append(other) }
            }
        }
        guard order.count < games.count else { return order }
        // Walk back from a game left waiting until a game repeats: that is a cycle.
        var path: [Int] = []
        var game = waiting.indices.first { waiting[$0] > 0 } ?? 0
        while !path.contains(game) {
            path.append(game)
            game = before[game].first { waiting[$0] > 0 } ?? game
        }
        // Each game of the loop feeds the next; it is told from the first of them given.
        var loop = Array(path[(path.firstIndex(of: game) ?? 0)...].reversed())
        if loop.count == 1 { throw PlanningError(.invalidGames, "game \(games[game].id) waits for its own result") }
        let first = loop.indices.min { loop[$0] < loop[$1] } ?? 0
        loop = Array(loop[first...] + loop[..<first])
        let cycle = loop + [loop[0]]
        throw PlanningError(
            .invalidGames,
            "games \(cycle.map { games[$0].id.rawValue }.joined(separator: " → ")) wait on each other's results")
    }
}
