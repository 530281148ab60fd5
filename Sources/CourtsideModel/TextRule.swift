/// The one rule for the text the daemon stores: every name, court, round, group, start time and
/// reason, whether it comes from the config file, the protocol or the desk.
///
/// - No control characters: C0 (U+0000–U+001F), DEL (U+007F), C1 (U+0080–U+009F), nor the
///   line and paragraph separators (U+2028, U+2029). A ``Kind/reason`` may hold line breaks
///   (U+000A, nothing else); every other field is one line, so tab, LF and CR are refused.
/// - No bidirectional embeddings, overrides or isolates (U+202A–U+202E, U+2066–U+2069): they
///   reorder the text after them on every screen and in every log line that shows it. The
///   marks U+200E, U+200F and U+061C are allowed: they reorder nothing beyond themselves, and
///   right-to-left names need them for their punctuation.
/// - Not blank, and at most ``maxLineLength`` characters (``maxReasonLength`` for a reason), as
///   a reader counts them (grapheme clusters), and at most eight UTF-8 bytes a character on
///   average, so no character hides hundreds of combining marks.
/// - A ``Kind/time`` is a time of day as the schedule writes it: `H:MM` or `HH:MM`, from 00:00
///   to 23:59, in ASCII digits.
///
/// A refusal is `invalid_text` (`invalid_reason` for a reason) and names the field:
/// "court: contains U+0000, a control character".
public enum TextRule {
    /// What a stored text is, which sets what it may hold.
    public enum Kind: Sendable {
        /// A name, court, round or group: one line.
        case line
        /// An organiser's reason: line breaks allowed, longer.
        case reason
        /// A start time of the schedule: `H:MM` or `HH:MM`.
        case time
    }

    /// The longest name, court, round or group, in characters.
    public static let maxLineLength = 80
    /// The longest reason, in characters.
    public static let maxReasonLength = 500
    /// The most UTF-8 bytes a text may have per character of its limit.
    static let bytesPerCharacter = 8

    /// Why `text` cannot be stored as a `kind`, or nil when it can. The text itself is never
    /// quoted: it may hold what the rule keeps out of logs and screens.
    public static func problem(_ text: String, as kind: Kind) -> String? {
        if text.allSatisfy(\.isWhitespace) { return "is empty" }
        for scalar in text.unicodeScalars {
            if let what = refusal(of: scalar, lineBreaks: kind == .reason) {
                return "contains U+\(hex(scalar)), \(what)"
            }
        }
        let limit = kind == .reason ? maxReasonLength : maxLineLength
        let characters = text.count
        if characters > limit { return "is \(characters) characters long; the most is \(limit)" }
        if text.utf8.count > limit * bytesPerCharacter {
            return "is \(text.utf8.count) bytes of UTF-8; the most is \(limit * bytesPerCharacter)"
        }
        if kind == .time, time(text) == nil { return "is not a time of day: H:MM or HH:MM, from 00:00 to 23:59" }
        return nil
    }

    /// Refuses `text`, when given and against the rule, with an error that names `field`:
    /// `invalid_text`, or `invalid_reason` for a reason.
    public static func check(_ text: String?, as kind: Kind, field: String) throws(CourtsideError) {
        guard let text, let problem = problem(text, as: kind) else { return }
        throw CourtsideError(kind == .reason ? .invalidReason : .invalidText, "\(field): \(problem)")
    }

    /// The hour and minute of a start time (`H:MM` or `HH:MM`, 00:00 to 23:59), or nil when
    /// `text` is none.
    public static func time(_ text: String) -> (hour: Int, minute: Int)? {
        let bytes = Array(text.utf8)
        guard bytes.count == 4 || bytes.count == 5, bytes[bytes.count - 3] == UInt8(ascii: ":") else { return nil }
        let digits = bytes.enumerated().filter { $0.offset != bytes.count - 3 }.map(\.element)
        guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        let values = digits.map { Int($0 - UInt8(ascii: "0")) }
        let hour = values.dropLast(2).reduce(0) { $0 * 10 + $1 }
        let minute = values[values.count - 2] * 10 + values[values.count - 1]
        return hour < 24 && minute < 60 ? (hour, minute) : nil
    }

    /// What `scalar` is, when the rule refuses it; nil when it is allowed.
    static func refusal(of scalar: Unicode.Scalar, lineBreaks: Bool) -> String? {
        switch scalar.value {
        case 0x0A where lineBreaks: nil
        case 0x00...0x1F, 0x7F...0x9F: "a control character"
        case 0x2028, 0x2029: "a line or paragraph separator"
        case 0x202A...0x202E, 0x2066...0x2069: "a bidirectional embedding, override or isolate"
        default: nil
        }
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
