import Foundation

/// The languages a browser's `Accept-Language` header asks for, best first (RFC 9110, 12.5.4):
/// "ko-KR,ko;q=0.9,en;q=0.5" asks for Korean, then English. A range with q=0 is refused, `*`
/// stands for any, and ranges of equal weight keep the header's order.
public struct AcceptLanguage: Sendable, Equatable {
    /// One language range and its weight, from 0 to 1.
    public struct Range: Sendable, Equatable {
        /// The range's language; nil for `*`.
        public var language: Language?
        public var quality: Double
    }

    /// The ranges, by weight then by their place in the header; q=0 ones left out.
    public var ranges: [Range]

    /// The header's ranges; a malformed range or weight is skipped, never fatal.
    public init(_ header: some StringProtocol) {
        var parsed: [(Range, Int)] = []
        for (place, item) in header.split(separator: ",").enumerated() {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first, !tag.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
                guard let value = Double(parameter.dropFirst(2)), (0...1).contains(value) else { quality = -1; break }
                quality = value
            }
            guard quality > 0 else { continue }
            if tag == "*" {
                parsed.append((Range(language: nil, quality: quality), place))
            } else if let language = Language(tag: tag) {
                parsed.append((Range(language: language, quality: quality), place))
            }
        }
        ranges = parsed.sorted { $0.0.quality != $1.0.quality ? $0.0.quality > $1.0.quality : $0.1 < $1.1 }.map(\.0)
    }

    /// The best of `available` the header asks for: the first range one of them matches (`*`
    /// matches none in particular, so the caller's default stands); nil when none.
    public func best(of available: some Collection<Language>) -> Language? {
        ranges.lazy.compactMap(\.language).first { available.contains($0) }
    }
}
