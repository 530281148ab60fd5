public import CourtsideModel

/// An event as the organiser describes it in a few lines: its divisions with their teams and
/// formats, the courts and their hours, the day, a game's slot and a team's rest.
///
/// `courtside tournament plan` reads it from YAML (docs: README, "Set up a tournament"); every
/// key is snake_case there.
public struct EventDescription: Hashable, Sendable, Decodable {
    /// The tournament's name.
    public var tournament: String
    /// The courts, each a name or `{name, from, until}` for one available part of the day.
    public var courts: [CourtDescription]
    /// When the first game may start ("09:00").
    public var start: String
    /// When the last game must have ended ("17:00"); nil: midnight.
    public var end: String?
    /// A game's length on the day's clock, in minutes.
    public var gameMinutes: Int
    /// Between one game's end and the next start on a court, in minutes.
    public var changeoverMinutes: Int
    /// The least time a team has between two of its games, in minutes.
    public var restMinutes: Int
    /// The rules of every game: a preset's name (`fiba3x3`, `pickup-15w2`, ...).
    public var rules: String?
    /// The tournament's tie-breakers; each division may have its own.
    public var tieBreakers: [TieBreaker]?
    /// The seed of every random draw, recorded so that the draw can be replayed; nil: one is
    /// picked and printed.
    public var seed: UInt64?
    public var divisions: [DivisionDescription]

    public init(
        tournament: String, courts: [CourtDescription], start: String, end: String? = nil, gameMinutes: Int,
        changeoverMinutes: Int = 0, restMinutes: Int = 0, rules: String? = nil, tieBreakers: [TieBreaker]? = nil,
        seed: UInt64? = nil, divisions: [DivisionDescription]
    ) {
        self.tournament = tournament
        self.courts = courts
        self.start = start
        self.end = end
        self.gameMinutes = gameMinutes
        self.changeoverMinutes = changeoverMinutes
        self.restMinutes = restMinutes
        self.rules = rules
        self.tieBreakers = tieBreakers
        self.seed = seed
        self.divisions = divisions
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case tournament, courts, start, end, rules, seed, divisions
        case gameMinutes = "game_minutes"
        case changeoverMinutes = "changeover_minutes"
        case restMinutes = "rest_minutes"
        case tieBreakers = "tie_breakers"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            tournament: try container.decode(String.self, forKey: .tournament),
            courts: try container.decode([CourtDescription].self, forKey: .courts),
            start: try container.decode(String.self, forKey: .start),
            end: try container.decodeIfPresent(String.self, forKey: .end),
            gameMinutes: try container.decode(Int.self, forKey: .gameMinutes),
            changeoverMinutes: try container.decodeIfPresent(Int.self, forKey: .changeoverMinutes) ?? 0,
            restMinutes: try container.decodeIfPresent(Int.self, forKey: .restMinutes) ?? 0,
            rules: try container.decodeIfPresent(String.self, forKey: .rules),
            tieBreakers: try container.decodeIfPresent([TieBreaker].self, forKey: .tieBreakers),
            seed: try container.decodeIfPresent(UInt64.self, forKey: .seed),
            divisions: try container.decode([DivisionDescription].self, forKey: .divisions))
    }
}

/// A court and, optionally, the one part of the day it is available.
public struct CourtDescription: Hashable, Sendable, Decodable {
    public var name: String
    /// From when ("10:00"); nil: the day's start.
    public var from: String?
    /// Until when ("15:00"); nil: the day's end.
    public var until: String?

    public init(_ name: String, from: String? = nil, until: String? = nil) {
        self.name = name
        self.from = from
        self.until = until
    }

    package enum CodingKeys: String, CodingKey, CaseIterable { case name, from, until }

    /// A bare name, or `{name, from, until}`.
    public init(from decoder: any Decoder) throws {
        if let name = try? decoder.singleValueContainer().decode(String.self) {
            self.init(name)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try container.decode(String.self, forKey: .name), from: try container.decodeIfPresent(String.self, forKey: .from),
            until: try container.decodeIfPresent(String.self, forKey: .until))
    }
}

/// A division of the event: its teams, its format and, optionally, its own tie-breakers and rules.
public struct DivisionDescription: Hashable, Sendable, Decodable {
    /// Letters, digits, '-', '_' or '.': it starts every game id of the division.
    public var id: String
    public var name: String
    public var teams: TeamsSource
    public var format: FormatDescription
    public var tieBreakers: [TieBreaker]?
    /// A preset's name for this division's games; nil: the event's.
    public var rules: String?

    public init(
        id: String, name: String? = nil, teams: TeamsSource, format: FormatDescription, tieBreakers: [TieBreaker]? = nil,
        rules: String? = nil
    ) {
        self.id = id
        self.name = name ?? id
        self.teams = teams
        self.format = format
        self.tieBreakers = tieBreakers
        self.rules = rules
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, teams, format, rules
        case tieBreakers = "tie_breakers"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id), name: try container.decodeIfPresent(String.self, forKey: .name),
            teams: try container.decode(TeamsSource.self, forKey: .teams),
            format: try container.decode(FormatDescription.self, forKey: .format),
            tieBreakers: try container.decodeIfPresent([TieBreaker].self, forKey: .tieBreakers),
            rules: try container.decodeIfPresent(String.self, forKey: .rules))
    }
}

