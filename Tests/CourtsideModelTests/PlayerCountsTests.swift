import CourtsideModel
import Foundation
import Testing

@Suite("A game's counts by player")
struct PlayerCountsTests {
    @Test("answers as a dictionary does through random changes, its players in the order of their UTF-8 bytes")
    func likeADictionary() throws {
        // Ids whose UTF-8 order differs from String's `<` (a decomposed é, an emoji, upper and lower case).
        let players: [PlayerID] = ["ann", "Ann", "é", "e\u{301}x", "_x", "😀", "p10", "p2", "Zed", ""]
        var counts = PlayerCounts()
        var dictionary: [PlayerID: MoveCounts] = [:]
        var random = SeededRandom(seed: 7)
        for step in 0..<2_000 {
            let player = players[Int(random.next() % UInt64(players.count))]
            let kind = MoveKind.allCases[Int(random.next() % UInt64(MoveKind.allCases.count))]
            switch random.next() % 4 {
            case 0:
                counts[player] = nil
                dictionary[player] = nil
            case 1:
                var moves = MoveCounts()
                moves[kind] = step
                counts[player] = moves
                dictionary[player] = moves
            default:
                let amount = random.next() % 2 == 0 ? 1 : -1
                counts.add(amount, to: player, kind)
                dictionary[player, default: MoveCounts()][kind] += amount
            }
            #expect(counts.dictionary == dictionary)
            #expect(counts[player] == dictionary[player])
        }
        #expect(counts == PlayerCounts(dictionary))
        #expect(counts.count == dictionary.count)
        #expect(Set(counts.keys) == Set(dictionary.keys))
        let order = counts.keys.map(\.rawValue)
        #expect(order == dictionary.keys.map(\.rawValue).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        // Coded as the dictionary it stands for.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(try encoder.encode(counts) == encoder.encode(dictionary))
        #expect(try JSONDecoder().decode(PlayerCounts.self, from: encoder.encode(dictionary)) == counts)
    }

    @Test("a change to one state's counts leaves a copy's as they were")
    func copiesStayApart() {
        var counts: PlayerCounts = ["a": MoveCounts(), "b": MoveCounts()]
        let before = counts
        counts.add(1, to: "a", .twoPoints)
        #expect(counts["a"]?.twoPoints == 1)
        #expect(before["a"]?.twoPoints == 0)
        #expect(counts["b", default: MoveCounts()] == MoveCounts())
        #expect(counts["c", default: MoveCounts()] == MoveCounts())
    }
}
