import QREncode
import Testing

@Suite("QR codes through libqrencode")
struct QRCodeTests {
    @Test("a join link encodes at a small version, with the three finder patterns where readers look")
    func finderPatterns() throws {
        let code = try QRCode("http://192.168.1.20:8080/keep/join/7Jx2ZkQ9wP4mR8tV3nB6cY1dF5gH0aLs")
        #expect(code.width == 17 + 4 * code.version)
        #expect(code.version <= 5)
        // A finder is a dark 7x7 ring, a light ring inside it, and a dark 3x3 centre.
        func finder(row: Int, column: Int) -> Bool {
            (0..<7).allSatisfy { r in
                (0..<7).allSatisfy { c in
                    let ring = max(abs(r - 3), abs(c - 3))
                    return code[row + r, column + c] == (ring != 2)
                }
            }
        }
        #expect(finder(row: 0, column: 0))
        #expect(finder(row: 0, column: code.width - 7))
        #expect(finder(row: code.width - 7, column: 0))
        #expect(!finder(row: code.width - 7, column: code.width - 7))
    }

    @Test("the same text gives the same code; more correction or more text a larger one")
    func sizes() throws {
        #expect(try QRCode("court 1") == QRCode("court 1"))
        #expect(try QRCode("court 1", correction: .high).width >= QRCode("court 1", correction: .low).width)
        #expect(try QRCode(String(repeating: "x", count: 300)).version > QRCode("x").version)
        #expect(throws: QRCode.EncodingError.self) { try QRCode("") }
        #expect(throws: QRCode.EncodingError.self) { try QRCode(String(repeating: "x", count: 5000)) }
    }

    @Test("the SVG has a light quiet zone and one dark module per dark module of the code")
    func svg() throws {
        let code = try QRCode("PIN K7M4PX")
        let svg = code.svg(margin: 4)
        #expect(svg.hasPrefix("<svg") && svg.contains("viewBox=\"0 0 \(code.width + 8) \(code.width + 8)\""))
        // Each run is a rectangle of height 1: their widths add up to the dark modules.
        // Each run is `Mx y` `hW` `v1` `h-W` `z`: add up the W of every `hW` followed by `v`.
        var dark = 0
        for piece in svg.split(separator: "h").dropFirst() {
            if let v = piece.firstIndex(of: "v"), let width = Int(piece[..<v]) { dark += width }
        }
        #expect(dark == code.modules.filter { $0 }.count)
    }
}
