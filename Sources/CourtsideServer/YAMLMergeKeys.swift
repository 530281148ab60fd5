import Yams

/// Merge keys (`<<: *defaults`) tagged without a regular expression.
///
/// Yams finds a merge key through its resolver's rule, an `NSRegularExpression`, and compiling
/// one loads ICU's regular-expression tables: 1.6 MB of the daemon's resident memory for a rule
/// that matches two characters. So the file is composed with no rules (every plain scalar stays
/// text, which is all the configuration's decoder reads), and this tags its plain `<<` keys as
/// merge keys, which Yams' decoder then folds into their mappings as after its own resolver.
enum YAMLMergeKeys {
    /// `node` with every plain `<<` key of its mappings tagged as a merge key. The tree has passed
    /// ``YAMLTreeCheck``, so it is at most ``YAMLTreeCheck/maxDepth`` deep.
    static func tagged(_ node: Yams.Node) -> Yams.Node {
        switch node {
        case .mapping(var mapping):
            for index in mapping.indices {
                let (key, value) = mapping[index]
                mapping[index] = (key: mergeTagged(key), value: tagged(value))
            }
            return .mapping(mapping)
        case .sequence(var sequence):
            for index in sequence.indices { sequence[index] = tagged(sequence[index]) }
            return .sequence(sequence)
        case .scalar, .alias:
            return node
        }
    }

    /// `key` tagged as a merge key if it is one: a plain `<<` (a quoted `"<<"` is text). Its tag
    /// reads as text whether implicit or written (`!!str <<`), so a written one merges too.
    private static func mergeTagged(_ key: Yams.Node) -> Yams.Node {
        guard case .scalar(var scalar) = key, scalar.style == .plain, scalar.string == "<<" else { return key }
        scalar.tag = scalar.tag.copy(with: .merge)
        return .scalar(scalar)
    }
}
