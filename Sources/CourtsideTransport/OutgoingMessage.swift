import Logging
import ZeroMQ

/// A message another thread hands the I/O thread to send, its frames as the protocol has them.
///
/// Kept as its parts rather than as an array of frames: a reply's envelope is the request's own
/// array, shared, so a reply allocates nothing beyond its body, and an event nothing beyond its
/// topic and body.
enum OutgoingMessage: Sendable {
    /// A reply on the command socket: the request's envelope, then the body.
    case reply(envelope: [[UInt8]], body: [UInt8])
    /// An event on the event socket: the topic frame, then the body.
    case event(topic: [UInt8], body: [UInt8])
    /// Events on the event socket, in order, each as ``event(topic:body:)`` is sent.
    case events(EventBatch)
    /// Replies on the command socket, in order, each as ``reply(envelope:body:)`` is sent.
    case replies(ReplyBatch)

    /// Whether it goes out on the command socket.
    var isReply: Bool {
        switch self {
        case .reply, .replies: true
        case .event, .events: false
        }
    }

    /// Sends a reply's frames, the envelope's then the body, as one message without waiting.
    static func send(envelope: [[UInt8]], body: [UInt8], on socket: ZMQSocket, logger: Logger) {
        do {
            for index in envelope.indices { try socket.send(frame: envelope[index], more: true, flags: .dontWait) }
            try socket.send(frame: body, more: false, flags: .dontWait)
        } catch {
            dropped(error, logger: logger)
        }
    }

    /// Sends a reply's frames as ``send(envelope:body:on:logger:)`` does, its body lent.
    static func send(envelope: [[UInt8]], body: UnsafeRawBufferPointer, on socket: ZMQSocket, logger: Logger) {
        do {
            for index in envelope.indices { try socket.send(frame: envelope[index], more: true, flags: .dontWait) }
            try socket.send(bytes: body, more: false, flags: .dontWait)
        } catch {
            dropped(error, logger: logger)
        }
    }

    /// Sends a batch's replies in order, each as one message without waiting.
    static func send(_ batch: ReplyBatch, on socket: ZMQSocket, logger: Logger) {
        batch.bodies.withUnsafeBytes { bodies in
            for index in 0..<batch.count {
                let range = batch.body(index)
                send(
                    envelope: batch.envelopes[index], body: UnsafeRawBufferPointer(rebasing: bodies[range]), on: socket,
                    logger: logger)
            }
        }
    }

    /// Sends an event, its topic then its body, as one message without waiting.
    static func send(topic: [UInt8], body: [UInt8], on socket: ZMQSocket, logger: Logger) {
        do {
            try socket.send(frame: topic, more: true, flags: .dontWait)
            try socket.send(frame: body, more: false, flags: .dontWait)
        } catch {
            dropped(error, logger: logger)
        }
    }

    /// Sends a batch's events in order, each as one message without waiting.
    static func send(_ batch: EventBatch, on socket: ZMQSocket, logger: Logger) {
        for index in 0..<batch.count {
            do {
                try socket.send(frame: batch.topics[index], more: true, flags: .dontWait)
                try socket.send(frame: batch.bodies[batch.body(index)], more: false, flags: .dontWait)
            } catch {
                dropped(error, logger: logger)
            }
        }
    }

    private static func dropped(_ error: ZMQError, logger: Logger) {
        // PUB never blocks; a ROUTER peer over its high-water mark loses the reply and retries,
        // which the library answers from its record.
        logger.warning("dropped an outgoing message", metadata: ["error": "\(error)"])
    }
}
