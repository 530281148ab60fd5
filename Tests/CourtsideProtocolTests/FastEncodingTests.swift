import CourtsideModel
import CourtsideProtocol
import Foundation
import Testing

// JSONWriter against the oracle: Foundation's JSONEncoder configured as WireCoding configured it
// before the fast path. Every value here must come out byte for byte the same, and decode back
// to an equal value.

/// Foundation's bytes, as WireCoding produced them before JSONWriter.
private func foundationJSON(_ value: some Encodable) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(value))
}

private func fastJSON(_ value: some JSONWritable) -> [UInt8] {
    // The smallest buffer, so that every value makes it grow (WireCoding's path starts larger).
    var writer = JSONWriter(capacity: 1)
    value.writeJSON(to: &writer)
    return writer.bytes
}

/// Records an issue unless the fast bytes, and WireCoding's, are Foundation's, and unless they
/// decode to `value` again.
private func expectSameJSON<T: JSONWritable & Codable & Equatable>(
    _ value: T, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let expected = try foundationJSON(value)
    let fast = fastJSON(value)
    if fast != expected {
        // Bytes, not Strings: String's == would call "é" and "e\u{301}" equal.
        Issue.record(
            "\(T.self) differs from Foundation:\nfast:       \(String(decoding: fast, as: UTF8.self))\nfoundation: \(String(decoding: expected, as: UTF8.self))",
            sourceLocation: sourceLocation)
        return
    }
    #expect(WireCoding.encode(value) == expected, "WireCoding.encode did not take the same bytes", sourceLocation: sourceLocation)
    // Where the caller knows only that it is Encodable, the type is found writable at run time.
    func encodable(_ value: some Encodable) throws -> [UInt8] { try WireCoding.encode(value) }
    #expect(try encodable(value) == expected, "as Encodable, another writer took it", sourceLocation: sourceLocation)
    let decoded = try WireCoding.decode(T.self, from: fast)
    #expect(decoded == value, "\(T.self) does not decode to the value written", sourceLocation: sourceLocation)
}

/// Strings that escaping and key sorting could get wrong.
private let awkwardStrings: [String] = [
    "", "plain", "with space", "quote\"d", "\"", "back\\slash", "\\\"", "sl/ash", "http://example.com/a/b", "</script>",
    "\n", "\t", "\r", "\u{8}", "\u{C}", "line\nbreak\ttab\rreturn\u{8}back\u{C}feed",
    String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }), "nul\u{0}inside", "\u{1F}", "\u{7F}", "del\u{7F}",
    "\u{80}", "\u{85}", "\u{A0}", "\u{AD}", "\u{2028}", "\u{2029}", "a\u{2028}b\u{2029}c", "\u{FEFF}", "\u{FFFD}", "\u{E000}",
    "\u{FFFF}", "\u{10000}", "\u{10FFFF}", "😀", "👩‍👩‍👧‍👦", "🇫🇷", "é", "e\u{301}", "Å", "A\u{30A}", "日本語", "עברית", "Ωmega",
    "emoji😀in\"the\\middle/\n", "Ann \"The Hammer\" O'Neil", "Zed", "zed", "ZED", "_under", "-dash", "p10", "p2", "1", "10",
    "2", String(repeating: "long\"\\/", count: 200),
]

// MARK: - Games played with the model

/// Plays games command by command as the library does (the expiry check before every command),
/// and keeps every event with the message the daemon would publish for it.
private struct ScoredGames {
    var epoch: String
    var now = Timestamp(milliseconds: 1_795_311_641_000)
    var sequence: Int64 = 0
    var games: [GameID: Game] = [:]
    var events: [GameEvent] = []
    var messages: [EventMessage] = []
    /// Each message as the publisher writes it, straight from the event and the game.
    var published: [[UInt8]] = []
    /// Each published event with its game's state after it, as the publisher gets them.
    var updates: [(event: GameEvent, game: Game)] = []
    var refusals: [CourtsideError] = []
    private var commands = 0

    init(epoch: String = "1795311641334-07a9265f") { self.epoch = epoch }

    mutating func create(_ setup: GameSetup, origin: CommandOrigin? = nil) {
        let game = Game(setup: setup)
        games[setup.id] = game
        record(
            game.id, .gameCreated(setup),
            origin: origin ?? CommandOrigin(clientID: "courtside.bracket", commandID: "create:\(setup.id)"))
    }

    /// Runs a command; a refusal is kept and returned.
    @discardableResult
    mutating func run(_ command: GameCommand, in id: GameID, client: String = "court-1") -> CourtsideError? {
        guard let game = games[id] else { return nil }
        if let expiry = game.expiry(at: now) {
            record(id, expiry, origin: CommandOrigin(clientID: "courtside", commandID: "expire:\(id):\(game.version + 1)"))
        }
        commands += 1
        switch games[id]!.decide(command, at: now) {
        case .success(let kinds):
            for kind in kinds { record(id, kind, origin: CommandOrigin(clientID: client, commandID: "\(commands)")) }
            return nil
        case .failure(let error):
            refusals.append(error)
            return error
        }
    }

    /// The version of the last event of a game.
    func version(_ id: GameID) -> Int { games[id]?.version ?? 0 }

    mutating func advance(seconds: Int) { now = now.adding(milliseconds: Int64(seconds) * 1000) }

    private mutating func record(_ id: GameID, _ kind: GameEvent.Kind, origin: CommandOrigin) {
        sequence += 1
        let version = kind.typeName == "game_created" ? 1 : games[id]!.version + 1
        let event = GameEvent(gameID: id, version: version, sequence: sequence, at: now, origin: origin, kind: kind)
        games[id]!.apply(event)
        events.append(event)
        messages.append(EventMessage(epoch: epoch, event: event, game: games[id]!))
        published.append(EventMessage.json(epoch: epoch, event: event, game: games[id]!))
        updates.append((event, games[id]!))
    }
}

