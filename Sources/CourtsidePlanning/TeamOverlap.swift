import CourtsideModel

/// What a slot holds, as the planner tells slots apart: a team, a game's winner or loser, a
/// group's rank.
enum Token: Hashable, Sendable {
    case team(Int)
    case winner(Int)
    case loser(Int)
    case rank(group: Int, rank: Int)
    /// The `place`-th best of the teams ranked `rank` in `groups` (sorted).
    case best(rank: Int, place: Int, groups: [Int])
    /// A side of a Swiss round's `pairing`-th game in a group, paired from the rounds before.
    case swiss(group: Int, round: Int, pairing: Int, side: Side)
}

/// The distinct tokens the games' slots hold, numbered.
struct TokenTable: Sendable {
    private(set) var tokens: [Token] = []
    private var numbers: [Token: Int] = [:]

    func number(of token: Token) -> Int? { numbers[token] }

    mutating func index(_ token: Token) -> Int {
        if let known = numbers[token] { return known }
        numbers[token] = tokens.count
        tokens.append(token)
        return tokens.count - 1
    }
}

/// Whether two games, neither of which waits for the other, may have a team in common.
///
/// A team fills exactly one of a game's results (its winner or its loser) and one rank of its
/// group, so two different results of the same game or group never hold the same team. Two
/// tokens may hold the same team when they are the same token, name the same team, or, going
/// back from the token whose game or group comes later to the tokens that fed it, one of those
/// may. This keeps A1 v B2 and B1 v A2 free to be played at once, and the final with the game
/// for third place, while a team named in a later game (a bye) and in a game whose winner may
/// meet it elsewhere is kept apart.
struct TeamOverlap {
    /// What gives a token its team: a game, a group, or the teams of one rank across groups.
    private enum Emitter: Hashable {
        case game(Int)
        case group(Int)
        case best(rank: Int, groups: [Int])
        /// A Swiss round of a group: its slots hold different teams, all from the group.
        case swissRound(group: Int, round: Int)
    }

    private let tokens: [Token]
    private let candidates: [Bits]
    private let levels: [Int]
    private let emitters: [Emitter?]
    private let inputs: [Emitter: [Int]]
    private var memo: [Int: Bool] = [:]

