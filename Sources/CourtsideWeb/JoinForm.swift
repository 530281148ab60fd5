import Foundation

/// What a device sends to join a court: the PIN it was given, and the name its volunteer chose.
/// Read from JSON (the page's script) or from an HTML form (a page without script); anything
/// malformed is nil, never a crash.
struct JoinForm: Equatable {
    var pin: String
    var name: String?

    /// The longest body a join may have.
    static let maxBytes = 4096

    init(pin: String, name: String?) {
        self.pin = pin
        let trimmed = name?.trimmingCharacters(in: .whitespaces)
        self.name = trimmed.flatMap { $0.isEmpty ? nil : String($0.prefix(40)) }
    }

    /// The form in a body of this content type, or nil when it is not one.
    init?(body: [UInt8], form: Bool) {
        let fields: [String: String]
        if form {
            guard let text = String(validating: body, as: UTF8.self) else { return nil }
            var parsed: [String: String] = [:]
            // application/x-www-form-urlencoded: `+` is a space, the rest percent-encoded.
            for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let key = Self.decode(parts[0]), let value = Self.decode(parts.count > 1 ? parts[1] : "") else {
                    return nil
                }
                if parsed[key] == nil { parsed[key] = value }
            }
            fields = parsed
        } else {
            guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else { return nil }
            fields = object.compactMapValues { $0 as? String }
        }
        guard let pin = fields["pin"], !pin.isEmpty, pin.count <= 64 else { return nil }
        self.init(pin: pin, name: fields["name"])
    }

    private static func decode(_ component: Substring) -> String? {
        component.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
