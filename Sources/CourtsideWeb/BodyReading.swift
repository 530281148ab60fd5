import Hummingbird
import NIOCore

/// Reading a request's body whole, under a route's own bound, with one answer for every door:
/// 413 `message_too_large` over the bound, 400 `bad_request` when it cannot be read. The refusal
/// is thrown, and ``InternalErrorMiddleware`` answers with it.
enum BodyReading {
    static func collect(_ request: Request, upTo limit: Int) async throws(RefusalResponse) -> ByteBuffer {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw tooLarge("the body is \(length) bytes; the limit is \(limit)")
        }
        do {
            return try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw tooLarge("the body is over \(limit) bytes")
        } catch {
            throw .init(KeeperGateway.error(.badRequest, "the body could not be read whole", status: .badRequest))
        }
    }

    private static func tooLarge(_ message: String) -> RefusalResponse {
        .init(KeeperGateway.error(.messageTooLarge, message, status: .contentTooLarge))
    }
}
