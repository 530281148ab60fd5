public import HummingbirdCore
public import Logging
public import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 channel (with the keeper's WebSocket upgrade) with
/// ``RequestFramingHandler`` right after NIO's request decoder: Hummingbird offers handlers only
/// after its own conversion of the head, where a refusal could no longer stop the body from
/// being read. Its connections log through ``UpgradeEndLogHandler``, so a guest that closes
/// mid-upgrade writes no error line.
public struct FramedHTTP1Channel<Base: ServerChildChannel>: ServerChildChannel {
    public typealias Value = Base.Value

    let base: Base
    let maxBodyBytes: Int
    let bodyTimeout: Duration
    let headTimeout: Duration?

    /// `headTimeout`: the first head's deadline, for a `base` that sets none before it.
    public init(_ base: Base, maxBodyBytes: Int, bodyTimeout: Duration, headTimeout: Duration? = nil) {
        (self.base, self.maxBodyBytes, self.bodyTimeout, self.headTimeout) = (base, maxBodyBytes, bodyTimeout, headTimeout)
    }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(
                RequestFramingHandler(
                    maxBodyBytes: maxBodyBytes, bodyTimeout: TimeAmount(bodyTimeout),
                    headTimeout: headTimeout.map(TimeAmount.init)),
                position: .after(decoder.handler))
            return value
        }
    }

    public func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger.quietingUpgradeEnds)
    }
}
