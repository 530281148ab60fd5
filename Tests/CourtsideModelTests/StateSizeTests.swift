import Foundation
import Testing

@testable import CourtsideModel

/// The sizes that the memory of many games rests on (docs/FIGURES.md, "Memory and restart"):
/// each game's state is held by its actor and by the committed view, and what the bracket gate
/// keeps of it once more, 10,000 times at a venue's scale.
@Suite("The size of a game's state")
struct StateSizeTests {
    @Test("a game's state, its side values and what the bracket gate keeps of it stay small")
    func sizes() {
        #expect(MemoryLayout<SideValues>.size == 8)
        // Within 128 bytes a state is moved by vector stores, not a call to memcpy.
        #expect(MemoryLayout<Game>.size <= 128)
        // A tournament change boxed: inline, it made every event 296 bytes, moved and copied whole.
        #expect(MemoryLayout<GameEvent>.size <= 104)
        #expect(MemoryLayout<BracketGame>.stride <= 24)
        #expect(MemoryLayout<Play>.stride == 40)
    }

    @Test("side values keep their JSON, and one past 32 bits is refused, not trapped")
    func sideValuesCoding() throws {
        let values = SideValues(home: 21, away: 19)
        let json = try JSONEncoder().encode(values)
        #expect(try JSONDecoder().decode(SideValues.self, from: json) == values)
        #expect(try JSONSerialization.jsonObject(with: json) as? [String: Int] == ["home": 21, "away": 19])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(SideValues.self, from: Data(#"{"home": 4294967296, "away": 0}"#.utf8))
        }
    }
}