private enum EncodingFixtures {
    static func team(_ id: String, _ name: String, players: [(String, String)]) -> Team {
        Team(id: TeamID(id), name: name, players: players.map { Player(id: PlayerID($0.0), name: $0.1) })
    }

    /// Player ids that sort differently by bytes, by case and by normalization.
    static let lions = team(
        "lions", "Lions \"of\" the North/South\\",
        players: [("Zed", "Zed \u{2028} Zulu"), ("ann", "Ann 😀"), ("Ann", "ANN\t\"2\""), ("p10", "Ten/10")])
    static let tigers = team(
        "tigers", "Tigers\n🐯",
        players: [("p2", "Two"), ("é", "É\u{0}"), ("e\u{301}x", "e-acute-x"), ("_x", "Under\u{1F}score"), ("😀", "Smile")])
    static let bears = team("bears", "Bears", players: [("b1", "Bo"), ("b2", "Bea")])
    static let wolves = team("wolves", "Wolves", players: [("w1", "Wu"), ("w2", "Wim")])

    static let fiba = RuleSet(
        targetScore: 21, winBy: 1, timeLimit: .minutes(10, atTime: .leaderWins, overtimePoints: 2),
        teamFouls: TeamFoulRules(freeThrowsFrom: 7, possessionFrom: 10), shotClockSeconds: 12, timeoutsPerTeam: 1,
        preset: "fiba3x3 \"/\\\u{2028}")

    /// A tournament's setup with every optional field present and absent, and awkward strings.
    static let setup = TournamentSetup(
        name: "Cup \"/\\\u{2028}😀",
        schedule: Schedule(
            teams: [lions.id: lions, tigers.id: tigers, bears.id: bears, wolves.id: wolves], courts: ["Court 1", "Cour\"t/2"],
            groups: [
                Group(id: "A", name: "Group \"A\"", teams: ["lions", "tigers"]), Group(id: "B", teams: ["bears", "wolves"]),
            ],
            rounds: ["Groups", "Final"],
            games: [
                ScheduledGame(
                    id: "ga", home: .team("lions"), away: .team("tigers"), court: "Court 1", group: "A", round: "Groups",
                    start: "10:00"),
                ScheduledGame(id: "gb", home: .team("bears"), away: .team("wolves"), group: "B", round: "Groups", rules: fiba),
                ScheduledGame(id: "f", home: .winner(of: "ga"), away: .groupRank(group: "B", rank: 1), round: "Final"),
                ScheduledGame(id: "p3", home: .loser(of: "ga"), away: .groupRank(group: "B", rank: 2)),
            ], tieBreakers: [.pointsScored, .headToHead], inactivePlayers: ["w2", "b\"1"]),
        otherGames: [GameSetup(id: "x", home: lions, away: wolves, rules: RuleSet(forfeitScore: 9), court: "c")])

    /// The same tournament in two divisions (one with its own tie-breakers), with seeds.
    static var divided: TournamentSetup {
        var schedule = Schedule(
            teams: [lions.id: lions, tigers.id: tigers, bears.id: bears, wolves.id: wolves],
            groups: [Group(id: "A", teams: ["lions", "tigers"], division: "o\"pen")],
            games: [
                ScheduledGame(id: "ga", home: .team("lions"), away: .team("tigers"), group: "A", division: "o\"pen"),
                ScheduledGame(id: "gb", home: .team("bears"), away: .team("wolves"), division: "w"),
            ])
        schedule.divisions = [
            Division(id: "o\"pen", name: "Open 😀", teams: ["lions", "tigers"]),
            Division(id: "w", teams: ["bears", "wolves"], tieBreakers: [.seed, .averagePointsScored]),
        ]
        schedule.seeds = ["tigers": 1, "lions": 2, "b\"ears": 3]
        return TournamentSetup(name: "Cup", schedule: schedule, otherGames: [])
    }

