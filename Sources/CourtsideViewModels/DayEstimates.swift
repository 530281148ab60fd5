public import CourtsideLocalization
public import CourtsideModel
public import Foundation

/// When each game still to play can be expected to start as the day slips, and which waiting
/// game could move to a court that stands free: what "next on Court 2, about 10:50", a team's
/// page and the desk show.
///
/// One pass over the schedule's games in order of their scheduled start: a game starts at the
/// latest of its scheduled time (never earlier), now (a game due in the past starts no sooner
/// than now), its court's free time (the game before it on that court ended, or will end a game's
/// length after it started, plus the changeover), and each of its teams' rest after their last
/// game (for a team not known yet, the games or the pool its slot waits on). Games that ended
/// count at their real end; a game under way runs at least until now.
public struct DayEstimates: Hashable, Sendable {
    /// A game still to play, and when it can be expected to start.
    public struct Estimate: Hashable, Sendable, Encodable {
        public var game: GameID
        /// Minutes after the day's midnight.
        public var minutes: Int
        /// "10:50".
        public var time: String
        /// How much later than its scheduled time (0 on time).
        public var minutesLate: Int
    }

    /// A court that stands free now, and a waiting game from another court whose teams are
    /// ready: moved there, it would start sooner.
    public struct Suggestion: Hashable, Sendable, Encodable {
        public var game: GameID
        public var title: String
        public var from: String
        public var to: String
        /// Its scheduled time, as the schedule writes it.
        public var scheduled: String?
        /// When it could start on `to`: "10:52".
        public var start: String
        /// How many minutes sooner than its estimate where it is.
        public var minutesSooner: Int
        /// "Court 3 is free: move g12 (Bears v Wolves) there from Court 2, to start about 10:52,
        /// 18 min sooner."
        public var text: String
    }

    /// The games still to play that have a scheduled time, by id.
    public var estimates: [GameID: Estimate]
    /// At most one waiting game for each free court.
    public var suggestions: [Suggestion]
    /// The pace the estimates assume: the schedule's own, or a game's slot read from the
    /// schedule's starts on one court (no rest) where the schedule has none.
    public var timing: DayTiming

    /// A suggestion needs this many minutes gained, so the desk is not told to shuffle games
    /// for a minute or two.
    public static let worthMoving = 10

    /// The estimates at `now` for the schedule's games (`bracket`, in the schedule's order) as
    /// `games` stand; `calendar` reads the schedule's times (the venue's time zone). `titles`
    /// names a game for a suggestion ("Bears v Wolves"); the game id stands in without one.
    /// `words`: the language of each suggestion's text.
    public init(
        bracket: [BracketEntry], games: [GameID: Game], timing: DayTiming?, now: Date, calendar: Calendar,
        titles: [GameID: String] = [:], words: Words = .english
    ) {
        let pace = timing ?? Self.inferred(from: bracket)
        self.timing = pace
        let midnight = calendar.startOfDay(for: now)
        func minutes(_ date: Date) -> Int { Int(date.timeIntervalSince(midnight) / 60) }
        func minutes(_ stamp: Timestamp) -> Int { minutes(Date(timeIntervalSince1970: Double(stamp.rawValue) / 1000)) }
        let nowMinutes = minutes(now)

        let entries = bracket.enumerated().compactMap { index, entry -> (Int, Int, BracketEntry)? in
            guard let start = entry.start.flatMap(TextRule.time) else { return nil }
            return (start.hour * 60 + start.minute, index, entry.following(games[entry.game]))
        }.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }

