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
        // Changed back, field by field: equal and hashed alike again, though stored apart.
        copy.court = "Court 1"
        copy.home = Scorebook.home
        #expect(copy == original && copy.hashValue == original.hashValue)
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
