import CQRencode

#if canImport(Glibc)
    import Glibc
#endif

/// A QR code made by libqrencode (Debian's `libqrencode-dev`): its modules as a square of dark
/// and light, ready to draw. We only draw it; the encoding (modes, error correction, masking)
/// is the library's.
public struct QRCode: Sendable, Equatable {
    /// How much of the code may be damaged and still read: more costs a larger code.
    public enum Correction: Sendable {
        /// About 7% of the code.
        case low
        /// About 15%: the usual choice for print.
        case medium
        /// About 25%.
        case quartile
        /// About 30%.
        case high

        var level: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }
    }

    /// Why a text could not be encoded.
    public struct EncodingError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The symbol's version (1 to 40): its size class.
    public let version: Int
    /// Modules on a side.
    public let width: Int
    /// Row by row, `width` × `width`: true is dark.
    public let modules: [Bool]

    /// Encodes `text` (as UTF-8 bytes) at the smallest version that holds it.
    public init(_ text: String, correction: Correction = .medium) throws(EncodingError) {
        guard !text.isEmpty else { throw EncodingError(description: "a QR code needs some text") }
        let bytes = Array(text.utf8)
        guard
            let code = bytes.withUnsafeBufferPointer({ QRcode_encodeData(Int32($0.count), $0.baseAddress, 0, correction.level) })
        else {
            throw EncodingError(
                description: "libqrencode cannot encode \(bytes.count) bytes: \(String(cString: strerror(errno)))")
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        version = Int(code.pointee.version)
        self.width = width
        // The lowest bit of each byte is the module's colour; the others say what the module is for.
        modules = (0..<width * width).map { code.pointee.data[$0] & 1 == 1 }
    }

    /// Whether the module at `row`, `column` is dark.
    public subscript(row: Int, column: Int) -> Bool { modules[row * width + column] }

    /// The code as an SVG image: one path of the dark modules, a light quiet zone of `margin`
    /// modules around them (readers need 4), scaled by the viewer.
    public func svg(margin: Int = 4) -> String {
        let side = width + 2 * margin
        var path = ""
        for row in 0..<width {
            var column = 0
            while column < width {
                guard self[row, column] else {
                    column += 1
                    continue
                }
                // A run of dark modules is one rectangle: a fifth of the path a module each would be.
                let start = column
                while column < width, self[row, column] { column += 1 }
                path += "M\(start + margin) \(row + margin)h\(column - start)v1h-\(column - start)z"
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges">\
            <rect width="\(side)" height="\(side)" fill="#fff"/><path d="\(path)" fill="#000"/></svg>
            """
    }
}
