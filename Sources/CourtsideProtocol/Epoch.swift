/// How epochs order (docs/PROTOCOL.md, "Epochs"): each begins with a decimal number, higher for a
/// later epoch of one tournament's daemons: the lease's term among daemons sharing a PostgreSQL
/// log, the start time in milliseconds for a daemon on its own.
public enum Epoch {
    /// The number `epoch` begins with; nil when it begins with none.
    public static func number(_ epoch: String) -> Int64? {
        Int64(epoch.prefix { $0.isASCII && $0.isNumber })
    }

    /// Whether `epoch` is of an earlier daemon than `other`: a display that follows `other` and
    /// still hears it ignores messages of `epoch` (a daemon that stepped down).
    public static func isOlder(_ epoch: String, than other: String) -> Bool {
        guard let mine = number(epoch), let theirs = number(other) else { return false }
        return mine < theirs
    }
}
