public import HummingbirdCore
public import Logging
public import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 channel with ``RequestFramingHandler`` right after NIO's request
/// decoder: Hummingbird offers handlers only after its own conversion of the head, where a
/// refusal could no longer stop the body from being read.
public struct FramedHTTP1Channel: ServerChildChannel {
    public typealias Value = HTTP1Channel.Value

    let base: HTTP1Channel
    let maxBodyBytes: Int
    let bodyTimeout: Duration

    public init(_ base: HTTP1Channel, maxBodyBytes: Int, bodyTimeout: Duration) {
        (self.base, self.maxBodyBytes, self.bodyTimeout) = (base, maxBodyBytes, bodyTimeout)
    }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(
                RequestFramingHandler(maxBodyBytes: maxBodyBytes, bodyTimeout: TimeAmount(bodyTimeout)),
                position: .after(decoder.handler))
            return value
        }
    }

    public func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
