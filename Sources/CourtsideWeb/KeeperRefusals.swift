import CourtsideClient
import CourtsideLocalization
import CourtsideModel
import CourtsideProtocol

/// The words of each refusal a keeper can meet, by its stable code (docs/PROTOCOL.md): the
/// gateway's own, the protocol's, and the model's for the moves, clock and time-outs a keeper
/// sends. The keeper page carries them in its language and shows them in place of the daemon's
/// English message, which stays in the log and the API; a code not listed here reads as
/// ``other``, never as the code itself.
enum KeeperRefusals {
    /// Each code a keeper can meet and its words' key.
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
    ]

    /// The words of a refusal whose code is not listed.
    static let other = MessageKey.keeperRefusalOther

    /// One refusal's words as the page carries them.
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
