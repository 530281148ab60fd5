public import CourtsideLocalization
public import CourtsideModel
import Foundation

/// A game's audit trail as rows: what each event did, who sent it and when; the desk filters
/// them by origin and kind, the terminal pads them into lines.
public struct AuditTrail: Sendable {
    public struct Row: Sendable, Hashable {
        public var game: String
        public var version: Int
        public var sequence: Int64
        /// When, in ISO 8601 with milliseconds (UTC).
        public var at: String
        /// `client_id/command_id`: on a secured daemon the key's name leads, `court-1/...`.
        public var origin: String
        /// The event's type on the wire: `move`, `retraction`, `forfeit`, ...
        public var kind: String
        /// What happened, in words.
        public var what: String
        /// A move that still counts: the organiser may take it back (a correction).
        public var correctable: Bool
    }

    public var rows: [Row]

    /// The rows of `events`, what each did in `words`' language (English for the terminal).
    public init(_ events: [GameEvent], words: Words = .english) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let retracted = Set(
            events.compactMap { event -> Int? in
                if case .retraction(let target, _) = event.kind { return target }
                return nil
            })
        rows = events.map { event in
            let isMove = if case .move = event.kind { true } else { false }
            return Row(
                game: event.gameID.rawValue, version: event.version, sequence: event.sequence,
                at: formatter.string(from: Date(timeIntervalSince1970: Double(event.at.rawValue) / 1000)),
                origin: "\(event.origin.clientID)/\(event.origin.commandID)", kind: event.kind.typeName,
                what: Self.describe(event.kind, words: words), correctable: isMove && !retracted.contains(event.version))
        }
    }

    /// The rows whose origin contains `origin` and whose kind is `kind` (either may be nil or empty).
    public func filtered(origin: String?, kind: String?) -> [Row] {
        rows.filter { row in
            (origin.map { $0.isEmpty || row.origin.localizedCaseInsensitiveContains($0) } ?? true)
                && (kind.map { $0.isEmpty || row.kind == $0 } ?? true)
        }
    }
}
