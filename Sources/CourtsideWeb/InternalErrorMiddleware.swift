public import Hummingbird
public import Logging
import NIOCore

/// The last word on every route: an error no handler answered is logged with its cause and
/// answered as the JSON error of docs/PROTOCOL.md (`internal_error`, 500), never an empty body;
/// a body over a route's own bound is 413 `message_too_large`; a refusal thrown
/// (``RefusalResponse``) is answered as it is. Hummingbird's own HTTP errors
/// (404 for an unknown path, say) pass as they are.
public struct InternalErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    public init(logger: Logger) { self.logger = logger }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let refusal as RefusalResponse {
            return refusal.response
        } catch is NIOTooManyBytesError {
            return KeeperGateway.error(.messageTooLarge, "the body is over this request's limit", status: .contentTooLarge)
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            logger.error(
                "internal error", metadata: ["method": "\(request.method)", "path": "\(request.uri.path)", "error": "\(error)"])
            return KeeperGateway.error(
                .internalError, "the gateway failed to answer (logged); nothing was changed by this request",
                status: .internalServerError)
        }
    }
}
