import CourtsideClient
import CourtsideLocalization
import CourtsideModel
import CourtsideProtocol

/// The words of each refusal a page can meet, by its stable code (docs/PROTOCOL.md): the
/// gateway's own, the protocol's, the relay's, and the model's for what a keeper or the desk
/// sends. A page shows them in its language in place of the daemon's English message, which
/// stays in the log and the API; a code not listed here reads as ``other``, never as the code
/// itself.
enum Refusals {
    /// Each code a keeper or the desk can meet and its words' key: one table for both, so a
    /// code reads the same on every page.
    static let keys: [(code: CourtsideError.Code, key: MessageKey)] = [
        (.notJoined, .keeperRefusalNotJoined), (.revoked, .keeperRefusalRevoked),
        (.deviceRevoked, .keeperRefusalDeviceRevoked), (.wrongCode, .keeperRefusalWrongCode),
        (.tooManyAttempts, .keeperRefusalTooManyAttempts), (.slowDown, .keeperRefusalSlowDown),
        (.forbidden, .keeperRefusalForbidden), (.badRequest, .keeperRefusalBadRequest),
        (.badFrames, .keeperRefusalBadFrames), (.unknownOperation, .keeperRefusalUnknownOperation),
        (.messageTooLarge, .keeperRefusalMessageTooLarge), (.overloaded, .keeperRefusalOverloaded),
        (.internalError, .keeperRefusalInternalError), (.unreachable, .keeperRefusalUnreachable),
        (.notActive, .keeperRefusalNotActive), (.shuttingDown, .keeperRefusalShuttingDown),
        (.storageFailure, .keeperRefusalStorageFailure), (.retryExpired, .keeperRefusalRetryExpired),
        (.unknownGame, .keeperRefusalUnknownGame), (.unknownPlayer, .keeperRefusalUnknownPlayer),
        (.playerNotInGame, .keeperRefusalPlayerNotInGame), (.playerInactive, .keeperRefusalPlayerInactive),
        (.gameFinished, .keeperRefusalGameFinished), (.unknownEvent, .keeperRefusalUnknownEvent),
        (.notAMove, .keeperRefusalNotAMove), (.alreadyRetracted, .keeperRefusalAlreadyRetracted),
        (.clockRunning, .keeperRefusalClockRunning), (.clockNotRunning, .keeperRefusalClockNotRunning),
        (.noTimeoutsLeft, .keeperRefusalNoTimeoutsLeft), (.bracketLocked, .keeperRefusalBracketLocked),
        (.bracketPending, .keeperRefusalBracketPending),
        // What only the desk's changes, decisions and draws meet.
        (.notSignedIn, .refusalNotSignedIn), (.protocolViolation, .refusalProtocolViolation),
        (.badKey, .refusalBadKey), (.gameExists, .refusalGameExists), (.invalidGame, .refusalInvalidGame),
        (.invalidReason, .refusalInvalidReason), (.invalidText, .refusalInvalidText),
        (.unknownTeam, .refusalUnknownTeam), (.teamExists, .refusalTeamExists),
        (.playerExists, .refusalPlayerExists), (.gameStarted, .refusalGameStarted),
        (.stageStarted, .refusalStageStarted),
    ]

    /// The words of a refusal whose code is not listed.
    static let other = MessageKey.keeperRefusalOther

    /// One refusal's words as the keeper page carries them.
    struct Refusal {
        var code: String
        var text: String
    }

    /// Every listed refusal in `words`' language.
    static func all(_ words: Words) -> [Refusal] {
        keys.map { Refusal(code: $0.code.rawValue, text: words($0.key)) }
    }

    /// The words of the refusal with `code`, in `words`' language.
    static func text(_ code: CourtsideError.Code, words: Words = .english) -> String {
        words(keys.first { $0.code == code }?.key ?? other)
    }
}