/// Where a division's teams come from: a registration CSV (a path, relative to the
/// description) or a list in the description itself.
public enum TeamsSource: Hashable, Sendable, Decodable {
    case csv(path: String)
    case list([ListedTeam])

    public init(from decoder: any Decoder) throws {
        if let path = try? decoder.singleValueContainer().decode(String.self) {
            self = .csv(path: path)
        } else {
            self = .list(try decoder.singleValueContainer().decode([ListedTeam].self))
        }
    }
}

/// A team listed in the description: a name, its players' names, and what seeds it.
public struct ListedTeam: Hashable, Sendable, Decodable {
    /// Made from the name when nil.
    public var id: String?
    public var name: String
    public var players: [String]
    public var seed: Int?
    public var rankingPoints: Double?
    public var club: String?

    public init(
        id: String? = nil, name: String, players: [String], seed: Int? = nil, rankingPoints: Double? = nil,
        club: String? = nil
    ) {
        self.id = id
        self.name = name
        self.players = players
        self.seed = seed
        self.rankingPoints = rankingPoints
        self.club = club
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, players, seed, club
        case rankingPoints = "ranking_points"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decodeIfPresent(String.self, forKey: .id), name: try container.decode(String.self, forKey: .name),
            players: try container.decodeIfPresent([String].self, forKey: .players) ?? [],
            seed: try container.decodeIfPresent(Int.self, forKey: .seed),
            rankingPoints: try container.decodeIfPresent(Double.self, forKey: .rankingPoints),
            club: try container.decodeIfPresent(String.self, forKey: .club))
    }
}

/// A division's format and its options.
public struct FormatDescription: Hashable, Sendable, Decodable {
    public enum Kind: String, Hashable, Sendable, Decodable, CaseIterable {
        /// Every team plays every other (`legs: 2` twice, home and away).
        case roundRobin = "round_robin"
        /// Pools, each a round robin, and no knockout.
        case pools
        /// Pools, then a knockout of each pool's best (`qualifiers`) and the best of the next
        /// rank across pools (`best_of_next`).
        case poolsKnockout = "pools_knockout"
        /// A knockout of every team, byes to the top seeds.
        case singleElimination = "single_elimination"
        /// Winners' and losers' brackets and a grand final, with `reset` a second grand final
        /// played only if the losers' bracket champion wins the first.
        case doubleElimination = "double_elimination"
        /// `rounds` rounds, each pairing teams of like records who have not met, paired live
        /// by the daemon as the results come in.
        case swiss
    }

    /// How teams are dealt into pools.
    public enum Deal: String, Hashable, Sendable, Decodable {
        /// By seed, snaking over the pools (FIBA 3x3's way).
        case snake
        /// At random with the event's recorded seed.
        case random
    }

    public var kind: Kind
    /// Pools of `pools` and `pools_knockout`.
    public var pools: Int?
    /// The top of each pool into the knockout.
    public var qualifiers: Int?
    /// The best of the next rank across pools into the knockout ("the best third-placed teams").
    public var bestOfNext: Int?
    /// A game for third place in a knockout (default true).
    public var thirdPlace: Bool?
    /// Games for 5th to 8th place in a knockout (default false).
    public var fifthToEighth: Bool?
    /// The deal into pools (default snake).
    public var deal: Deal?
    /// Teams of one club in different pools where possible (default false).
    public var separateClubs: Bool?
    /// 1 or 2 legs of a round robin (default 1).
    public var legs: Int?
    /// Rounds of a Swiss (required for `swiss`).
    public var rounds: Int?
    /// A double elimination's grand final reset (default false).
    public var reset: Bool?

    public init(
        _ kind: Kind, pools: Int? = nil, qualifiers: Int? = nil, bestOfNext: Int? = nil, thirdPlace: Bool? = nil,
        fifthToEighth: Bool? = nil, deal: Deal? = nil, separateClubs: Bool? = nil, legs: Int? = nil, rounds: Int? = nil,
        reset: Bool? = nil
    ) {
        self.reset = reset
        self.kind = kind
        self.pools = pools
        self.qualifiers = qualifiers
        self.bestOfNext = bestOfNext
        self.thirdPlace = thirdPlace
        self.fifthToEighth = fifthToEighth
        self.deal = deal
        self.separateClubs = separateClubs
        self.legs = legs
        self.rounds = rounds
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case kind = "type"
        case pools, qualifiers, deal, legs, rounds, reset
        case bestOfNext = "best_of_next"
        case thirdPlace = "third_place"
        case fifthToEighth = "fifth_to_eighth"
        case separateClubs = "separate_clubs"
    }
}