    /// A tournament of scripted games: every event kind, every end, refusals, retractions.
    static func tournament() -> ScoredGames {
        var court = ScoredGames(epoch: "epoch \"/\\\n\u{2028}😀")

        // A FIBA game that goes to overtime, is won, reopened by a retraction and won again.
        let final = GameID("final")
        court.create(GameSetup(id: final, home: lions, away: tigers, rules: fiba, court: "Center court /1 \"A\""))
        court.run(.startClock, in: final)
        court.advance(seconds: 30)
        for move in MoveKind.allCases { court.run(.move(player: "Zed", move: move), in: final) }
        for move in MoveKind.allCases { court.run(.move(player: "e\u{301}x", move: move), in: final) }
        court.run(.move(player: "😀", move: .twoPoints), in: final)
        let retracted = court.version(final)
        court.run(.move(player: "_x", move: .foul), in: final)
        court.run(.retract(version: retracted, reason: "the scorer's \"slip\" é"), in: final)
        court.run(.retract(version: retracted), in: final)  // already_retracted
        court.run(.retract(version: 1), in: final)  // not_a_move
        court.run(.retract(version: 999), in: final)  // unknown_event
        court.run(.move(player: "b1", move: .twoPoints), in: final)  // player_not_in_game
        court.run(.startClock, in: final)  // clock_running
        court.advance(seconds: 12)
        court.run(.timeout(side: .home), in: final)
        court.run(.timeout(side: .home), in: final)  // no_timeouts_left
        court.run(.pauseClock, in: final)  // clock_not_running
        court.run(.startClock, in: final)
        for _ in 0..<8 { court.run(.move(player: "p2", move: .foul), in: final) }
        court.run(.move(player: "ann", move: .freeThrow), in: final)
        court.run(.move(player: "Ann", move: .freeThrow), in: final)
        court.run(.pauseClock, in: final)
        court.run(.startClock, in: final)
        // Level the score, then let time run out: a tie at time goes to overtime.
        let (home, away) = (court.games[final]!.score.home, court.games[final]!.score.away)
        for _ in 0..<max(0, away - home) { court.run(.move(player: "p10", move: .onePoint), in: final) }
        for _ in 0..<max(0, home - away) { court.run(.move(player: "p2", move: .onePoint), in: final) }
        court.advance(seconds: 600)
        court.run(.move(player: "ann", move: .rebound), in: final)  // time_expired first
        court.run(.move(player: "ann", move: .twoPoints), in: final)  // the overtime target: finished
        let winning = court.version(final)
        court.run(.move(player: "ann", move: .assist), in: final)  // game_finished
        court.run(.retract(version: winning), in: final)  // reopened, paused
        court.run(.startClock, in: final)
        court.advance(seconds: 5)
        court.run(.move(player: "é", move: .twoPoints), in: final)  // away wins in overtime

        // Pickup rules: won by score.
        let pickup = GameID("g1")
        court.create(GameSetup(id: pickup, home: bears, away: wolves))
        court.run(.startClock, in: pickup)
        for index in 0..<12 {
            court.advance(seconds: 20)
            court.run(.move(player: index.isMultiple(of: 3) ? "w1" : "b1", move: .twoPoints), in: pickup)
        }
        court.run(.move(player: "b2", move: .onePoint), in: pickup)

        // A hard cap.
        let capped = GameID("g2")
        court.create(GameSetup(id: capped, home: wolves, away: bears, rules: RuleSet(targetScore: 5, winBy: 5, hardCap: 9)))
        // Moved before it starts, with other rules.
        court.run(.changeSetup(court: "Court \"2\"/é", rules: RuleSet(targetScore: 5, winBy: 5, hardCap: 7)), in: capped)
        court.run(.startClock, in: capped)
        for _ in 0..<3 {
            court.run(.move(player: "w1", move: .twoPoints), in: capped)
            court.run(.move(player: "b2", move: .twoPoints), in: capped)
        }
        court.run(.move(player: "w2", move: .onePoint), in: capped)

        // Leader wins at time.
        let timed = GameID("g3")
        court.create(
            GameSetup(
                id: timed, home: bears, away: lions,
                rules: RuleSet(timeLimit: TimeLimit(milliseconds: 60_000, atTime: .leaderWins, overtimePoints: 3))))
        court.run(.startClock, in: timed)
        court.run(.move(player: "b1", move: .twoPoints), in: timed)
        court.advance(seconds: 61)
        court.run(.move(player: "Zed", move: .twoPoints), in: timed)

        // Overtime whatever the score.
        let sudden = GameID("g4")
        court.create(
            GameSetup(
                id: sudden, home: tigers, away: wolves,
                rules: RuleSet(hardCap: 50, timeLimit: TimeLimit(milliseconds: 1000, atTime: .overtime, overtimePoints: 1))))
        court.run(.startClock, in: sudden)
        court.run(.move(player: "p2", move: .twoPoints), in: sudden)
        court.advance(seconds: 2)
        court.run(.pauseClock, in: sudden)

        // The bracket assigns the teams of a game that has not started, then it starts.
        let later = GameID("g5")
        court.create(GameSetup(id: later, home: bears, away: wolves, court: "Court 2"))
        court.run(.assignTeams(home: tigers, away: lions), in: later, client: "courtside.bracket")
        court.run(.timeout(side: .away), in: later)
        court.run(.assignTeams(home: bears, away: wolves), in: later, client: "courtside.bracket")  // bracket_locked

        // The organiser's decisions: a forfeit at a score of the rules' own, moves retracted after it.
        let forfeited = GameID("g6")
        court.create(GameSetup(id: forfeited, home: bears, away: wolves, rules: RuleSet(forfeitScore: 21)))
        court.run(.move(player: "b1", move: .twoPoints), in: forfeited)
        court.run(.forfeit(side: .home, reason: "no show: \"late\"/\n😀"), in: forfeited, client: "organiser")
        court.run(.move(player: "w1", move: .twoPoints), in: forfeited)  // game_finished
        court.run(.retract(version: 2), in: forfeited)  // counts change, the forfeit's score stays
        court.run(.forfeit(side: .away, reason: nil), in: forfeited, client: "organiser")  // game_finished
        // Ended early: as it stands (the leader wins), and with no result.
        let abandoned = GameID("g7")
        court.create(GameSetup(id: abandoned, home: lions, away: tigers))
        court.run(.move(player: "ann", move: .onePoint), in: abandoned)
        court.run(.endEarly(result: .asItStands, reason: " "), in: abandoned, client: "organiser")  // invalid_reason
        court.run(.endEarly(result: .asItStands, reason: "injury"), in: abandoned, client: "organiser")
        let void = GameID("g8")
        court.create(GameSetup(id: void, home: wolves, away: lions))
        // invalid_reason: too long.
        court.run(.forfeit(side: .away, reason: String(repeating: "x", count: 501)), in: void, client: "organiser")
        court.run(.endEarly(result: .noResult, reason: "the gym closed"), in: void, client: "organiser")
        return court
    }

