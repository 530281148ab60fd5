public import CourtsideModel

extension Formats {
    /// Entrants in seed order, the best first: by seed (seeded teams before unseeded ones),
    /// then by ranking points (more first), then as listed.
    public static func seedOrder(_ entrants: [Entrant]) -> [Entrant] {
        entrants.enumerated().sorted { left, right in
            let (a, b) = (left.element, right.element)
            if a.seed != b.seed {
                switch (a.seed, b.seed) {
                case (let x?, let y?): return x < y
                case (.some, nil): return true
                case (nil, .some): return false
                case (nil, nil): break
                }
            }
            if a.rankingPoints != b.rankingPoints { return (a.rankingPoints ?? -.infinity) > (b.rankingPoints ?? -.infinity) }
            return left.offset < right.offset
        }.map(\.element)
    }

    /// Each entrant's seed for tie-breakers (``Schedule/seeds``): its place in the list, 1 first.
    public static func seeds(_ entrants: [Entrant]) -> [TeamID: Int] {
        Dictionary(entrants.enumerated().map { ($0.element.id, $0.offset + 1) }, uniquingKeysWith: { first, _ in first })
    }

    /// Entrants shuffled by a seeded generator: the same seed gives the same order.
    public static func shuffled(_ entrants: [Entrant], seed: UInt64) -> [Entrant] {
        var random = SeededRandom(seed: seed)
        var shuffled = entrants
        // Fisher-Yates with our own generator: the standard library's shuffle may change its
        // algorithm between releases, and a recorded seed must replay the same draw.
        for index in stride(from: shuffled.count - 1, to: 0, by: -1) {
            let other = Int(random.next() % UInt64(index + 1))
            shuffled.swapAt(index, other)
        }
        return shuffled
    }

    /// Throws unless there are at least `minimum` entrants, at most `maximum`, with distinct ids.
    static func check(_ entrants: [Entrant], minimum: Int, maximum: Int = 1024, format: String) throws(FormatError) {
        if entrants.count < minimum {
            throw FormatError(.tooFewTeams, "\(format) needs at least \(minimum) teams, not \(entrants.count)")
        }
        if entrants.count > maximum {
            throw FormatError(.tooManyTeams, "\(format) takes at most \(maximum) teams, not \(entrants.count)")
        }
        var seen = Set<TeamID>()
        for entrant in entrants where !seen.insert(entrant.id).inserted {
            throw FormatError(.duplicateTeam, "team \(entrant.id) is entered twice")
        }
    }

    /// Throws unless every game id of the draw is a valid game id (the prefix or a group id can
    /// make one too long, or hold a character game ids do not take), and unique (a group named
    /// like a knockout round could repeat one).
    static func checkIDs(_ games: [ScheduledGame]) throws(FormatError) {
        var seen = Set<GameID>()
        // Ids differ mostly in their last digits: each stem's characters are checked once (a
        // check of every id was a fifth of a big round robin's time).
        var goodStems = Set<Substring>()
        for game in games {
            let id = game.id.rawValue
            var end = id.utf8.endIndex
            while end > id.utf8.startIndex, case let digit = id.utf8[id.utf8.index(before: end)], (48...57).contains(digit) {
                end = id.utf8.index(before: end)
            }
            let stem = Substring(id.utf8[..<end])
            if id.utf8.count > 64 || !goodStems.contains(stem) {
                if let problem = GameSetup.problem(withID: id) {
                    throw FormatError(.invalidPrefix, "game id \(game.id): \(problem)")
                }
                goodStems.insert(stem)
            }
            if !seen.insert(game.id).inserted { throw FormatError(.invalidPrefix, "game id \(game.id) comes twice") }
        }
    }
}
