/// The invariant of every failover scenario: each acknowledged command is in the log exactly once.
///
/// Given what was acknowledged (an append that returned, a reply the client got) and what the
/// log holds afterwards, it finds the acknowledged ones missing and any found more than once.
/// Something found that was never acknowledged is allowed: a commit whose answer was lost with
/// the server that made it.
public struct AcknowledgementCheck<ID: Hashable & Sendable>: Sendable {
    /// Acknowledged but not found, in the order acknowledged.
    public let missing: [ID]
    /// Found more than once (each listed once), in the order first found.
    public let duplicated: [ID]
    /// How many acknowledgements there were, and how many distinct things were found.
    public let acknowledged: Int
    public let found: Int
    /// Found but never acknowledged: allowed, counted for the reports.
    public let unacknowledgedFound: Int

    public init(acknowledged: some Sequence<ID>, found: some Sequence<ID>) {
        var counts: [ID: Int] = [:]
        var duplicated: [ID] = []
        for id in found {
            counts[id, default: 0] += 1
            if counts[id] == 2 { duplicated.append(id) }
        }
        var seen = Set<ID>()
        var missing: [ID] = []
        for id in acknowledged where seen.insert(id).inserted && counts[id] == nil {
            missing.append(id)
        }
        self.missing = missing
        self.duplicated = duplicated
        self.acknowledged = seen.count
        self.found = counts.count
        unacknowledgedFound = counts.keys.filter { !seen.contains($0) }.count
    }

    /// Whether every acknowledged command is there exactly once.
    public var holds: Bool { missing.isEmpty && duplicated.isEmpty }

    /// One line for a test's failure or a trial's report.
    public var summary: String {
        "acknowledged \(acknowledged), found \(found), missing \(missing.count), duplicated \(duplicated.count), "
            + "found unacknowledged \(unacknowledgedFound)"
            + (missing.isEmpty ? "" : "; first missing: \(missing.prefix(5).map { "\($0)" }.joined(separator: ", "))")
    }
}
