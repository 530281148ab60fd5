public import CourtsideModel

/// The first place where two event logs differ: an event (by sequence) or a refusal (by
/// position), the field, and what each log holds there.
public struct EventLogDifference: Sendable, Equatable, CustomStringConvertible {
    /// Which entry of the logs differs.
    public enum Place: Sendable, Equatable {
        /// The event with this sequence number (the source's, when both logs have one here).
        case event(sequence: Int64)
        /// The refusal at this position, counted from 1 in the order ``EventLog/readRefusals()`` returns.
        case refusal(position: Int)
    }

    /// What differs there.
    public enum Field: String, Sendable, Equatable {
        /// One log has the entry, the other has not.
        case presence
        case sequence
        case game
        case version
        case time
        case clientID = "client id"
        case commandID = "command id"
        /// What the event records (its kind and everything it carries).
        case kind
        /// A refusal's error: its code and message.
        case error
    }

    public var place: Place
    public var field: Field
    /// The source's value, in words; nil when the source has no entry here.
    public var source: String?
    /// The target's value, in words; nil when the target has no entry here.
    public var target: String?

    public init(place: Place, field: Field, source: String?, target: String?) {
        self.place = place
        self.field = field
        self.source = source
        self.target = target
    }

    public var description: String {
        let entry: String
        switch place {
        case .event(let sequence): entry = "event \(sequence)"
        case .refusal(let position): entry = "refusal \(position)"
        }
        if field == .presence {
            return source == nil ? "\(entry) is in the target only" : "\(entry) is in the source only"
        }
        return "\(entry): \(field.rawValue) is \(source ?? "absent") in the source, \(target ?? "absent") in the target"
    }

    /// The first difference between two logs' events (in sequence order) and refusals (in
    /// their order), field by field; nil when they are the same.
    public static func first(
        events source: [GameEvent], _ target: [GameEvent], refusals sourceRefusals: [CommandRefusal],
        _ targetRefusals: [CommandRefusal]
    ) -> EventLogDifference? {
        for index in 0..<max(source.count, target.count) {
            let from = index < source.count ? source[index] : nil
            let to = index < target.count ? target[index] : nil
            if let difference = first(from, to) { return difference }
        }
        for index in 0..<max(sourceRefusals.count, targetRefusals.count) {
            let from = index < sourceRefusals.count ? sourceRefusals[index] : nil
            let to = index < targetRefusals.count ? targetRefusals[index] : nil
            if let difference = first(from, to, position: index + 1) { return difference }
        }
        return nil
    }

    private static func first(_ source: GameEvent?, _ target: GameEvent?) -> EventLogDifference? {
        guard let source, let target else {
            let sequence = (source ?? target)?.sequence ?? 0
            return EventLogDifference(
                place: .event(sequence: sequence), field: .presence, source: source.map(Self.summary),
                target: target.map(Self.summary))
        }
        guard source != target else { return nil }
        let fields: [(Field, String, String)] = [
            (.sequence, "\(source.sequence)", "\(target.sequence)"),
            (.game, source.gameID.rawValue, target.gameID.rawValue),
            (.version, "\(source.version)", "\(target.version)"),
            (.time, "\(source.at.rawValue) ms", "\(target.at.rawValue) ms"),
            (.clientID, source.origin.clientID, target.origin.clientID),
            (.commandID, source.origin.commandID, target.origin.commandID),
            (.kind, Self.words(source.kind), Self.words(target.kind)),
        ]
        let (field, from, to) = fields.first { $0.1 != $0.2 } ?? (.kind, Self.words(source.kind), Self.words(target.kind))
        return EventLogDifference(place: .event(sequence: source.sequence), field: field, source: from, target: to)
    }

    private static func first(_ source: CommandRefusal?, _ target: CommandRefusal?, position: Int) -> EventLogDifference? {
        guard let source, let target else {
            return EventLogDifference(
                place: .refusal(position: position), field: .presence, source: source.map(Self.summary),
                target: target.map(Self.summary))
        }
        guard source != target else { return nil }
        let fields: [(Field, String, String)] = [
            (.game, source.gameID.rawValue, target.gameID.rawValue),
            (.clientID, source.origin.clientID, target.origin.clientID),
            (.commandID, source.origin.commandID, target.origin.commandID),
            (.time, "\(source.at.rawValue) ms", "\(target.at.rawValue) ms"),
            (.error, "\(source.error)", "\(target.error)"),
        ]
        let (field, from, to) = fields.first { $0.1 != $0.2 } ?? (.error, "\(source.error)", "\(target.error)")
        return EventLogDifference(place: .refusal(position: position), field: field, source: from, target: to)
    }

    /// An event in a few words: enough to find it in either log.
    private static func summary(_ event: GameEvent) -> String {
        "game \(event.gameID.rawValue) version \(event.version) from \(event.origin.clientID)/\(event.origin.commandID)"
    }

    private static func summary(_ refusal: CommandRefusal) -> String {
        "game \(refusal.gameID.rawValue) from \(refusal.origin.clientID)/\(refusal.origin.commandID)"
    }

    /// What an event records, cut short: a roster or a setup can run long.
    private static func words(_ kind: GameEvent.Kind) -> String {
        let words = String(describing: kind)
        return words.count > 300 ? words.prefix(300) + "…" : words
    }
}
