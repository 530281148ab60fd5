import CourtsideLocalization
import CourtsideModel
import Logging

/// The desk's words for a command the daemon refused or never answered: the catalog's text for
/// the refusal's stable code (``Refusals``), and what the desk itself sent (the change's summary)
/// for which game, team or player it was about. The daemon's English message is logged, and
/// stays in the API; no page shows it.
enum DeskRefusal {
    /// The daemon's refusal of the change `summary` says, in `words`' language.
    static func refused(_ error: CourtsideError, summary: String, words: Words, logger: Logger) -> String {
        log(error, as: "the daemon refused the desk's command", logger: logger)
        return words(.deskRefused, ["summary": summary, "reason": Refusals.text(error.code, words: words)])
    }

    /// A command that went unanswered (or the relay could not send), in `words`' language: the
    /// same command may be confirmed again.
    static func notSent(_ error: CourtsideError, words: Words, logger: Logger) -> String {
        log(error, as: "the desk's command went unanswered", logger: logger)
        return words(.deskNotSent, ["reason": Refusals.text(error.code, words: words)])
    }

    /// Why something the desk reads could not be read (the tournament, a game's log), in
    /// `words`' language.
    static func unreadable(_ error: CourtsideError, words: Words, logger: Logger) -> String {
        log(error, as: "the desk could not read from the daemon", logger: logger)
        return Refusals.text(error.code, words: words)
    }

    /// A form the desk refused before sending anything: its own words for a form it could not
    /// read (already in `words`' language), the catalog's for a text the model's rule refuses
    /// (the rule's English, which names the field, is logged).
    static func form(_ error: CourtsideError, words: Words, logger: Logger) -> String {
        if error.code == .badRequest { return error.message }
        log(error, as: "the desk refused a form", logger: logger)
        return Refusals.text(error.code, words: words)
    }

    /// The refusal in the log, with the daemon's own English message.
    static func log(_ error: CourtsideError, as what: Logger.Message, logger: Logger) {
        logger.notice(what, metadata: ["error.code": "\(error.code.rawValue)", "error.message": "\(error.message)"])
    }
}
