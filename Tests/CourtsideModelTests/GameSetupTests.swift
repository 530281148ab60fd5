import CourtsideModel
import Foundation
import Testing

@Suite("A game's setup")
struct GameSetupTests {
    static let setup = GameSetup(
        id: "g1", home: Scorebook.home, away: Scorebook.away, rules: RulePresets.fiba3x3, court: "Court 1")

    @Test("a copy is a value: changing one field of it leaves the original, and the rest of the copy, as they were")
    func copiesAreValues() {
        let original = Self.setup
        var copy = original
        #expect(copy == original && copy.hashValue == original.hashValue)
        copy.court = "Court 2"
        copy.home.name = "Renamed"
        #expect(original.court == "Court 1" && original.home == Scorebook.home)
        #expect(copy.court == "Court 2" && copy.home.name == "Renamed")
        #expect((copy.id, copy.away, copy.rules) == (original.id, original.away, original.rules))
        #expect(copy != original)
        // Each field's setter sets that field alone.
        var other = original
        other.id = "g2"
        other.away = Scorebook.home
        other.rules = .standard
        #expect(
            (other.id, other.home, other.away, other.rules, other.court) == (
                "g2", Scorebook.home, Scorebook.home, .standard, "Court 1"
            ))
        #expect((original.id, original.away, original.rules) == ("g1", Scorebook.away, RulePresets.fiba3x3))
        // Changed back, field by field: equal and hashed alike again, though stored apart.
        copy.court = "Court 1"
        copy.home = Scorebook.home
        #expect(copy == original && copy.hashValue == original.hashValue)
    }

    @Test("rules are one reference; equal rules decoded apart share one once set up; a changed copy is apart")
    func sharedRules() throws {
        #expect(MemoryLayout<RuleSet>.size == MemoryLayout<AnyObject>.size)
        let json = try JSONEncoder().encode(RulePresets.fiba3x3)
        let (first, second) = (
            try JSONDecoder().decode(RuleSet.self, from: json), try JSONDecoder().decode(RuleSet.self, from: json)
        )
        #expect(first == RulePresets.fiba3x3 && second == first)
        func object(_ rules: RuleSet) -> UInt { unsafeBitCast(rules, to: UInt.self) }
        #expect(object(first) != object(second))
        let games = [first, second].map { GameSetup(id: "g1", home: Scorebook.home, away: Scorebook.away, rules: $0) }
        #expect(object(games[0].rules) == object(games[1].rules))
        // The JSON is the fields': every set one under its key, the unset optionals left out.
        let sorted = JSONEncoder()
        sorted.outputFormatting = .sortedKeys
        #expect(try sorted.encode(games[1].rules) == sorted.encode(RulePresets.fiba3x3))
        let keys = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(RuleSet(preset: "p"))) as? [String: Any]
        #expect(Set(keys?.keys ?? [:].keys) == ["target_score", "win_by", "preset"])
        var changed = games[0].rules
        changed.targetScore = 21
        #expect(changed.targetScore == 21 && games[1].rules.targetScore == RulePresets.fiba3x3.targetScore)
        #expect(changed.winBy == first.winBy && changed.timeLimit == first.timeLimit)
    }

    @Test("every field is in the shared storage: the setup itself is one reference")
    func oneReference() {
        // A field stored beside the storage would be missing from the JSON, ==, hash and mirror.
        #expect(MemoryLayout<GameSetup>.size == MemoryLayout<AnyObject>.size)
        #expect(Mirror(reflecting: Self.setup).children.map(\.label) == ["id", "home", "away", "rules", "court"])
    }

    @Test("its JSON is the five fields, as before they were held in one object, and decodes back")
    func json() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let object = try #require(
            JSONSerialization.jsonObject(with: encoder.encode(Self.setup)) as? [String: Any])
        #expect(Set(object.keys) == ["id", "home", "away", "rules", "court"])
        #expect(try JSONDecoder().decode(GameSetup.self, from: encoder.encode(Self.setup)) == Self.setup)
        var courtless = Self.setup
        courtless.court = nil
        let bytes = try encoder.encode(courtless)
        #expect(!String(decoding: bytes, as: UTF8.self).contains("court"))
        #expect(try JSONDecoder().decode(GameSetup.self, from: bytes) == courtless)
    }
}
