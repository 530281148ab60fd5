import CourtsideModel
import CourtsideProtocol
import CourtsideWebStore
import Foundation
import HTTPTypes
import Hummingbird

/// One keeper command's answer, the same whichever way it came (`POST /api/keep/commands` or
/// the keeper's socket): the HTTP status it stands for, the daemon's reply or the gateway's
/// refusal, and the command's id when it could be read.
struct KeeperCommandAnswer: Sendable {
    var status: HTTPResponse.Status
    var reply: Reply
    /// The command's id, from the command itself when the reply has none (a refusal of the gateway's).
    var commandID: String?

    init(status: HTTPResponse.Status = .ok, reply: Reply, commandID: String? = nil) {
        (self.status, self.reply, self.commandID) = (status, reply, commandID ?? reply.commandID)
    }

    init(_ code: CourtsideError.Code, _ message: String, status: HTTPResponse.Status, commandID: String?) {
        self.init(status: status, reply: .failure(CourtsideError(code, message), commandID: nil, epoch: ""), commandID: commandID)
    }

    /// The answer as the POST gives it: the reply as its body, `Retry-After: 1` on a 503, and the
    /// version of the daemon's ok in the head as well: the page confirms the tap when the answer's
    /// head arrives (reading the body took the page 1.6 ms p50).
    var response: Response {
        var response = WebGateway.json(reply, status: status)
        if status == .serviceUnavailable { response.headers[.retryAfter] = "1" }
        if status == .ok, reply.ok, reply.error == nil, let version = reply.version {
            response.headers[KeeperGateway.versionField] = String(version)
        }
        return response
    }

    /// The command id of a body the gateway could not read as a command, if it has one: the
    /// socket's answer carries it, so that the page can match the refusal to its command.
    static func commandID(of body: [UInt8]) -> String? {
        ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any])?["command_id"] as? String
    }
}

extension KeeperGateway {
    /// Checks one command from a device (its body as sent) and passes it on; the answer is the
    /// daemon's reply, or the gateway's refusal.
    func answer(_ body: [UInt8], from device: KeeperDevice) async -> KeeperCommandAnswer {
        let command: CourtsideProtocol.Request
        do {
            command = try Self.command(body, device: device, keyed: relay.isKeyed)
        } catch {
            return KeeperCommandAnswer(
                error.code, error.message, status: error.code == .forbidden ? .forbidden : .badRequest,
                commandID: KeeperCommandAnswer.commandID(of: body))
        }
        let commandID = command.origin.commandID
        // On a plaintext daemon no key limits the gateway, so it keeps each device to its court
        // itself, and refuses what it cannot vouch for.
        if !relay.isKeyed, let game = command.operation.game {
            let view = live.current
            guard view.inSync else {
                return KeeperCommandAnswer(
                    .unreachable, "the gateway is catching up with courtsided; the command is kept and sent again",
                    status: .serviceUnavailable, commandID: commandID)
            }
            guard let known = view.games[game] else {
                let error = CourtsideError(.unknownGame, "no game has id \(game)")
                return KeeperCommandAnswer(reply: .failure(error, commandID: commandID, epoch: view.epoch))
            }
            if known.setup.court != device.court {
                return KeeperCommandAnswer(
                    .forbidden, "this device keeps score on \(device.court); \(game) is on \(known.setup.court ?? "no court")",
                    status: .forbidden, commandID: commandID)
            }
        }
        if !device.commanded {
            // A device that keeps score is kept before the court's unused ones; noted once.
            _ = try? await store.markCommanded(device: device.id)
        }
        do throws(CourtsideError) {
            let reply = try await relay.send(command.operation, origin: command.origin, court: device.court)
            // No daemon was active yet (a takeover under way): nothing was decided, so the page
            // keeps the command and sends it again, as when the daemon does not answer.
            if let error = reply.error, error.code == .notActive { throw CourtsideError(error.code, error.message) }
            return KeeperCommandAnswer(reply: reply, commandID: commandID)
        } catch {
            // The page keeps the command and retries it with the same ids: the daemon applies it once.
            return KeeperCommandAnswer(
                error.code, error.message, status: error.code == .forbidden ? .forbidden : .serviceUnavailable,
                commandID: commandID)
        }
    }
}
