import CourtsideModel
import Foundation
import Testing

@Suite("A game's plays")
struct PlayHistoryTests {
    static func play(_ version: Int) -> Play {
        Play(
            version: version, at: Timestamp(milliseconds: Int64(version)), player: PlayerID("p\(version % 7)"),
            side: version.isMultiple(of: 2) ? .home : .away, move: .twoPoints)
    }

    @Test("a history reserved for a few plays, as a checkpoint's reading leaves it, grows past them", arguments: [1, 2, 3, 5])
    func growsPastReserved(reserved: Int) {
        var history = PlayHistory()
        history.reserveCapacity(reserved)
        var array: [Play] = []
        for version in 0..<70 {
            history.append(Self.play(version))
            array.append(Self.play(version))
            #expect(Array(history) == array)
        }
    }

    @Test("appends across chunk boundaries keep every play in order, as an array would", arguments: [0, 1, 31, 32, 33, 64, 100])
    func appends(count: Int) throws {
        var history = PlayHistory()
        var array: [Play] = []
        for version in 0..<count {
            history.append(Self.play(version))
            array.append(Self.play(version))
        }
        #expect(history.count == count)
        #expect(Array(history) == array)
        // Its own iterator, chunk after chunk, and the subscript agree with the array.
        var iterated: [Play] = []
        for play in history { iterated.append(play) }
        #expect(iterated == array)
        #expect(history.indices.map { history[$0] } == array)
        // Reserved ahead, as a checkpoint's reading does: the same plays, equal and hashed alike.
        var reserved = PlayHistory()
        reserved.reserveCapacity(count)
        #expect(reserved.isEmpty && (reserved == PlayHistory()) && reserved.hashValue == PlayHistory().hashValue)
        for play in array { reserved.append(play) }
        #expect(reserved == history && reserved.hashValue == history.hashValue && Array(reserved) == array)
        #expect(history == PlayHistory(array))
        #expect(history.hashValue == PlayHistory(array).hashValue)
        #expect(Array(history.suffix(10).reversed()) == Array(array.suffix(10).reversed()))
        #expect(history.last(where: { $0.version % 5 == 0 }) == array.last(where: { $0.version % 5 == 0 }))
        // The same JSON as the array, both ways.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try encoder.encode(history)
        #expect(json == (try encoder.encode(array)))
        #expect(try JSONDecoder().decode(PlayHistory.self, from: json) == history)
        var writer = JSONWriter()
        history.writeJSON(to: &writer)
        var arrayWriter = JSONWriter()
        arrayWriter.value(array)
        #expect(writer.bytes == arrayWriter.bytes)
    }

    @Test("a copy is a value: marking or adding a play in one state leaves the other as it was")
    func valueSemantics() {
        var before = PlayHistory((0..<70).map(Self.play))
        let snapshot = before
        before[5].retractedBy = 99
        before[69].retractedBy = 100
        before.append(Self.play(70))
        #expect(snapshot.count == 70 && snapshot.allSatisfy { $0.retractedBy == nil })
        #expect(before.count == 71 && before[5].retractedBy == 99 && before[69].retractedBy == 100)
        #expect(before != snapshot)
        // Two states that grew apart from one shared history.
        var left = snapshot
        var right = snapshot
        left.append(Self.play(1000))
        right.append(Self.play(2000))
        #expect(left.last?.version == 1000 && right.last?.version == 2000 && snapshot.count == 70)
    }

    @Test("a state taken at any point and extended later gets its own plays, and the states after it keep theirs")
    func branchesFromEveryPoint() {
        var history = PlayHistory()
        var states = [history]
        for version in 0..<70 {
            history.append(Self.play(version))
            states.append(history)
        }
        // Each older state's next place in its chunk is another state's: its move lands in a copy.
        var branches = states
        for index in branches.indices { branches[index].append(Self.play(1000 + index)) }
        for (index, branch) in branches.enumerated() {
            #expect(Array(branch) == (0..<index).map(Self.play) + [Self.play(1000 + index)], "branch \(index)")
            #expect(Array(states[index]) == (0..<index).map(Self.play), "state \(index)")
        }
        #expect(Array(history) == (0..<70).map(Self.play))
    }

    @Test("copies of one history extended at once on many threads each hold their own plays")
    func concurrentExtensions() async {
        let shared = PlayHistory((0..<40).map(Self.play))
        let results = await withTaskGroup(of: (Int, [Play]).self) { group in
            for branch in 0..<8 {
                group.addTask {
                    var mine = shared
                    for step in 0..<50 { mine.append(Self.play(10_000 * (branch + 1) + step)) }
                    return (branch, Array(mine))
                }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        for branch in 0..<8 {
            #expect(results[branch] == (0..<40).map(Self.play) + (0..<50).map { Self.play(10_000 * (branch + 1) + $0) })
        }
        #expect(Array(shared) == (0..<40).map(Self.play))
    }

    @Test("states of a game applied one after another share their plays yet stay apart")
    func gameStates() {
        let setup = GameSetup(
            id: "g", home: Team(id: "h", name: "H", players: [Player(id: "a", name: "A")]),
            away: Team(id: "w", name: "W", players: [Player(id: "b", name: "B")]),
            rules: RuleSet(targetScore: 1000))
        let origin = CommandOrigin(clientID: "k", commandID: "1")
        var events = [
            GameEvent(gameID: "g", version: 1, at: Timestamp(milliseconds: 1), origin: origin, kind: .gameCreated(setup))
        ]
        var states = [Game(setup: setup)]
        for version in 2...80 {
            let kind: GameEvent.Kind =
                version % 9 == 0
                ? .retraction(targetVersion: version - 1)
                : .move(player: version.isMultiple(of: 2) ? "a" : "b", move: .onePoint)
            events.append(
                GameEvent(gameID: "g", version: version, at: Timestamp(milliseconds: Int64(version)), origin: origin, kind: kind))
            var next = states[states.count - 1]
            next.apply(events[events.count - 1])
            states.append(next)
        }
        // Each state, though it shares plays with the others, is what a replay of its events alone gives.
        for (index, state) in states.enumerated() {
            #expect(state == Game.replay(events.prefix(index + 1)), "state \(index)")
        }
        #expect(states.last?.plays.filter { $0.retractedBy != nil }.count == 8)
    }

    @Test("a play keeps its side, move and retraction, packed in one word, and its JSON is what the fields say")
    func packedFields() throws {
        for side in Side.allCases {
            for move in MoveKind.allCases {
                for retraction in [nil, 1, 2, 1 << 40] as [Int?] {
                    var play = Play(
                        version: 7, at: Timestamp(milliseconds: 9), player: "p1", side: side, move: move,
                        retractedBy: retraction)
                    #expect(play.side == side && play.move == move && play.retractedBy == retraction)
                    let json = try JSONEncoder().encode(play)
                    #expect(try JSONDecoder().decode(Play.self, from: json) == play)
                    let fields = try JSONSerialization.jsonObject(with: json) as? [String: Any]
                    #expect(fields?["side"] as? String == side.rawValue)
                    #expect(fields?["move"] as? String == move.rawValue)
                    #expect(fields?["retracted_by"] as? Int == retraction)
                    // Each field changes alone.
                    play.retractedBy = 3
                    play.side = side.opponent
                    #expect(play.move == move && play.retractedBy == 3 && play.side == side.opponent)
                }
            }
        }
        let zero = #"{"version":2,"at":1,"player":"p","side":"home","move":"foul","retracted_by":0}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Play.self, from: Data(zero.utf8)) }
    }
}
