import CourtsideLibrary
import CourtsideModel
import CourtsideProtocol
import CourtsideTransport
import Logging

/// Answers a command once its result is known: on the committing thread (the log writer's, or
/// the I/O thread's) right after the commit, so the reply needs no trip through the pool.
///
/// One object, so that the handler each command leaves with its commit holds one reference for
/// the responder and the logger rather than one for each of their parts: those are retained on
/// the pool and released on the committing thread, a move apiece.
final class CommandAnswers: Sendable {
    let responder: Responder
    let logger: Logger

    init(responder: Responder, logger: Logger) {
        self.responder = responder
        self.logger = logger
    }

    func answer(_ incoming: IncomingRequest, origin: CommandOrigin, result: Result<Receipt, CourtsideError>, op: String) {
        // Metadata is written inline: the logger builds it only when the level is enabled.
        switch result {
        case .success(let receipt):
            var answer = Reply(commandID: origin.commandID, epoch: responder.epoch)
            (answer.game, answer.version, answer.sequence) = (receipt.gameID, receipt.version, receipt.sequence)
            logger.debug(
                "command applied",
                metadata: [
                    "client": "\(origin.clientID)", "command": "\(origin.commandID)", "game": "\(receipt.gameID)",
                    "sequence": "\(receipt.sequence)",
                ])
            responder.send(incoming, answer, op: op)
        case .failure(let error):
            logger.info(
                "command refused: \(error.message)",
                metadata: ["client": "\(origin.clientID)", "command": "\(origin.commandID)", "error.code": "\(error.code)"])
            responder.fail(incoming, error, commandID: origin.commandID, op: op)
        }
    }
}
