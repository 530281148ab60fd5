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
            guard let parsed = FormFields.parse(body) else { return nil }
            fields = parsed
        } else {
            guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else { return nil }
            fields = object.compactMapValues { $0 as? String }
        }
        guard let pin = fields["pin"], !pin.isEmpty, pin.count <= 64 else { return nil }
        self.init(pin: pin, name: fields["name"])
    }
}
