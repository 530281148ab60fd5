import NIOCore

/// Closes a channel when NIO's `IdleStateHandler` in front of it reports that no write has
/// completed for its write timeout: an event stream whose browser stopped reading, its socket's
/// buffer full. Healthy streams complete a write at least every ping (15 s).
final class StalledWriteCloser: ChannelInboundHandler, Sendable {
    typealias InboundIn = NIOAny

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .write {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Puts the idle handler and the closer at the head of `channel`'s pipeline, where they see
    /// every write reach the socket, once per stream rather than a timer per write.
    static func watch(_ channel: any Channel, stall: TimeAmount) async throws {
        try await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.addHandlers(
                [IdleStateHandler(writeTimeout: stall), StalledWriteCloser()], position: .first)
        }.get()
    }
}
