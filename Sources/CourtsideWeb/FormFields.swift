/// The fields of an HTML form's body (`application/x-www-form-urlencoded`): `+` is a space, the
/// rest percent-encoded. Anything malformed is nil, never a crash; the first of a repeated field
/// counts.
enum FormFields {
    static func parse(_ body: [UInt8]) -> [String: String]? {
        guard let text = String(validating: body, as: UTF8.self) else { return nil }
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = decode(parts[0]), let value = decode(parts.count > 1 ? parts[1] : "") else { return nil }
            if fields[key] == nil { fields[key] = value }
        }
        return fields
    }

    private static func decode(_ component: Substring) -> String? {
        component.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