    init(tokens table: TokenTable, slotTokens: [[Int]], groupGames: [[Int]], teamCount: Int, topological: [Int]) {
        let tokens = table.tokens
        self.tokens = tokens
        var inputs: [Emitter: [Int]] = [:]
        for (game, own) in slotTokens.enumerated() { inputs[.game(game)] = own }
        for (group, games) in groupGames.enumerated() {
            inputs[.group(group)] = Array(Set(games.flatMap { slotTokens[$0] })).sorted()
        }
        for token in tokens {
            guard case .best(let rank, _, let groups) = token else { continue }
            inputs[.best(rank: rank, groups: groups)] = groups.compactMap { table.number(of: .rank(group: $0, rank: rank)) }
        }
        for token in tokens {
            // Once a round: each of its games' slots is a token of it.
            guard case .swiss(let group, let round, _, _) = token, inputs[.swissRound(group: group, round: round)] == nil
            else { continue }
            inputs[.swissRound(group: group, round: round)] = Self.earlierRounds(
                of: group, before: round, groupGames: groupGames, slotTokens: slotTokens, tokens: tokens)
        }
        self.inputs = inputs
        let emitters: [Emitter?] = tokens.map { token in
            switch token {
            case .team: nil
            case .winner(let game), .loser(let game): .game(game)
            case .rank(let group, _): .group(group)
            case .best(let rank, _, let groups): .best(rank: rank, groups: groups)
            case .swiss(let group, let round, _, _): .swissRound(group: group, round: round)
            }
        }
        self.emitters = emitters

        // Levels and candidate teams, games in order; a group's come from its games.
        var gameLevels = Array(repeating: 0, count: slotTokens.count)
        var gameCandidates = Array(repeating: Bits(count: teamCount), count: slotTokens.count)
        var tokenLevels = Array(repeating: -1, count: tokens.count)
        var tokenCandidates = Array(repeating: Bits(count: teamCount), count: tokens.count)
        func resolve(_ token: Int) {
            guard tokenLevels[token] < 0 else { return }
            switch tokens[token] {
            case .team(let team):
                tokenLevels[token] = 0
                tokenCandidates[token].insert(team)
            case .winner(let game), .loser(let game):
                tokenLevels[token] = gameLevels[game]
                tokenCandidates[token] = gameCandidates[game]
            case .rank(let group, _):
                var level = 0
                var found = Bits(count: teamCount)
                for game in groupGames[group] {
                    level = max(level, gameLevels[game])
                    found.formUnion(gameCandidates[game])
                }
                tokenLevels[token] = level
                tokenCandidates[token] = found
            case .best(let rank, _, let groups):
                // Above the ranks it picks from, so that going back from it always goes down.
                var level = 0
                var found = Bits(count: teamCount)
                for group in groups {
                    guard let ranked = table.number(of: .rank(group: group, rank: rank)) else { continue }
                    resolve(ranked)
                    level = max(level, tokenLevels[ranked] + 1)
                    found.formUnion(tokenCandidates[ranked])
                }
                tokenLevels[token] = level
                tokenCandidates[token] = found
            case .swiss(let group, let round, _, _):
                // Any team of the group: above every token of the rounds before.
                var level = 0
                var found = Bits(count: teamCount)
                for input in inputs[.swissRound(group: group, round: round)] ?? [] {
                    resolve(input)
                    level = max(level, tokenLevels[input] + 1)
                    found.formUnion(tokenCandidates[input])
                }
                tokenLevels[token] = level
                tokenCandidates[token] = found
            }
        }
        for game in topological {
            var level = 0
            for token in slotTokens[game] {
                resolve(token)
                level = max(level, tokenLevels[token])
                gameCandidates[game].formUnion(tokenCandidates[token])
            }
            gameLevels[game] = level + 1
        }
        // A group's rank is resolved only once every game of the group has been; a rank that no
        // game feeds after the group's games are all resolved is resolved here.
        for token in tokens.indices { resolve(token) }
        levels = tokenLevels
        candidates = tokenCandidates
    }

    /// The tokens of a Swiss group's games of the rounds before `round` (a game already paired,
    /// or drawn with its teams, is of the first).
    private static func earlierRounds(
        of group: Int, before round: Int, groupGames: [[Int]], slotTokens: [[Int]], tokens: [Token]
    ) -> [Int] {
        let earlier = groupGames[group].filter { game in
            slotTokens[game].allSatisfy { token in
                if case .swiss(_, let other, _, _) = tokens[token] { return other < round }
                return true
            }
        }
        return Array(Set(earlier.flatMap { slotTokens[$0] })).sorted()
    }

    /// Whether a team may be in both games, given each game's two slot tokens.
    mutating func mayShareTeam(_ first: [Int], _ second: [Int]) -> Bool {
        for a in first {
            for b in second where mayShare(a, b) { return true }
        }
        return false
    }

    private mutating func mayShare(_ a: Int, _ b: Int) -> Bool {
        if a == b { return true }
        if !candidates[a].intersects(candidates[b]) { return false }
        // Two teams are different teams; two results of one game or group are different teams.
        if emitters[a] == emitters[b] { return false }
        let key = min(a, b) * tokens.count + max(a, b)
        if let known = memo[key] { return known }
        // The token whose game or group comes later goes back to what fed it (a team is level 0).
        let found = levels[a] >= levels[b] ? expand(a, against: b) : expand(b, against: a)
        memo[key] = found
        return found
    }

    /// Whether the team that holds `token` may hold `other`: it held one of the tokens that fed
    /// `token`'s game or group.
    private mutating func expand(_ token: Int, against other: Int) -> Bool {
        guard let emitter = emitters[token] else { return false }
        for input in inputs[emitter] ?? [] where mayShare(other, input) { return true }
        return false
    }
}