    /// Random games from a seed: commands drawn at random, most of them moves.
    static func randomTournament(seed: UInt64, games: Int) -> ScoredGames {
        var random = SeededRandom(seed: seed)
        var court = ScoredGames()
        let rosters = [lions, tigers, bears, wolves]
        let rules: [RuleSet] = [.standard, RulePresets.pickupCapped, fiba, RuleSet(targetScore: 7, winBy: 1)]
        for index in 0..<games {
            let home = rosters[Int(random.next() % 4)]
            var away = rosters[Int(random.next() % 4)]
            if away.id == home.id { away = rosters[(rosters.firstIndex(of: home)! + 1) % 4] }
            let id = GameID("r\(index)")
            court.create(
                GameSetup(
                    id: id, home: home, away: away, rules: rules[Int(random.next() % 4)],
                    court: random.next() % 2 == 0 ? nil : awkwardStrings[Int(random.next() % UInt64(awkwardStrings.count))]))
            let players = (home.players + away.players).map(\.id)
            for _ in 0..<Int(random.next() % 60) {
                court.advance(seconds: Int(random.next() % 40))
                let command: GameCommand =
                    switch random.next() % 10 {
                    case 0: .startClock
                    case 1: .pauseClock
                    case 2: .timeout(side: random.next() % 2 == 0 ? .home : .away)
                    case 3: .retract(version: Int(random.next() % UInt64(court.version(id) + 2)))
                    default:
                        .move(
                            player: players[Int(random.next() % UInt64(players.count))],
                            move: MoveKind.allCases[Int(random.next() % 6)])
                    }
                court.run(command, in: id, client: "keeper-\(random.next() % 3)")
            }
        }
        return court
    }

    /// A schedule with every kind of slot: two groups, semi-finals from the group ranks, a
    /// final from the winners and a third-place game from the losers.
    static let schedule = Schedule(
        teams: [
            "lions": lions, "tigers": tigers, "bears": bears, "wolves": wolves,
        ],
        courts: ["Court 1", "Court \"2\"/B"],
        groups: [Group(id: "A", teams: ["lions", "tigers"]), Group(id: "B", name: "Group B\n😀", teams: ["bears", "wolves"])],
        rounds: ["Group stage", "Finals"],
        games: [
            ScheduledGame(
                id: "ga", home: .team("lions"), away: .team("tigers"), court: "Court 1", group: "A", round: "Group stage",
                start: "10:00"),
            ScheduledGame(
                id: "gb", home: .team("bears"), away: .team("wolves"), court: "Court \"2\"/B", group: "B", round: "Group stage"),
            ScheduledGame(
                id: "semi", home: .groupRank(group: "A", rank: 1), away: .groupRank(group: "B", rank: 1), round: "Finals",
                start: "11:00"),
            ScheduledGame(id: "semi2", home: .groupRank(group: "A", rank: 2), away: .groupRank(group: "B", rank: 2)),
            ScheduledGame(id: "top", home: .winner(of: "semi"), away: .winner(of: "semi2"), court: "Center\u{2028}"),
            ScheduledGame(id: "third", home: .loser(of: "semi"), away: .loser(of: "semi2")),
        ])

    /// The schedule's standings and bracket at each stage of its group games.
    static func tables() -> [(standings: [GroupStandings], bracket: [BracketEntry])] {
        var court = ScoredGames()
        var stages = [(schedule.standings(court.games), schedule.bracket(court.games))]
        court.create(GameSetup(id: "ga", home: lions, away: tigers, rules: RuleSet(targetScore: 4, winBy: 2)))
        court.create(GameSetup(id: "gb", home: bears, away: wolves, rules: RuleSet(targetScore: 4, winBy: 2)))
        stages.append((schedule.standings(court.games), schedule.bracket(court.games)))
        court.run(.startClock, in: "ga")
        court.run(.move(player: "ann", move: .twoPoints), in: "ga")
        stages.append((schedule.standings(court.games), schedule.bracket(court.games)))
        court.run(.move(player: "ann", move: .twoPoints), in: "ga")
        stages.append((schedule.standings(court.games), schedule.bracket(court.games)))
        court.run(.move(player: "w1", move: .twoPoints), in: "gb")
        court.run(.move(player: "w1", move: .twoPoints), in: "gb")
        stages.append((schedule.standings(court.games), schedule.bracket(court.games)))
        for (id, setup) in schedule.lineups(court.games) where court.games[id] == nil {
            court.create(GameSetup(id: id, home: setup.home, away: setup.away, rules: RuleSet(targetScore: 2, winBy: 1)))
        }
        court.run(.move(player: "ann", move: .twoPoints), in: "semi")
        court.run(.move(player: "p2", move: .onePoint), in: "semi2")
        court.run(.move(player: "p2", move: .onePoint), in: "semi2")
        stages.append((schedule.standings(court.games), schedule.bracket(court.games)))
        for (id, setup) in schedule.lineups(court.games) where court.games[id] == nil {
            court.create(GameSetup(id: id, home: setup.home, away: setup.away))
        }
        court.run(.startClock, in: "top")
        stages.append((schedule.standings(court.games), schedule.bracket(court.games)))
        return stages
    }
}

/// The index of a kind: an exhaustive switch, so a new kind fails to compile here until it is covered.
private func kindIndex(_ kind: GameEvent.Kind) -> Int {
    switch kind {
    case .gameCreated: 0
    case .move: 1
    case .retraction: 2
    case .clockStarted: 3
    case .clockPaused: 4
    case .timeExpired: 5
    case .timeout: 6
    case .teamsAssigned: 7
    case .forfeit: 8
    case .ended: 9
    case .setupChanged: 10
    case .tournamentChanged: 11
    }
}

// MARK: - Tests

