public import CourtsideLocalization
public import CourtsideModel

/// The games of one court in playing order, and the one its keeper should see now: what the
/// keeper page opens on and lets the keeper switch between.
public struct CourtLineup: Hashable, Sendable, Encodable {
    /// One game of the court.
    public struct Entry: Hashable, Sendable, Encodable {
        public var game: GameID
        /// "Lions v Tigers", or the slots still open ("winner of g1 v 1st of group B").
        public var title: String
        /// Each side as ``title`` names it, for a page that words the title in its own language.
        public var home: String
        public var away: String
        /// Each side's slot while no team fills it, which a page words in its own language
        /// (``Slot/words(_:)``); not encoded: ``home`` and ``away`` say it in English.
        public var homeSlot: Slot?
        public var awaySlot: Slot?
        /// When the schedule says, as the organiser wrote it.
        public var start: String?
        public var state: BracketState
        /// Whether the game exists yet: a bracket game waits for its teams.
        public var exists: Bool
        /// The game as the keeper page lists it: "g1: Lions v Tigers", with its start when the
        /// schedule gives one ("g1: Lions v Tigers, 10:00").
        public var label: String

        init(
            game: GameID, home: String, away: String, start: String?, state: BracketState, exists: Bool,
            homeSlot: Slot? = nil, awaySlot: Slot? = nil
        ) {
            (self.game, self.home, self.away, self.start, self.state, self.exists) = (game, home, away, start, state, exists)
            (self.homeSlot, self.awaySlot) = (homeSlot, awaySlot)
            title = "\(home) v \(away)"
            label = "\(game): \(title)\(start.map { ", \($0)" } ?? "")"
        }

        /// The line the keeper page's game picker shows, in `words`' language: "g1: Lions v
        /// Tigers, 10:00"; ``label`` is the same in English, for the API.
        public func label(_ words: Words) -> String {
            let values = ["game": game.rawValue, "title": title(words), "start": start ?? ""]
            return start == nil ? words(.keeperGameLine, values) : words(.keeperGameLineAt, values)
        }

        /// The title in `words`' language: "Lions 対 Tigers", "g1の勝者 対 g2の勝者".
        public func title(_ words: Words) -> String {
            words(.gameTitle, ["home": homeSlot?.words(words) ?? home, "away": awaySlot?.words(words) ?? away])
        }

        private enum CodingKeys: String, CodingKey { case game, title, home, away, start, state, exists, label }
    }

    public var court: String
    public var entries: [Entry]

    /// The lineup with each game's title and picker line in `words`' language, for a page that
    /// lists them as they come (the keeper page's `/api/keep/session`).
    public func worded(_ words: Words) -> CourtLineup {
        var lineup = self
        for index in lineup.entries.indices {
            let entry = lineup.entries[index]
            (lineup.entries[index].title, lineup.entries[index].label) = (entry.title(words), entry.label(words))
        }
        return lineup
    }
    /// The first game on the court, by the schedule, that is not final and exists; else the
    /// first not final; else the last.
    public var current: GameID?

    /// The court's scheduled games in the schedule's order (``BracketEntry/following(_:)``
    /// brings each one's state up to `games`), then its other games by id.
    public init(court: String, bracket: [BracketEntry], games: [GameID: Game]) {
        self.court = court
        // A team known to the bracket but in no game yet is named as any game of it names it.
        var names: [TeamID: String] = [:]
        for game in games.values {
            (names[game.setup.home.id], names[game.setup.away.id]) = (game.setup.home.name, game.setup.away.name)
        }
        let side = { (team: TeamID?, slot: Slot) in team.map { names[$0] ?? $0.rawValue } ?? slot.description }
        // A slot no team fills yet, which a page words in its own language.
        let open = { (team: TeamID?, slot: Slot) -> Slot? in
            if team != nil { return nil }
            if case .team = slot { return nil }
            return slot
        }
        var entries: [Entry] = []
        for scheduled in bracket where scheduled.court == court {
            let entry = scheduled.following(games[scheduled.game])
            entries.append(
                Entry(
                    game: entry.game, home: side(entry.homeTeam, entry.home), away: side(entry.awayTeam, entry.away),
                    start: entry.start, state: entry.state, exists: games[entry.game] != nil,
                    homeSlot: open(entry.homeTeam, entry.home), awaySlot: open(entry.awayTeam, entry.away)))
        }
        let scheduled = Set(entries.map(\.game))
        for id in games.keys.sorted() where !scheduled.contains(id) {
            guard let game = games[id], game.setup.court == court else { continue }
            // A game outside the schedule is ready from its creation; the bracket's rule does the rest.
            let unscheduled = BracketEntry(
                game: id, round: nil, group: nil, court: court, start: nil, home: .team(game.setup.home.id),
                away: .team(game.setup.away.id), homeTeam: nil, awayTeam: nil, state: .ready, score: nil, winner: nil)
            entries.append(
                Entry(
                    game: id, home: game.setup.home.name, away: game.setup.away.name, start: nil,
                    state: unscheduled.following(game).state, exists: true))
        }
        self.entries = entries
        current =
            (entries.first { $0.state != .final && $0.exists } ?? entries.first { $0.state != .final } ?? entries.last)?.game
    }
}
