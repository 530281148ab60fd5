public import Foundation

/// How a device joins a court: a link with a long token (for a QR code) and a short PIN (to
/// type), both for the court's current `generation`. A new code for the court starts a new
/// generation, and every device that joined with an older one is revoked.
public struct JoinCode: Sendable, Equatable, Codable {
    public var court: String
    public var generation: Int
    public var token: String
    public var pin: String

    public init(court: String, generation: Int, token: String, pin: String) {
        self.court = court
        self.generation = generation
        self.token = token
        self.pin = pin
    }

    /// The characters a PIN is made of: no 0/O, 1/I/L, 2/Z, 5/S, 6/G or 8/B, which volunteers
    /// read off a sheet in a noisy hall would confuse.
    public static let pinAlphabet = Array("ACDEFHJKMNPQRTUVWXY3479")
    /// Six of them: 23⁶, about 148 million, against five wrong tries an address before it is slowed down.
    public static let pinLength = 6

    /// A new code for a court, from the system's secure random source.
    public static func make(court: String, generation: Int) -> JoinCode {
        var random = SystemRandomNumberGenerator()
        let pin = String((0..<pinLength).map { _ in pinAlphabet.randomElement(using: &random)! })
        return JoinCode(court: court, generation: generation, token: randomToken(bytes: 24), pin: pin)
    }

    /// A PIN as a person typed it: any case, with spaces or dashes, as the sheet prints it.
    public static func normalizedPIN(_ typed: String) -> String {
        String(typed.uppercased().filter { !$0.isWhitespace && $0 != "-" })
    }

    /// The PIN as printed: two groups of three, easier to read aloud.
    public var printedPIN: String { "\(pin.prefix(3))-\(pin.dropFirst(3))" }

    /// `bytes` random bytes as URL-safe base64 without padding (cookie and path safe).
    public static func randomToken(bytes: Int) -> String {
        var random = SystemRandomNumberGenerator()
        let data = Data((0..<bytes).map { _ in UInt8.random(in: 0...255, using: &random) })
        return data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// A court's name as it stands in a client id: "Court 1" is `court-1`; `fallback` when the
    /// name has no letter or digit.
    public static func slug(_ name: String, otherwise fallback: String = "court") -> String {
        let lowered = name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let joined = String(lowered).split(separator: "-", omittingEmptySubsequences: true).joined(separator: "-")
        return joined.isEmpty ? fallback : String(joined.prefix(32))
    }

    /// A device's name, unique by construction: what the volunteer called it, and the store's
    /// `number` for it, which no other device ever gets (`ann-s-phone-17`). The number is all
    /// that follows the last dash, so two numbers never make the same name.
    public static func deviceName(_ requested: String?, number: Int) -> String {
        var base = slug(requested ?? "", otherwise: "device")
        while base.hasSuffix("-") { base.removeLast() }
        return "\(base)-\(number)"
    }
}

/// A phone or tablet that joined a court.
public struct KeeperDevice: Sendable, Equatable, Codable {
    public var id: String
    public var court: String
    /// The court's code generation it joined with; an older one than the court's is revoked.
    public var generation: Int
    /// Its client id toward the daemon, unique: the log shows `<court key>/<name>`.
    public var name: String
    public var joinedAt: Date
    public var lastSeen: Date
    /// Whether it ever sent a command (see ``GatewayStore/markCommanded(device:)``): devices
    /// never used go first when a court is full, and after ``GatewayStore/Limits/unusedDevice``.
    public var commanded: Bool

    public init(
        id: String, court: String, generation: Int, name: String, joinedAt: Date, lastSeen: Date, commanded: Bool = false
    ) {
        self.id = id
        self.court = court
        self.generation = generation
        self.name = name
        self.joinedAt = joinedAt
        self.lastSeen = lastSeen
        self.commanded = commanded
    }
}
