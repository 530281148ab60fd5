import CourtsideLocalization
import CourtsideModel

/// A change the organiser makes to the join codes at the desk, read from its form: a new code
/// for a court, or one device revoked (a lost phone). A new code names the code it replaces,
/// so a confirmation sent twice renews the court's code once.
enum DeskCodeAction: Equatable {
    /// A new code for `court`, if its current one is still code `replacing` (0: it has none).
    case newCode(court: String, replacing: Int)
    /// One device revoked, by its name (the desk's pages never show a device's id).
    case revoke(device: String)

    /// The action a form stands for, or why it is none (in `words`' language).
    static func parse(_ fields: [String: String], words: Words = .english) -> Result<DeskCodeAction, CourtsideError> {
        switch fields["action"] {
        case "new_code":
            guard let court = fields["court"], !court.isEmpty, court.count <= 200 else {
                return .failure(CourtsideError(.badRequest, Refusals.text(.badRequest, words: words)))
            }
            guard let generation = fields["replacing"].flatMap(Int.init), generation >= 0 else {
                return .failure(CourtsideError(.badRequest, Refusals.text(.badRequest, words: words)))
            }
            return .success(.newCode(court: court, replacing: generation))
        case "revoke":
            guard let device = fields["device"], !device.isEmpty, device.count <= 200 else {
                return .failure(CourtsideError(.badRequest, Refusals.text(.badRequest, words: words)))
            }
            return .success(.revoke(device: device))
        default:
            return .failure(CourtsideError(.badRequest, Refusals.text(.badRequest, words: words)))
        }
    }

    /// The action in English words.
    var summary: String { summary(.english) }

    /// The action in words, for the organiser to confirm, in `words`' language.
    func summary(_ words: Words = .english) -> String {
        switch self {
        case .newCode(let court, 0): words(.deskCodesFirst, ["court": court])
        case .newCode(let court, _): words(.deskCodesRenew, ["court": court])
        case .revoke(let device): words(.deskCodesRevokeSummary, ["device": device])
        }
    }

    /// The form's fields, to send again with the confirmation.
    var fields: [(name: String, value: String)] {
        switch self {
        case .newCode(let court, let generation): [("action", "new_code"), ("court", court), ("replacing", "\(generation)")]
        case .revoke(let device): [("action", "revoke"), ("device", device)]
        }
    }
}