@Suite("JSONWriter gives Foundation's bytes")
struct FastEncodingTests {
    @Test("strings are escaped exactly as Foundation escapes them, in values and in dictionary keys")
    func strings() throws {
        var strings = awkwardStrings
        // Every ASCII character alone, and a sample of the rest of Unicode.
        strings += (0..<0x80).map { String(Character(Unicode.Scalar(UInt8($0)))) }
        // An escape at every offset of a longer string (the writer scans eight bytes at a time).
        for offset in 0..<24 {
            for escaped in ["\"", "\\", "\n", "\u{1}", "\u{1F}", "/", "\u{7F}", "é"] {
                strings.append(String(repeating: "a", count: offset) + escaped + String(repeating: "b", count: 23 - offset))
            }
        }
        // Keys alike in their first 16 bytes and beyond, and keys that end where others go on with a NUL.
        strings += [
            "player-with-a-long-id-1", "player-with-a-long-id-10", "player-with-a-long-id-2", "player-with-a-long-id-",
            "0123456789abcdef", "0123456789abcdef\u{0}", "0123456789abcdef\u{0}\u{0}", "0123456789abcdeg", "ab", "ab\u{0}",
            "ab\u{0}c", "ab\u{0}\u{0}", "\u{0}", "\u{0}\u{0}", "\u{FF}", "~~~~~~~~~~~~~~~~~~",
        ]
        var random = SeededRandom(seed: 7)
        let ranges: [ClosedRange<UInt32>] = [0...0x7F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFF, 0x10000...0x10FFFF]
        for _ in 0..<500 {
            var string = ""
            for _ in 0..<Int(random.next() % 12) {
                let range = ranges[Int(random.next() % UInt64(ranges.count))]
                let value = range.lowerBound + UInt32(random.next() % UInt64(range.count))
                string.unicodeScalars.append(Unicode.Scalar(value)!)
            }
            strings.append(string)
        }
        for string in strings {
            try expectSameJSON(CommandOrigin(clientID: string, commandID: "x" + string + "y"))
            try expectSameJSON(Player(id: PlayerID(string), name: string))
        }
        // As keys: a dictionary of them, sorted by their UTF-8 bytes.
        var game = Game(setup: GameSetup(id: "keys", home: EncodingFixtures.lions, away: EncodingFixtures.tigers))
        for (index, string) in strings.enumerated() {
            var counts = MoveCounts()
            counts.foul = index
            game.counts[PlayerID(string)] = counts
        }
        try expectSameJSON(game)
        try expectSameJSON(LiveState(game))
    }

