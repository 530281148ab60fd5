/// The invariants of a fenced log, where each writer's lease has a term that only goes up: the
/// log never goes back to an older term, and no acknowledgement comes from a term that a newer
/// one has replaced.
public enum TermCheck {
    /// Where the term goes down as the sequence goes up: each such entry, with the one before it.
    /// `entries` may come in any order; they are sorted by sequence first.
    public static func termDecreases(_ entries: [(sequence: Int64, term: Int64)]) -> [(
        before: (sequence: Int64, term: Int64), after: (sequence: Int64, term: Int64)
    )] {
        let sorted = entries.sorted { $0.sequence < $1.sequence }
        return zip(sorted, sorted.dropFirst()).filter { $0.1.term < $0.0.term }.map { (before: $0.0, after: $0.1) }
    }

    /// The acknowledgements that came from a term older than one already seen, given every
    /// acknowledgement in the order it was received, with its writer's term (the index in that
    /// list, and the newest term seen before it).
    public static func staleAcknowledgements(_ terms: [Int64]) -> [(index: Int, term: Int64, newest: Int64)] {
        var newest = Int64.min
        var stale: [(index: Int, term: Int64, newest: Int64)] = []
        for (index, term) in terms.enumerated() {
            if term < newest { stale.append((index, term, newest)) }
            newest = max(newest, term)
        }
        return stale
    }
}
