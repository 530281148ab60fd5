import CourtsideModel
import Foundation
import NIOCore
import NIOHTTP1

/// Checks how each HTTP/1 request is framed before anything else reads it, and answers the
/// ones the gateway will not take, then closes the connection (RFC 9112, section 6.3):
/// - a transfer coding other than a final `chunked`: 400 (NIO's decoder alone serves `xchunked`
///   as if absent);
/// - a declared body over the gateway's limit: 413 at once, before a byte of it is read (so that
///   an `Expect: 100-continue` for a gigabyte gets an answer, not silence);
/// - an `Expect` other than `100-continue`: 417; a `100-continue` within the limit is answered.
/// It also gives each request's body a deadline from its head: a body that trickles in is closed.
///
/// It sits right after NIO's request decoder, where the head still carries its framing headers.
/// A refused head pipelined behind requests still being answered waits for their answers' ends,
/// so its 400 never lands inside another response.
///
/// A WebSocket upgrade request (the keeper's socket) is checked as any request, and then the
/// handler passes everything through untouched: after the upgrade the bytes are WebSocket
/// frames, not HTTP. An upgrade that is not made ends its connection after its answer.
/// Given a head timeout, it also closes a new connection that sends no head in time (the
/// upgrade-capable channel sets Hummingbird's idle timeout only after the first head).
final class RequestFramingHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        case idle
        /// A request's body is on its way; the connection closes at the deadline.
        case reading(deadline: Scheduled<Void>)
        /// A request was refused: whatever follows is dropped until the connection closes.
        case refused
        /// A WebSocket upgrade was asked for: what comes in passes untouched, and the answer
        /// decides (101: the rest is WebSocket; anything else: the connection ends).
        case upgrading
        /// Upgraded: every byte passes untouched.
        case upgraded
    }

    private let maxBodyBytes: Int
    private let bodyTimeout: TimeAmount
    private var state = State.idle
    /// Requests passed on whose response has not ended yet.
    private var unanswered = 0
    /// A refusal waiting for the responses before it to end.
    private var waiting: (refusal: Refusal, version: HTTPVersion)?
    private let headTimeout: TimeAmount?
    /// Closes a connection whose first head has not come within ``headTimeout``.
    private var headDeadline: Scheduled<Void>?

    init(maxBodyBytes: Int, bodyTimeout: TimeAmount, headTimeout: TimeAmount? = nil) {
        (self.maxBodyBytes, self.bodyTimeout, self.headTimeout) = (maxBodyBytes, bodyTimeout, headTimeout)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        guard let headTimeout else { return }
        let channel = context.channel
        headDeadline = context.eventLoop.scheduleTask(in: headTimeout) { channel.close(promise: nil) }
    }

    /// Whether a head asks for a WebSocket (`Connection: upgrade`, `Upgrade: websocket`).
    static func asksForWebSocket(_ head: HTTPRequestHead) -> Bool {
        head.headers["upgrade"].contains { $0.lowercased().contains("websocket") }
            && head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "upgrade" }
    }

    /// Why a request head is refused: the status, the error code and the message.
    struct Refusal: Equatable {
        var status: HTTPResponseStatus
        var code: String
        var message: String
    }

    /// The refusal a request head earns, or nil when it may be read. Pure, for the tests.
    static func check(_ head: HTTPRequestHead, maxBodyBytes: Int) -> Refusal? {
        let codings = head.headers["transfer-encoding"].flatMap { $0.split(separator: ",") }.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        if !codings.isEmpty {
            guard codings.last == "chunked" else {
                return Refusal(
                    status: .badRequest, code: "bad_request",
                    message: "the body's length cannot be known: chunked is not the last transfer coding")
            }
            guard codings.count == 1 else {
                return Refusal(
                    status: .notImplemented, code: "bad_request", message: "only the chunked transfer coding is understood")
            }
            if !head.headers["content-length"].isEmpty {
                return Refusal(
                    status: .badRequest, code: "bad_request",
                    message: "a request has Content-Length or Transfer-Encoding, not both")
            }
        }
        let lengths = head.headers["content-length"]
        if let declared = lengths.first {
            guard lengths.count == 1, let length = Int(declared.trimmingCharacters(in: .whitespaces)), length >= 0 else {
                return Refusal(status: .badRequest, code: "bad_request", message: "the Content-Length is not one number")
            }
            if length > maxBodyBytes {
                return Refusal(
                    status: .payloadTooLarge, code: "message_too_large",
                    message: "the body is \(length) bytes; the gateway takes at most \(maxBodyBytes)")
            }
        }
        if let expect = head.headers["expect"].first, expect.lowercased() != "100-continue" {
            return Refusal(status: .expectationFailed, code: "bad_request", message: "only Expect: 100-continue is understood")
        }
        return nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch state {
        case .refused: return
        // Bytes left in NIO's decoder when it is removed for the upgrade come as they are.
        case .upgrading, .upgraded: return context.fireChannelRead(data)
        case .idle, .reading: break
        }
        let part = unwrapInboundIn(data)
        switch (state, part) {
        case (_, .head(let head)):
            headDeadline?.cancel()
            headDeadline = nil
            if let refusal = Self.check(head, maxBodyBytes: maxBodyBytes) {
                cancelDeadline()
                state = .refused
                if unanswered == 0 {
                    refuse(refusal, version: head.version, context: context)
                } else {
                    waiting = (refusal, head.version)
                }
                return
            }
            unanswered += 1
            if head.headers["expect"].first != nil {
                context.writeAndFlush(
                    wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
            }
            cancelDeadline()
            if Self.asksForWebSocket(head) {
                state = .upgrading
                break
            }
            let channel = context.channel
            state = .reading(deadline: context.eventLoop.scheduleTask(in: bodyTimeout) { channel.close(promise: nil) })
        case (_, .end):
            cancelDeadline()
            state = .idle
        case (_, .body):
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .upgraded = state { return context.write(data, promise: promise) }
        if case .upgrading = state {
            switch unwrapOutboundIn(data) {
            case .head(let head) where head.status == .switchingProtocols:
                state = .upgraded
            case .end:
                // Not upgraded: what follows on this connection would not be checked.
                let channel = context.channel
                let written = context.writeAndFlush(data)
                written.cascade(to: promise)
                written.whenComplete { _ in channel.close(promise: nil) }
                return
            default: break
            }
            return context.write(data, promise: promise)
        }
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        unanswered = max(0, unanswered - 1)
        context.write(data, promise: promise)
        if unanswered == 0, let (refusal, version) = waiting {
            waiting = nil
            refuse(refusal, version: version, context: context)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelDeadline()
        headDeadline?.cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelDeadline()
        headDeadline?.cancel()
        context.fireChannelInactive()
    }

    private func cancelDeadline() {
        if case .reading(let deadline) = state { deadline.cancel() }
    }

    /// Writes the refusal, closes our side, and the connection a moment later: closing at once
    /// with the guest's body unread would reset the connection before the answer is read.
    private func refuse(_ refusal: Refusal, version: HTTPVersion, context: ChannelHandlerContext) {
        let body = DoorAnswer.errorBody(CourtsideError.Code(rawValue: refusal.code), refusal.message)
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "application/json")
        headers.add(name: "content-length", value: "\(body.readableBytes)")
        headers.add(name: "connection", value: "close")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: version, status: refusal.status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(mode: .output, promise: nil) }
        context.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
    }
}