        var courtFree: [String: Int] = [:]
        // When each court's games played or under way leave it, the changeover done.
        var playedUntil: [String: Int] = [:]
        var teamReady: [TeamID: Int] = [:]
        var gameEnd: [GameID: Int] = [:]
        var groupEnd: [String: Int] = [:]
        // Each group's ends by Swiss round still to be paired (1: every game with its teams).
        var roundEnd: [String: [Int: Int]] = [:]
        var teamsReadyAt: [GameID: Int] = [:]
        var estimates: [GameID: Estimate] = [:]
        func ended(_ entry: BracketEntry, at end: Int, court: String?) {
            if let court { courtFree[court] = max(courtFree[court] ?? .min, end + pace.changeoverMinutes) }
            for team in [entry.homeTeam, entry.awayTeam].compactMap({ $0 }) {
                teamReady[team] = max(teamReady[team] ?? .min, end + pace.restMinutes)
            }
            gameEnd[entry.game] = end
            if let group = entry.group {
                groupEnd[group] = max(groupEnd[group] ?? .min, end)
                let round = entry.home.swissRound ?? entry.away.swissRound ?? 1
                roundEnd[group, default: [:]][round] = max(roundEnd[group]?[round] ?? .min, end)
            }
        }
        /// When a side can play: its team's rest, or the games its slot waits on and a rest.
        func ready(_ team: TeamID?, _ slot: Slot) -> Int {
            if let team { return teamReady[team] ?? .min }
            let waits: Int? =
                switch slot {
                case .team: nil
                case .winner(let game), .loser(let game): gameEnd[game]
                case .groupRank(let group, _): groupEnd[group]
                case .bestOfRank(_, _, let groups): groups.compactMap { groupEnd[$0] }.max()
                case .swissPairing(let group, let round, _, _):
                    roundEnd[group]?.filter { $0.key < round }.values.max()
                }
            return waits.map { $0 + pace.restMinutes } ?? .min
        }
        for (scheduled, _, entry) in entries {
            let court = games[entry.game]?.setup.court ?? entry.court
            switch entry.state {
            case .final:
                let end = games[entry.game]?.endedAt.map(minutes) ?? scheduled + pace.gameMinutes
                ended(entry, at: end, court: court)
                if let court { playedUntil[court] = max(playedUntil[court] ?? .min, end + pace.changeoverMinutes) }
            case .live:
                let start = games[entry.game]?.startedAt.map(minutes) ?? scheduled
                let end = max(start + pace.gameMinutes, nowMinutes)
                ended(entry, at: end, court: court)
                if let court { playedUntil[court] = max(playedUntil[court] ?? .min, end + pace.changeoverMinutes) }
            case .ready, .pending:
                let teams = max(ready(entry.homeTeam, entry.home), ready(entry.awayTeam, entry.away))
                teamsReadyAt[entry.game] = teams
                let start = max(scheduled, nowMinutes, teams, court.flatMap { courtFree[$0] } ?? .min)
                estimates[entry.game] = Estimate(
                    game: entry.game, minutes: start, time: Self.time(start), minutesLate: start - scheduled)
                ended(entry, at: start + pace.gameMinutes, court: court)
            }
        }
        self.estimates = estimates

        // A free court: no game on it now (its last one ended, the changeover maybe under way),
        // and room for a game before its own next one.
        var nextOnCourt: [String: Int] = [:]
        for (_, _, entry) in entries {
            guard let estimate = estimates[entry.game], let court = games[entry.game]?.setup.court ?? entry.court else {
                continue
            }
            nextOnCourt[court] = min(nextOnCourt[court] ?? .max, estimate.minutes)
        }
        var lastOnCourt: [String: BracketState] = [:]
        for (_, _, entry) in entries where entry.state == .live || entry.state == .final {
            if let court = games[entry.game]?.setup.court ?? entry.court { lastOnCourt[court] = entry.state }
        }
        let courts = entries.compactMap { games[$0.2.game]?.setup.court ?? $0.2.court }.reduce(into: [String]()) {
            if !$0.contains($1) { $0.append($1) }
        }
        var moved = Set<GameID>()
        var suggestions: [Suggestion] = []
        for court in courts where lastOnCourt[court] != .live {
            let opens = max(nowMinutes, playedUntil[court] ?? .min)
            guard opens <= nowMinutes + pace.changeoverMinutes, (nextOnCourt[court] ?? .max) >= opens + pace.slotMinutes
            else { continue }
            let candidate = entries.lazy.map(\.2).first { entry in
                guard entry.state == .ready, !moved.contains(entry.game), let estimate = estimates[entry.game],
                    let from = games[entry.game]?.setup.court ?? entry.court, from != court
                else { return false }
                return (teamsReadyAt[entry.game] ?? .min) <= opens && estimate.minutes - opens >= Self.worthMoving
            }
            guard let candidate, let estimate = estimates[candidate.game],
                let from = games[candidate.game]?.setup.court ?? candidate.court
            else { continue }
            moved.insert(candidate.game)
            let title = titles[candidate.game] ?? candidate.game.rawValue
            let sooner = estimate.minutes - opens
            suggestions.append(
                Suggestion(
                    game: candidate.game, title: title, from: from, to: court, scheduled: candidate.start,
                    start: Self.time(opens), minutesSooner: sooner,
                    text: words.plural(
                        .estimatesSuggestion, count: sooner,
                        [
                            "court": court, "game": candidate.game.rawValue, "title": title, "from": from,
                            "time": Self.time(opens),
                        ])))
        }
        self.suggestions = suggestions
    }

    /// A time of day as the schedule writes it: "09:05".
    static func time(_ minutes: Int) -> String {
        let day = ((minutes % 1440) + 1440) % 1440
        return String(format: "%02d:%02d", day / 60, day % 60)
    }

    /// A game's slot read from the schedule where it has no timing: the least gap between two
    /// starts on one court (no changeover, no rest); 0 when no court has two timed games.
    static func inferred(from bracket: [BracketEntry]) -> DayTiming {
        var starts: [String: [Int]] = [:]
        for entry in bracket {
            guard let court = entry.court, let time = entry.start.flatMap(TextRule.time) else { continue }
            starts[court, default: []].append(time.hour * 60 + time.minute)
        }
        var slot = Int.max
        for times in starts.values {
            let sorted = times.sorted()
            for (a, b) in zip(sorted, sorted.dropFirst()) where b > a { slot = min(slot, b - a) }
        }
        return DayTiming(gameMinutes: slot == .max ? 0 : slot)
    }
}
