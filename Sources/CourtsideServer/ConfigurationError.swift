import CourtsideModel

/// A config file that cannot be used: which file, which key, what is wrong.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    public var file: String
    /// Dotted path of the key, for example `games.1.home`; empty for the whole file.
    public var key: String
    public var problem: String

    public var description: String {
        key.isEmpty ? "\(file): \(problem)" : "\(file): \(key): \(problem)"
    }
}

extension ConfigurationError {
    init(decoding error: DecodingError, file: String) {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(file: file, key: path(context.codingPath + [key]), problem: "is required but missing")
        case .typeMismatch(let type, let context):
            self.init(file: file, key: path(context.codingPath), problem: "should be \(Self.describe(type))")
        case .valueNotFound(let type, let context):
            self.init(file: file, key: path(context.codingPath), problem: "should be \(Self.describe(type)), found nothing")
        case .dataCorrupted(let context):
            if let syntax = context.underlyingError {
                // Yams reports YAML syntax errors here, with the line and column.
                self.init(file: file, key: path(context.codingPath), problem: "not valid YAML: \(syntax)")
            } else {
                self.init(file: file, key: path(context.codingPath), problem: context.debugDescription)
            }
        @unknown default:
            self.init(file: file, key: "", problem: "\(error)")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        let name = "\(type)"
        if type == String.self { return "a string" }
        if type == Int.self || type == Int32.self || type == Int64.self { return "a whole number" }
        if name.hasPrefix("Array") || name.contains("Sequence") { return "a list" }
        if name.hasPrefix("Dictionary") { return "a mapping" }
        return "a \(name)"
    }
}

extension ConfigurationError {
    /// Every text the tournament stores is held to the model's ``TextRule``.
    static func checkText(_ text: String?, _ key: String, as kind: TextRule.Kind = .line, file: String)
        throws(ConfigurationError)
    {
        if let text, let problem = TextRule.problem(text, as: kind) {
            throw ConfigurationError(file: file, key: key, problem: problem)
        }
    }
}
