import Foundation
import Yams

/// What a composed YAML tree must not hold for Yams to decode it safely, checked before decoding.
///
/// - Aliases (`*name`) and merge keys (`<<`) repeat a part of the tree without repeating its
///   text, so a file of a few hundred bytes can stand for billions of nodes ("billion laughs"):
///   Yams expands them as it decodes, which takes minutes and gigabytes. The tree, counted with
///   every alias and merge expanded, must stay under ``maxNodes``.
/// - Plain scalars such as `1:30:00` are YAML 1.1 base-60 numbers, and Yams computes them without
///   overflow checks: a large one (`9223372036854775807:1`, or any of 11 or more parts) decoded
///   into a whole number traps and brings the daemon down. Such scalars are refused wherever they
///   are; quoted they are plain text.
/// - A tree nested deeper than ``maxDepth`` is refused: aliases can nest it far deeper than
///   libyaml's own limit, and the steps after this one (``YAMLMergeKeys``) walk it recursively.
enum YAMLTreeCheck {
    /// Far more than a real tournament needs: the sample config is about 250 nodes (keys count),
    /// 64 teams of 5 with 200 games about 5,000.
    static let maxNodes = 100_000

    /// Far deeper than a real tournament's file, whose deepest value (a game's rules) is 4 levels down.
    static let maxDepth = 64

    static func check(_ root: Yams.Node, file: String) throws(ConfigurationError) {
        // Iterative, with parents for the key path of an error: aliases nest trees deeper than
        // libyaml's nesting limit, too deep for recursion.
        var parents: [(parent: Int, key: String)] = [(-1, "")]
        var pending: [(node: Yams.Node, entry: Int, depth: Int)] = [(root, 0, 0)]
        var count = 0
        func path(_ entry: Int) -> String {
            var keys: [String] = []
            var entry = entry
            while entry > 0 {
                keys.append(parents[entry].key)
                entry = parents[entry].parent
            }
            return keys.reversed().joined(separator: ".")
        }
        func push(_ node: Yams.Node, _ key: String, under entry: Int, depth: Int) {
            parents.append((entry, key))
            pending.append((node, parents.count - 1, depth + 1))
        }
        while let (node, entry, depth) = pending.popLast() {
            count += 1
            guard count <= maxNodes else {
                throw ConfigurationError(
                    file: file, key: "",
                    problem: "the file expands to more than \(maxNodes) YAML nodes: do aliases (*name) or merge keys (<<) "
                        + "repeat a large part of it?")
            }
            guard depth <= maxDepth else {
                throw ConfigurationError(
                    file: file, key: path(entry), problem: "nested more than \(maxDepth) levels deep")
            }
            switch node {
            case .scalar(let scalar):
                if scalar.style == .plain || scalar.style == .any, overflowsAsBase60(scalar.string) {
                    throw ConfigurationError(
                        file: file, key: path(entry),
                        problem: "\(scalar.string) is a YAML base-60 number too large for a whole number; "
                            + "quote it if it is text")
                }
            case .mapping(let mapping):
                for (key, value) in mapping {
                    push(key, key.string ?? "?", under: entry, depth: depth)
                    push(value, key.string ?? "?", under: entry, depth: depth)
                }
            case .sequence(let sequence):
                for (index, element) in sequence.enumerated() { push(element, String(index), under: entry, depth: depth) }
            case .alias:
                break
            }
        }
    }

    /// Whether Yams' reading of `text` as a base-60 integer (Int or Int64) overflows, which traps;
    /// this mirrors Yams' `private_construct` and `sexagesimal()` with overflow checks.
    static func overflowsAsBase60(_ text: String) -> Bool {
        overflowsAsBase60(text, as: Int.self) || overflowsAsBase60(text, as: Int64.self)
    }

    private static func overflowsAsBase60<T: FixedWidthInteger & SignedInteger>(_ text: String, as type: T.Type) -> Bool {
        // Every plain scalar of the file comes here: a byte search, not Foundation's `contains`
        // (a string search through NSString: 70 ms of a start with a 1,000-game schedule).
        guard text.utf8.contains(UInt8(ascii: ":")) else { return false }
        let signed = text.replacingOccurrences(of: "_", with: "")
        let negative = signed.hasPrefix("-")
        let unsigned = signed.dropFirst(negative || signed.hasPrefix("+") ? 1 : 0)
        // "0x", "0b", "0o" and "0" prefixes are parsed with a radix instead, which does not trap.
        guard !unsigned.hasPrefix("0"), unsigned.utf8.contains(UInt8(ascii: ":")) else { return false }
        var digits: [T] = []
        for part in unsigned.split(separator: ":", omittingEmptySubsequences: false) {
            // A part that is no decimal of T makes Yams give up without computing anything.
            guard let digit = T(String(part), radix: 10) else { return false }
            digits.append(digit)
        }
        var (value, base): (T, T) = (0, 1)
        for digit in digits.reversed() {
            let (product, productOverflow) = digit.multipliedReportingOverflow(by: base)
            let (sum, sumOverflow) = value.addingReportingOverflow(product)
            let (nextBase, baseOverflow) = base.multipliedReportingOverflow(by: 60)
            if productOverflow || sumOverflow || baseOverflow { return true }
            (value, base) = (sum, nextBase)
        }
        return (negative ? -1 : 1 as T).multipliedReportingOverflow(by: value).overflow
    }
}
