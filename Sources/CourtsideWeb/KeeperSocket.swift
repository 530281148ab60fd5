import CourtsideModel
import CourtsideProtocol
import CourtsideWebStore
public import HTTPTypes
import Hummingbird
public import HummingbirdWebSocket
public import Logging
public import NIOCore

/// The keeper's socket, `GET /api/keep/socket` upgraded to a WebSocket: the page's commands
/// without a request each (Chromium's own fetch of a trivial POST took 1.3 to 2 ms, a message and
/// its answer 0.3 to 0.5 ms). Each text message is one command, exactly the POST's body, and is
/// answered by one text message: the POST's status and body, and the command's id (answers may
/// come in any order). The device is read from the store at each command, as for the POST, so a
/// device that left or was revoked gets its 401-equivalent answer on an old socket.
extension KeeperGateway {
    static let socketPath = "/api/keep/socket"
    /// Commands one socket has in flight at most: the next message is read when one is answered,
    /// so one socket holds no more of the gateway than this many POSTs would.
    static let socketCommandsInFlight = 16

    /// Whether an upgrade request becomes a keeper's socket: only `GET /api/keep/socket` from
    /// this site (browsers send cookies on cross-site upgrades too) with a joined device's session.
    /// A refused upgrade is answered 400 and its connection closed. An upgraded socket's
    /// commands are read, decided and answered on `eventLoop`, its connection's
    /// (``EventLoopTaskExecutor``).
    public func socketUpgrade(_ head: HTTPRequest, eventLoop: any EventLoop, logger: Logger) async
        -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>>
    {
        guard head.method == .get, head.path?.split(separator: "?", maxSplits: 1).first == Self.socketPath[...] else {
            return .dontUpgrade
        }
        let request = Request(head: head, body: .init(buffer: ByteBuffer()))
        if CrossSiteMiddleware<GatewayRequestContext>.isCrossSite(request) {
            logger.debug("keeper socket refused: another site")
            return .dontUpgrade
        }
        guard case .device? = try? await authenticator.identity(of: request) else {
            logger.debug("keeper socket refused: no joined device")
            return .dontUpgrade
        }
        return .upgrade(
            [:],
            { inbound, outbound, _ in
                try await withTaskExecutorPreference(EventLoopTaskExecutor(eventLoop)) {
                    try await self.serve(inbound, outbound, request: request)
                }
            })
    }

    /// Reads commands until the socket closes, each answered as soon as it is decided.
    private func serve(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, request: Request) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var inFlight = 0
            for try await message in inbound.messages(maxSize: ProtocolLimits.maxRequestBytes) {
                guard case .text(let text) = message else {
                    try await outbound.close(.unacceptableData, reason: "commands are text messages")
                    break
                }
                if inFlight == Self.socketCommandsInFlight {
                    try await group.next()
                    inFlight -= 1
                }
                inFlight += 1
                group.addTask {
                    let answer = await self.socketAnswer(Array(text.utf8), request: request)
                    // A socket closed meanwhile loses only the answer: the page sends the command
                    // again by POST with its ids, and the daemon answers the retry once.
                    try? await outbound.write(.text(answer))
                }
            }
            try await group.waitForAll()
        }
    }

    /// One command's answer message: the device as the store has it now, then the POST's checks.
    func socketAnswer(_ body: [UInt8], request: Request) async -> String {
        let answer: KeeperCommandAnswer
        do {
            switch GatewayIdentity.device(in: try await authenticator.identity(of: request)) {
            case .success(let device):
                answer = await self.answer(body, from: device)
            case .failure(let refusal):
                answer = KeeperCommandAnswer(
                    refusal.error.code, refusal.error.message, status: .unauthorized,
                    commandID: KeeperCommandAnswer.commandID(of: body))
            }
        } catch {
            answer = KeeperCommandAnswer(
                .unreachable, "the gateway could not read its store; the command is kept and sent again",
                status: .serviceUnavailable, commandID: KeeperCommandAnswer.commandID(of: body))
        }
        let message = SocketAnswer(status: answer.status.code, commandID: answer.commandID, reply: answer.reply)
        return String(decoding: JSONWriter.written { message.writeJSON(to: &$0) }, as: UTF8.self)
    }

    /// A socket's answer: the status the POST would have had, the command's id, and the POST's
    /// body. Written by ``JSONWriter``, as the daemon writes its replies: one per command, on the
    /// connection's event loop.
    struct SocketAnswer: JSONWritable {
        var status: Int
        var commandID: String?
        var reply: Reply

        func writeJSON(to writer: inout JSONWriter) {
            writer.beginObject()
            if let commandID {
                writer.key("command_id")
                writer.value(commandID)
            }
            writer.key("reply")
            writer.value(reply)
            writer.key("status", value: status)
            writer.endObject()
        }
    }
}
