import HTTPTypes
import Hummingbird

/// A refusal a handler throws (a request with no joined device or no desk session, a body too
/// large), answered as it is: ``InternalErrorMiddleware`` lets it through unchanged.
struct RefusalResponse: HTTPResponseError {
    let response: Response
    init(_ response: Response) { self.response = response }
    var status: HTTPResponse.Status { response.status }
    func response(from request: Request, context: some RequestContext) throws -> Response { response }
}
