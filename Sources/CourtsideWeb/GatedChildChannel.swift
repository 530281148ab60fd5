public import HummingbirdCore
public import Logging
public import NIOCore

/// A server child channel behind ``ConnectionGate``: an admitted connection is set up and
/// served by `base` (HTTP/1, with TLS or without); a refused one gets only
/// ``RefusedConnectionHandler`` and costs nothing more.
public struct GatedChildChannel<Base: ServerChildChannel>: ServerChildChannel {
    public enum Value: ServerChildChannelValue {
        case admitted(Base.Value)
        case refused(any Channel)

        public var channel: any Channel {
            switch self {
            case .admitted(let value): value.channel
            case .refused(let channel): channel
            }
        }
    }

    let base: Base
    let gate: ConnectionGate
    /// Whether a refused connection reads a 503 (plaintext) or is only closed (TLS: no
    /// handshake is spent on a connection that will not be served).
    let answersRefusals: Bool

    public init(_ base: Base, gate: ConnectionGate, answersRefusals: Bool) {
        (self.base, self.gate, self.answersRefusals) = (base, gate, answersRefusals)
    }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let decision = gate.admit(channel)
        guard decision == .admitted else {
            // Past the refused sockets the gateway holds for their 503, the next is only closed.
            let answer = answersRefusals && gate.holdsRefused(channel) ? RefusedConnectionHandler.busyAnswer(decision) : nil
            return channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(RefusedConnectionHandler(answer: answer))
                return .refused(channel)
            }
        }
        return base.setup(channel: channel, logger: logger).map { .admitted($0) }
    }

    public func handle(value: Value, logger: Logger) async {
        switch value {
        case .admitted(let value): await base.handle(value: value, logger: logger)
        case .refused(let channel): try? await channel.closeFuture.get()
        }
    }
}
