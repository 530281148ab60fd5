import Logging
import ZeroMQ

/// Logs refused handshakes at most once a second, so that a peer retrying a wrong key
/// (or a flood of them) cannot fill the journal.
struct RefusedHandshakes {
    private var lastLogged: ContinuousClock.Instant?
    private var suppressed = 0

    mutating func note(_ request: ZAPRequest, reason: String, logger: Logger) {
        let now = ContinuousClock.now
        if let lastLogged, now - lastLogged < .seconds(1) {
            suppressed += 1
            return
        }
        logger.notice(
            "handshake refused",
            metadata: [
                "peer": "\(request.address)", "key": "\(request.curvePublicKey?.z85 ?? "-")", "reason": "\(reason)",
                "refused.since_last_line": "\(suppressed)",
            ])
        (lastLogged, suppressed) = (now, 0)
    }
}