    @Test("integers: zero, signs, every length, and the extremes")
    func integers() throws {
        var values: [Int64] = [0, 1, -1, 9, 10, -9, -10, 99, 100, .max, .min, .max - 1, .min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power]
        }
        for value in values {
            try expectSameJSON(Timestamp(milliseconds: value))
            try expectSameJSON(GameClock(accumulated: value, runningSince: Timestamp(milliseconds: value)))
            // Side values are kept in 32 bits.
            if let int = Int32(exactly: value) {
                try expectSameJSON(SideValues(home: Int(int), away: Int(int) / 3))
            }
            // A player's counts write each key with its number in one step.
            var counts = MoveCounts()
            let small = Int(Int32(truncatingIfNeeded: value))
            (counts.assist, counts.foul, counts.freeThrow) = (small, -small, small / 7)
            (counts.onePoint, counts.rebound, counts.twoPoints) = (Int(Int32.min), Int(Int32.max), 0)
            try expectSameJSON(counts)
        }
    }

    @Test("every event of scripted games, each kind and each ending, as published (and written from event and game) and logged")
    func scriptedGames() throws {
        let court = EncodingFixtures.tournament()
        // The tournament's stream has its own test below: no game's command makes its events.
        #expect(Set(court.events.map { kindIndex($0.kind) }) == Set(0..<11), "a kind of event is not covered")
        #expect(Set(court.games.values.compactMap(\.endReason)) == Set(EndReason.allCases))
        #expect(court.games.values.contains { $0.overtimeTargets != nil && !$0.isFinished })
        #expect(court.messages.contains { $0.state.clock.isRunning })
        #expect(court.games.values.contains { $0.plays.contains { $0.retractedBy != nil } })
        #expect(court.refusals.count >= 8)
        for message in court.messages { try expectSameJSON(message) }
        for (message, published) in zip(court.messages, court.published) {
            #expect(published == (try foundationJSON(message)), "the publisher's direct writing differs")
        }
        // One after another in one buffer, as the publisher writes a commit's: each the same bytes.
        var writer = JSONWriter(capacity: 16)
        var ends: [Int] = []
        for update in court.updates {
            EventMessage.append(epoch: court.epoch, event: update.event, game: update.game, to: &writer)
            ends.append(writer.byteCount)
        }
        let bytes = writer.bytes
        #expect(zip([0] + ends, ends).map { Array(bytes[$0..<$1]) } == court.published)
        for event in court.events { try expectSameJSON(event) }
        for event in court.events { try expectSameJSON(event.kind) }
        for game in court.games.values {
            try expectSameJSON(game)
            try expectSameJSON(GameSummary(game))
        }
    }

    @Test("every event of random games", arguments: [1, 2, 3] as [UInt64])
    func randomGames(seed: UInt64) throws {
        let court = EncodingFixtures.randomTournament(seed: seed, games: 40)
        for message in court.messages { try expectSameJSON(message) }
        for (message, published) in zip(court.messages, court.published) {
            #expect(published == (try foundationJSON(message)), "the publisher's direct writing differs")
        }
        for game in court.games.values { try expectSameJSON(game) }
    }

    @Test("rules: every optional field absent and present")
    func rules() throws {
        let all: [RuleSet] = [
            RuleSet(), .standard, RulePresets.pickupCapped, RulePresets.fiba3x3, EncodingFixtures.fiba,
            RuleSet(
                targetScore: 1000, winBy: 1000, hardCap: 1000,
                timeLimit: TimeLimit(milliseconds: 86_400_000, atTime: .overtime, overtimePoints: 100),
                teamFouls: TeamFoulRules(freeThrowsFrom: 1, possessionFrom: 1), shotClockSeconds: 3600, timeoutsPerTeam: 0,
                preset: ""),
            RuleSet(timeoutsPerTeam: 3), RuleSet(shotClockSeconds: 24), RuleSet(teamFouls: TeamFoulRules()),
            RuleSet(forfeitScore: 21),
        ]
        for rules in all {
            try expectSameJSON(rules)
            try expectSameJSON(
                GameSetup(id: "r", home: EncodingFixtures.bears, away: EncodingFixtures.wolves, rules: rules, court: "c"))
        }
        try expectSameJSON(Team(id: "empty", name: "", players: []))
    }

    @Test("standings and bracket at every stage of a tournament, as published and as replied")
    func tournamentTables() throws {
        let stages = EncodingFixtures.tables()
        let bracket = stages.flatMap(\.bracket)
        #expect(Set(bracket.map(\.state)) == [.pending, .ready, .live, .final])
        #expect(bracket.contains { $0.winner != nil && $0.score != nil && $0.homeTeam != nil })
        for (index, stage) in stages.enumerated() {
            try expectSameJSON(StandingsMessage(epoch: "e\(index)", sequence: Int64(index), groups: stage.standings))
            try expectSameJSON(BracketMessage(epoch: "e/\(index)", sequence: Int64(index) * 1000, games: stage.bracket))
            for entry in stage.bracket {
                try expectSameJSON(entry)
                try expectSameJSON(entry.home)
            }
        }
        try expectSameJSON(StandingsMessage(epoch: "", sequence: 0, groups: []))
        try expectSameJSON(BracketMessage(epoch: "", sequence: 0, games: []))
        let everything = BracketEntry(
            game: "x", round: "r\"", group: "g/", court: "c\n", start: "10:00", home: .groupRank(group: "A\u{2028}", rank: 2),
            away: .loser(of: "y"), homeTeam: "h", awayTeam: "a", state: .final, score: SideValues(home: 3, away: 1),
            winner: "h")
        try expectSameJSON(everything)
    }

    @Test("replies: every field, each operation's shape, and failures with every code")
    func replies() throws {
        let court = EncodingFixtures.tournament()
        let games = court.games.values.sorted { $0.id < $1.id }
        let tables = EncodingFixtures.tables().last!
        let epoch = court.epoch

        var full = Reply(commandID: "17 \"/\\\u{2028}", epoch: epoch)
        full.ok = false
        full.error = ErrorBody(CourtsideError(.gameFinished, "game g1 is finished (15 - 13, won by \"Lions\"/\n)"))
        full.game = "final"
        full.version = 42
        full.sequence = .max
        full.games = games.map(GameSummary.init)
        full.snapshot = games
        full.standings = tables.standings
        full.bracket = tables.bracket
        full.events = court.events
        full.tournament = EncodingFixtures.setup
        // Every optional field of the reply is present.
        for child in Mirror(reflecting: full).children {
            let mirror = Mirror(reflecting: child.value)
            #expect(mirror.displayStyle != .optional || !mirror.children.isEmpty, "\(child.label ?? "?") is nil")
        }
        try expectSameJSON(full)

        var command = Reply(commandID: "1", epoch: epoch)
        (command.game, command.version, command.sequence) = ("g1", 5, 120)
        var list = Reply(commandID: "2", epoch: epoch)
        (list.games, list.sequence) = (games.map(GameSummary.init), 120)
        var one = Reply(commandID: "3", epoch: epoch)
        (one.snapshot, one.sequence) = ([games[0]], 7)
        var all = Reply(commandID: "4", epoch: epoch)
        (all.snapshot, all.standings, all.bracket, all.sequence) = (games, tables.standings, tables.bracket, 9)
        var empty = Reply(commandID: "5", epoch: epoch)
        (empty.snapshot, empty.standings, empty.bracket, empty.games, empty.events) = ([], [], [], [], [])
        var log = Reply(commandID: "6", epoch: epoch)
        log.events = court.events.filter { $0.gameID == "final" }
        let unread = Reply(commandID: nil, epoch: epoch)
        try expectSameJSON(EncodingFixtures.setup)
        try expectSameJSON(EncodingFixtures.divided)
        try expectSameJSON(GroupStandings(group: "A", name: "A", rows: [], complete: false, division: "o\"pen"))
        try expectSameJSON(
            BracketEntry(
                game: "ga", round: nil, group: nil, court: nil, start: nil, home: .team("a"), away: .team("b"), homeTeam: nil,
                awayTeam: nil, state: .pending, score: nil, winner: nil, division: "w"))
        var setup = Reply(commandID: "7", epoch: epoch)
        (setup.tournament, setup.sequence) = (EncodingFixtures.setup, 3)
        var bare = Reply(commandID: "8", epoch: epoch)
        bare.tournament = TournamentSetup(
            name: "", schedule: Schedule(teams: [:], games: []), otherGames: [])
        for reply in [command, list, one, all, empty, log, unread, setup, bare] { try expectSameJSON(reply) }

        for code in allErrorCodes + court.refusals.map(\.code) {
            try expectSameJSON(Reply.failure(CourtsideError(code, "why: \(code)"), commandID: "c", epoch: epoch))
            try expectSameJSON(Reply.failure(CourtsideError(code, ""), commandID: nil, epoch: ""))
        }
        for refusal in court.refusals {
            try expectSameJSON(Reply.failure(refusal, commandID: "r", epoch: epoch))
        }
    }

    /// The stored properties each conformance writes, in declaration order. A property added to
    /// one of these types fails here until its writer (JSONWritable+*.swift) and this list have it:
    /// a new optional field that the tests leave nil would otherwise go unnoticed.
    @Test("every stored property of a written type is one its writer knows")
    func fieldInventory() throws {
        let game = EncodingFixtures.tournament().games["final"]!
        let event = EncodingFixtures.tournament().events[0]
        let tables = EncodingFixtures.tables().last!
        let inventory: [(Any, [String])] = [
            (
                EventMessage(epoch: "", event: event, game: game),
                ["type", "epoch", "sequence", "game", "version", "at", "origin", "event", "state"]
            ),
            (
                LiveState(game),
                [
                    "version", "score", "counts", "clock", "status", "winner", "endReason", "timeExpired", "overtimeTargets",
                    "teamFouls", "timeoutsUsed", "startedAt", "endedAt",
                ]
            ),
            (
                Reply(commandID: nil, epoch: ""),
                [
                    "ok", "commandID", "epoch", "error", "game", "version", "sequence", "games", "snapshot", "standings",
                    "bracket",
                    "events", "tournament",
                ]
            ),
            (StandingsMessage(epoch: "", sequence: 0, groups: []), ["type", "epoch", "sequence", "groups"]),
            (BracketMessage(epoch: "", sequence: 0, games: []), ["type", "epoch", "sequence", "games"]),
            (GameSummary(game), ["game", "court", "home", "away", "state"]),
            (GameSummary(game).home, ["id", "name"]),
            (ErrorBody(CourtsideError(.overloaded, "")), ["code", "message"]),
            (
                game,
                [
                    "setup", "version", "score", "counts", "plays", "teamFouls", "timeoutsUsed", "clock", "status",
                    "winner", "endReason", "timeExpired", "startedAt", "overtimeTargets", "endedAt",
                ]
            ),
            (game.setup, ["id", "home", "away", "rules", "court"]),
            (game.setup.home, ["id", "name", "players"]),
            (game.setup.home.players[0], ["id", "name"]),
            (
                game.rules,
                [
                    "targetScore", "winBy", "hardCap", "timeLimit", "teamFouls", "shotClockSeconds", "timeoutsPerTeam",
                    "forfeitScore", "preset",
                ]
            ),
            (TimeLimit(milliseconds: 1), ["milliseconds", "atTime", "overtimePoints"]),
            (TeamFoulRules(), ["freeThrowsFrom", "possessionFrom"]),
            (game.plays[0], ["version", "at", "player", "side", "move", "retractedBy"]),
            (game.clock, ["accumulated", "runningSince"]),
            (MoveCounts(), ["onePoint", "twoPoints", "assist", "rebound", "foul", "freeThrow"]),
            (game.score, ["home", "away"]),
            (event.origin, ["clientID", "commandID"]),
            (event, ["gameID", "version", "sequence", "at", "origin", "kind"]),
            (
                tables.bracket[0],
                [
                    "game", "round", "group", "court", "start", "home", "away", "homeTeam", "awayTeam", "state", "score",
                    "winner",
                    "division",
                ]
            ),
            (tables.standings[0], ["group", "name", "division", "rows", "complete"]),
            (Division(id: "d", teams: []), ["id", "name", "teams", "tieBreakers"]),
            (tables.standings[0].rows[0], ["team", "name", "played", "won", "lost", "pointsFor", "pointsAgainst", "rank"]),
            (Timestamp(milliseconds: 0), ["rawValue"]),
            (GameID("g"), ["rawValue"]),
            (
                HeartbeatMessage(epoch: "", sequence: 0, at: Timestamp(milliseconds: 0)),
                ["type", "protocol", "epoch", "sequence", "at", "standingsSequence", "bracketSequence"]
            ),
            (GameBeatMessage(epoch: "", game: "g", version: 0), ["type", "epoch", "game", "version"]),
        ]
        for (value, expected) in inventory {
            let labels = Mirror(reflecting: value).children.map { $0.label ?? "?" }
            #expect(labels == expected, "\(type(of: value)) has fields its JSON writer may not write")
        }
    }

    @Test("the organiser's tournament changes, as logged and as published, every field absent and present")
    func tournamentChanges() throws {
        let team = EncodingFixtures.team("o\"wls", "Owls é", players: [("ola", "Ola \u{2028}"), ("p/i", "Pïa")])
        let changes: [TournamentChange] = [
            .teamRegistered(team, group: nil), .teamRegistered(team, group: "A\""),
            .teamRegistered(team, group: nil, division: "w\"omen"),
            .playerAdded(team: "lions", player: Player(id: "dee", name: "Dee \u{1}")),
            .playerRenamed(team: "lions", player: "ann", name: "Ann 😀"),
            .playerActive(team: "lions", player: "ann", active: false), .playerActive(team: "l", player: "a", active: true),
            .gameScheduled(ScheduledGame(id: "g9", home: .team("a"), away: .winner(of: "g1"))),
            .gameScheduled(
                ScheduledGame(
                    id: "g9", home: .groupRank(group: "A", rank: 2), away: .loser(of: "g1"), court: "C", group: "A",
                    round: "R", start: "10:50", rules: RuleSet(targetScore: 11, timeLimit: TimeLimit(milliseconds: 9)),
                    division: "w\"omen")),
            .gameEdited(GameEdit(game: "g1", court: "Court 2")), .gameEdited(GameEdit(game: "g1", preset: "fiba\"3x3")),
            .gameEdited(
                GameEdit(
                    game: "g1", court: "C", start: "11:00", rules: .standard, home: .team("a"), away: .team("b"))),
            .drawPublished(PublishedDraw(schedule: Schedule(teams: [:], games: []))),
            .drawPublished(Self.draw), .teamWithdrawn("o\"wls"),
            .swissRoundPaired(SwissRoundPairing(group: "S\"", round: 2, games: [], bye: nil)),
            .swissRoundPaired(
                SwissRoundPairing(
                    group: "S", round: 3, games: [.init(game: "s-R3-1", home: "o\"wls", away: "lions")], bye: "b\"ye")),
        ]
        for (index, change) in changes.enumerated() {
            try expectSameJSON(change)
            for reason in [nil, "late \"entry\""] as [String?] {
                let event = GameEvent(
                    gameID: .tournament, version: index + 1, sequence: Int64(index + 40), at: Timestamp(milliseconds: 7),
                    origin: CommandOrigin(clientID: "organiser/desk", commandID: "c\(index)"),
                    kind: .tournamentChanged(change, reason: reason))
                try expectSameJSON(event)
                try expectSameJSON(event.kind)
                try expectSameJSON(try #require(TournamentEventMessage(epoch: "e\"1", event: event)))
            }
        }
        let labels = { (value: Any) in Mirror(reflecting: value).children.map { $0.label ?? "?" } }
        #expect(labels(GameEdit(game: "g")) == ["game", "court", "start", "rules", "home", "away", "preset"])
        #expect(
            labels(ScheduledGame(id: "g", home: .team("a"), away: .team("b")))
                == ["id", "home", "away", "court", "group", "round", "division", "start", "rules", "playedIf"])
        #expect(TournamentEventMessage(epoch: "", event: EncodingFixtures.tournament().events[0]) == nil)
        let change = GameEvent(
            gameID: .tournament, version: 1, at: Timestamp(milliseconds: 0), origin: CommandOrigin(clientID: "o", commandID: "c"),
            kind: .tournamentChanged(changes[0], reason: nil))
        let message = try #require(TournamentEventMessage(epoch: "", event: change))
        #expect(labels(message) == ["type", "epoch", "sequence", "version", "at", "origin", "change", "reason"])
    }

    /// A draw with every field: two divisions' teams and seeds, a group, a knockout slot, a
    /// random seed past 2^53 and a description of several lines.
    static var draw: PublishedDraw {
        let teams = [
            EncodingFixtures.team("o\"wls", "Owls é", players: [("ola", "Ola \u{2028}")]),
            EncodingFixtures.team("lions", "Lions", players: [("ann", "Ann 😀")]),
        ]
        var schedule = Schedule(
            teams: Dictionary(uniqueKeysWithValues: teams.map { ($0.id, $0) }), courts: ["Court \"1\"", "C2"],
            groups: [Group(id: "A", name: "Pool A", teams: ["o\"wls", "lions"], division: "open")], rounds: ["Pools", "Final"],
            games: [
                ScheduledGame(
                    id: "g1", home: .team("o\"wls"), away: .team("lions"), court: "C2", group: "A", round: "Pools",
                    start: "09:00", division: "open"),
                ScheduledGame(
                    id: "g2", home: .groupRank(group: "A", rank: 1), away: .winner(of: "g1"), round: "Final", rules: .standard,
                    division: "open"),
                ScheduledGame(
                    id: "g3", home: .swissPairing(group: "A", round: 2, pairing: 1, side: .home),
                    away: .swissPairing(group: "A\"", round: 3, pairing: 2, side: .away), group: "A", round: "Final",
                    division: "open"),
                ScheduledGame(
                    id: "g4", home: .loser(of: "g2"), away: .winner(of: "g2"), round: "Final", division: "open",
                    playedIf: .won(game: "g2", by: .away)),
            ], tieBreakers: [.headToHead, .seed])
        schedule.seeds = ["lions": 1, "o\"wls": 2]
        schedule.divisions = [Division(id: "open", name: "Open", teams: ["lions", "o\"wls"], tieBreakers: [.pointsScored])]
        schedule.timing = DayTiming(gameMinutes: 10, changeoverMinutes: 4, restMinutes: 20)
        schedule.withdrawn = ["lions", "o\"wls"]
        schedule.swissByes = ["A": ["lions", "o\"wls"], "B\"": []]
        return PublishedDraw(schedule: schedule, randomSeed: 18_000_000_000_000_000_000, event: "tournament: X\n# \"a\"\n")
    }

    @Test("heartbeats and game beats are written as Foundation writes them")
    func heartbeatsAndBeats() throws {
        for epoch in ["1795311641334-07a9265f", "e/\"\u{1}\u{2028}é"] {
            try expectSameJSON(HeartbeatMessage(epoch: epoch, sequence: .max, at: Timestamp(milliseconds: -5)))
            try expectSameJSON(
                HeartbeatMessage(
                    epoch: epoch, sequence: 40, at: Timestamp(milliseconds: 7), standingsSequence: 18, bracketSequence: 39))
            try expectSameJSON(GameBeatMessage(epoch: epoch, game: GameID("g\"1/é"), version: 12))
        }
    }

    @Test("messages that are not JSONWritable still go through Foundation, unchanged")
    func foundationFallback() throws {
        let request = Request(origin: CommandOrigin(clientID: "k\"/", commandID: "1"), operation: .listGames)
        let decoded = try Request.decode(request.encoded())
        #expect(decoded.operation == request.operation && decoded.origin == request.origin)
    }
}
